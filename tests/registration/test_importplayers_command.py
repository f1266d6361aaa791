"""`manage.py importplayers SLUG FILE`: the import page's work for scripts
and clubs' own tools, over the same club lists (`club_lists.py`)."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.registration.club_lists import CLUB_LISTS, write_folder
from tests.support.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def files(tmp_path):
    return {p.name: p for p in write_folder(tmp_path)}


def run(*args):
    from io import StringIO

    out = StringIO()
    call_command("importplayers", *args, stdout=out)
    return out.getvalue()


def test_json_says_the_sheet_the_mapping_and_each_row(files):
    tournament = TournamentFactory()
    out = run(
        tournament.slug, str(files["weitere-spalten.xlsx"]), "--json", "--dry-run"
    )
    data = json.loads(out)
    assert data["sheet"] == "Meldeliste"
    assert data["header_row"] == 1
    assert data["mapping"] == {
        "Lfd. Nr.": None,
        "Familienname": "last_name",
        "Vorname": "first_name",
        "Geb.-Datum": None,
        "Telefon": None,
        "E-Mail": None,
        "Club": "club",
        "Wertung": "category",
        "Bemerkung": None,
    }
    assert data["hidden_rows"] == [] and data["duplicates"] == []
    assert data["rows"][0] == {
        "row": 2,
        "first_name": "Anna",
        "last_name": "Thelen",
        "club": "KSC Mayen",
        "category": "senioren",
        "ok": True,
        "errors": [],
        "warnings": [],
    }
    assert data["rows"][1]["category"] == "jugend"
    assert tournament.entries.count() == 0  # a dry run


def test_hidden_rows_and_duplicates_in_json(files):
    tournament = TournamentFactory()
    data = json.loads(run(tournament.slug, str(files["gefiltert.xlsx"]), "--json"))
    assert len(data["hidden_rows"]) == 17 and len(data["rows"]) == 5
    assert tournament.entries.count() == 5
    other = TournamentFactory()
    data = json.loads(
        run(other.slug, str(files["gefiltert.xlsx"]), "--json", "--hidden", "--dry-run")
    )
    assert len(data["rows"]) == 22
    data = json.loads(
        run(other.slug, str(files["doppelt.xlsx"]), "--json", "--dry-run")
    )
    assert data["duplicates"] == [[4, 17]]


def test_a_given_mapping_and_a_refused_file(files):
    tournament = TournamentFactory()
    with pytest.raises(CommandError, match="Nothing imported"):
        run(tournament.slug, str(files["kategorien.xlsx"]))
    assert tournament.entries.count() == 0
    out = run(
        tournament.slug,
        str(files["kategorien.xlsx"]),
        "--map",
        "Kategorie=",
    )
    assert "9 players imported." in out
    assert set(tournament.entries.values_list("player__category", flat=True)) == {
        "open"
    }
    with pytest.raises(CommandError, match="Falscher Dateityp"):
        run(tournament.slug, str(files["liste.pdf"]))
    with pytest.raises(CommandError, match="keine Spalte „Geburtstag“"):
        run(tournament.slug, str(files["kategorien.xlsx"]), "--map", "Geburtstag=club")


def test_every_club_list_runs_through_the_command(files):
    for club_list in CLUB_LISTS:
        tournament = TournamentFactory()
        args = (tournament.slug, str(files[club_list.name]), "--json", "--dry-run")
        if club_list.refused:
            with pytest.raises(CommandError, match=club_list.refused):
                run(*args)
        elif club_list.ok:
            assert len(json.loads(run(*args))["rows"]) == club_list.rows
        else:
            with pytest.raises(CommandError):
                run(*args)
