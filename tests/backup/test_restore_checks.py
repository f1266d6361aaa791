"""A restore writes only what the site itself would accept: the
file is checked as a whole, and a refused file writes nothing."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.support.worlds import kept_for_the_fixture
from tournament.backup.services import tournament_backup
from tournament.models import AuditEvent, Entry, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo with one series played, built once for the file, and its
    backup as the file holds it."""
    with kept_for_the_fixture(django_db_blocker):
        call_command("demo", "--complete", "1", "--players", "16", stdout=StringIO())
        doc = tournament_backup(tournament=Tournament.objects.get(slug="rm-2026"))
        yield json.dumps(doc)


@pytest.fixture
def backup(demo, db):
    """The demo's backup, the test's own copy to change."""
    return json.loads(demo)


def restore(tmp_path, doc, *args):
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc))
    call_command("restore", str(path), *args, stdout=StringIO())


def rows():
    return (
        Tournament.objects.count(),
        Player.objects.count(),
        Entry.objects.count(),
        AuditEvent.objects.count(),
    )


def refused(tmp_path, doc, *args, match):
    before = rows()
    with pytest.raises(CommandError, match=match):
        restore(tmp_path, doc, *args)
    assert rows() == before


def test_the_probes_slug_is_refused_and_the_site_stays_up(tmp_path, backup):
    backup["tournament"]["slug"] = "bad slug/.."
    refused(tmp_path, backup, match="Kurzname")
    assert Client().get("/").status_code == 200


@pytest.mark.parametrize("slug", ["bad slug/..", "RM-Kopie", "ü"])
def test_a_bad_slug_given_on_the_command_line_is_refused(tmp_path, backup, slug):
    refused(tmp_path, backup, "--slug", slug, match="Kurzname")


@pytest.mark.parametrize("key", ["id", "has_tiebreaks", "created_at"])
def test_fields_the_site_keeps_for_itself_are_refused(tmp_path, backup, key):
    backup["tournament"][key] = 999 if key != "created_at" else "2020-01-01"
    backup["tournament"]["slug"] = "kopie"
    refused(tmp_path, backup, match="unbekannte Felder")


def test_unknown_fields_anywhere_are_refused(tmp_path, backup):
    backup["tournament"]["slug"] = "kopie"
    backup["players"][0]["id"] = 1
    refused(tmp_path, backup, match="Spieler 1 enthält unbekannte Felder: id")


def test_every_row_is_checked_as_the_site_would(tmp_path, backup):
    backup["tournament"]["slug"] = "kopie"
    backup["players"][2]["first_name"] = ""
    refused(tmp_path, backup, match="Spieler 3: Vorname")


def test_a_result_with_an_impossible_winner_is_refused(tmp_path, backup):
    backup["tournament"]["slug"] = "kopie"
    table = backup["series"][0]["tables"][0]
    table["versions"][0]["data"]["games"][0]["winner"] = 9
    refused(tmp_path, backup, match="Gewinner, Schräm oder Punkte ungültig")


def test_a_time_without_time_zone_is_refused(tmp_path, backup):
    backup["tournament"]["slug"] = "kopie"
    backup["audit"][0]["at"] = "2026-05-01T10:00:00"
    refused(tmp_path, backup, match="ohne Zeitzone")


def test_a_good_backup_still_restores(tmp_path, backup):
    restore(tmp_path, backup, "--slug", "kopie")
    copy = Tournament.objects.get(slug="kopie")
    assert copy.entries.count() == 16


def test_the_desk_takes_a_slug_in_capitals_as_lower_case(organizer_client):
    page = organizer_client.post(
        "/verwaltung/turnier/neu/",
        {
            "name": "Neues Turnier",
            "slug": "RM-2027",
            "date": "2027-05-01",
            "rule_preset": "championship",
            "series_count": 5,
            "games_per_series": 5,
            "start_marks": 7,
            "win_bonus": 7,
            "double_entry": "on",
            "status": "planned",
        },
    )
    assert page.status_code == 302
    assert Tournament.objects.filter(slug="rm-2027").exists()


def test_a_series_count_below_the_series_held_is_refused(tmp_path, backup):
    # Series 1 holds confirmed results; a count of 0 series would leave its
    # points in the totals but in no column of the lists.
    backup["tournament"]["slug"] = "kopie"
    held = max(s["number"] for s in backup["series"])
    backup["tournament"]["series_count"] = held - 1
    refused(
        tmp_path,
        backup,
        match=f"Serie {held} passt nicht zur Anzahl Serien des Turniers",
    )
    assert not Tournament.objects.filter(slug="kopie").exists()


def write_refused(tmp_path, data: bytes, *, match):
    path = tmp_path / "backup.json"
    path.write_bytes(data)
    before = rows()
    with pytest.raises(CommandError, match=match):
        call_command("restore", str(path), stdout=StringIO())
    assert rows() == before


def test_a_deeply_nested_file_is_refused_without_a_traceback(tmp_path, backup):
    write_refused(
        tmp_path, b"[" * 200_000 + b"]" * 200_000, match="zu tief verschachtelt"
    )


def test_a_backup_nested_deeper_than_any_backup_is_refused(tmp_path, backup):
    backup["tournament"]["slug"] = "kopie"
    deep: object = "x"
    for _level in range(200):
        deep = {"a": deep}
    backup["audit"][0]["before"] = deep
    refused(tmp_path, backup, match="zu tief verschachtelt")


@pytest.mark.parametrize(
    "data", [b"{nonsense", b"\xff\xfe{}", b"", b'{"format": 1e999999}']
)
def test_a_file_that_is_no_json_is_refused_in_german(tmp_path, backup, data):
    write_refused(tmp_path, data, match="(?i)keine Turniersicherung")
