"""Backup and restore of a whole tournament."""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests.support.factories import TournamentFactory
from tournament.backup.services import tournament_backup
from tournament.models import GameScore, ResultVersion, Seat, Tournament
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db


def strip(doc):
    doc = json.loads(json.dumps(doc))
    doc["tournament"]["slug"] = "x"
    doc["audit"] = [e for e in doc["audit"] if e["action"] != "tournament.restore"]
    # A copy beside its original gets personal links of its own.
    for player in doc["players"]:
        player.pop("link")
    return doc


def test_backup_restore_round_trip(tmp_path):
    call_command("demo", "--complete", "2", stdout=StringIO())
    original = Tournament.objects.get(slug="rm-2026")
    original.referees.set(get_user_model().objects.filter(username="referee2"))
    path = tmp_path / "rm.json"
    call_command("backup", "rm-2026", "-o", str(path), stdout=StringIO())
    call_command("restore", str(path), "--slug", "rm-copy", stdout=StringIO())
    copy = Tournament.objects.get(slug="rm-copy")
    assert [u.username for u in copy.referees.all()] == ["referee2"]

    def table(t):
        return [
            (r.rank, r.start_number, r.points, r.series_points)
            for r in standings_rows(t)
        ]

    assert table(copy) == table(original)
    assert (
        Seat.objects.filter(series__tournament=copy).count()
        == Seat.objects.filter(series__tournament=original).count()
    )
    assert ResultVersion.objects.filter(table__series__tournament=copy).count() > 0
    assert GameScore.objects.filter(series__tournament=copy).count() == (
        GameScore.objects.filter(series__tournament=original).count()
    )
    assert strip(tournament_backup(tournament=copy)) == strip(
        tournament_backup(tournament=original)
    )

    # Each restored player is the person of the same name and club.
    def persons(t):
        return sorted(t.entries.values_list("start_number", "player__person_id"))

    assert persons(copy) == persons(original)


def test_restore_refuses_an_existing_slug_and_bad_files(tmp_path):
    call_command("demo", stdout=StringIO())
    path = tmp_path / "rm.json"
    call_command("backup", "rm-2026", "-o", str(path), stdout=StringIO())
    with pytest.raises(CommandError, match="gibt es schon"):
        call_command("restore", str(path), stdout=StringIO())
    call_command("restore", str(path), "--replace", stdout=StringIO())
    assert Tournament.objects.filter(slug="rm-2026").count() == 1
    bad = tmp_path / "bad.json"
    doc = json.loads(path.read_text())
    doc["players"][3]["start_number"] = "vier"
    bad.write_text(json.dumps(doc))
    before = Tournament.objects.count()
    with pytest.raises(CommandError):
        call_command("restore", str(bad), "--slug", "kaputt", stdout=StringIO())
    assert Tournament.objects.count() == before
    bad.write_text("{nonsense")
    with pytest.raises(CommandError, match="kein lesbares JSON"):
        call_command("restore", str(bad), stdout=StringIO())


def test_a_restored_backup_backs_up_to_the_same_file(tmp_path):
    # The demo with every series played, referees and a withdrawal: a backup
    # restored in place of its tournament writes the same file again, byte
    # for byte, but for the restore's own line in the audit trail.
    call_command("demo", "--complete", "2", stdout=StringIO())
    original = Tournament.objects.get(slug="rm-2026")
    original.referees.set(get_user_model().objects.filter(username="referee2"))
    first = tmp_path / "first.json"
    again = tmp_path / "again.json"
    call_command("backup", "rm-2026", "-o", str(first), stdout=StringIO())
    call_command("restore", str(first), "--replace", stdout=StringIO())
    call_command("backup", "rm-2026", "-o", str(again), stdout=StringIO())
    doc = json.loads(again.read_text("utf-8"))
    assert doc["audit"][-1]["action"] == "tournament.restore"
    del doc["audit"][-1]
    assert json.dumps(doc, ensure_ascii=False, indent=1) == first.read_text("utf-8")


@pytest.mark.slow
def test_restore_on_a_new_servers_empty_database_sets_it_up_first(tmp_path):
    """A backup taken on the hall's laptop, restored on a new server whose
    database nobody migrated: it is set up first, then restored, and with
    the accounts asked for, the referees sign in there as before."""
    from tests.support import servers as support

    (tmp_path / "hall").mkdir()
    (tmp_path / "neu").mkdir()
    source_env = support.server_env(tmp_path / "hall")
    support.seed_database(source_env)
    plain, full = tmp_path / "sicherung.json", tmp_path / "mit-konten.json"
    said = support.manage(source_env, "backup", support.SLUG, "-o", str(plain))
    assert "The accounts are not in it" in said
    support.manage(
        source_env, "backup", support.SLUG, "-o", str(full), "--with-accounts"
    )
    assert "accounts" not in json.loads(plain.read_text())
    new_env = support.server_env(
        tmp_path / "neu", DATABASE_URL=f"sqlite:///{tmp_path / 'neu.sqlite3'}"
    )
    said = support.manage(new_env, "restore", str(full), "--with-accounts")
    assert "Die Datenbank wird zuerst eingerichtet" in said
    assert f"Restored {support.SLUG}" in said
    assert "Accounts: 2 made, 0 already there" in said
    signs_in = support.manage(
        new_env,
        "shell",
        "-c",
        "from django.contrib.auth.models import User; "
        "u = User.objects.get(username='schiri'); "
        f"print(u.check_password('{support.PASSWORD}'), "
        "[g.name for g in u.groups.all()])",
    )
    assert signs_in.strip().splitlines()[-1] == "True ['referee']"
    out = support.manage(new_env, "standings", support.SLUG)
    assert out.strip(), "no standings after the restore"


@pytest.mark.django_db
def test_a_damaged_account_restores_nothing(tmp_path):
    tournament = TournamentFactory(slug="konten")
    doc = tournament_backup(tournament=tournament)
    tournament.delete()
    doc["accounts"] = [
        {
            "username": "neu",
            "first_name": "",
            "last_name": "",
            "email": "",
            "password": "!",
            "is_active": True,
            "is_staff": False,
            "is_superuser": False,
            "groups": ["referee"],
        },
        {"username": "kaputt", "is_superuser": "ja"},
    ]
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match="Konto 2 ist unvollständig"):
        call_command("restore", str(path), "--with-accounts", stdout=StringIO())
    assert not get_user_model().objects.filter(username="neu").exists()
    assert not Tournament.objects.filter(slug="konten").exists()


@pytest.mark.django_db
def test_a_backup_with_accounts_is_for_its_owner_only(tmp_path):
    """It holds password hashes: readable by nobody else on the machine, from
    its first byte on. Either way the command says what is not in it."""
    TournamentFactory(slug="konten")
    full = tmp_path / "mit-konten.json"
    said = StringIO()
    call_command("backup", "konten", "-o", str(full), "--with-accounts", stdout=said)
    assert full.stat().st_mode & 0o777 == 0o600
    assert "Only its owner may read this file" in said.getvalue()
    assert "Season rankings, past champions" in said.getvalue()
