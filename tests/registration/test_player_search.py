"""Every player search ignores case, accents and how an umlaut or ß was
typed, takes start numbers, and costs the same number of queries for any
field size."""

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory
from tournament.registration.selectors import (
    PlayerQuery,
    entries_for,
    name_key,
    same_name_entries,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def names(tournament):
    people = [
        ("Anna", "Jöbges", "Schrämclub Daun"),
        ("Bernd", "Weißgerber", "KSC Mayen"),
        ("Clara", "Mueller", "KSC Mayen"),
        ("Dieter", "Thelen", "Sibbeschrömer Ulmen"),
        ("Érica", "Schmitz", ""),
    ]
    return {
        last: EntryFactory(
            tournament=tournament,
            start_number=n,
            player__first_name=first,
            player__last_name=last,
            player__club=club,
        )
        for n, (first, last, club) in enumerate(people, 1)
    }


def found(tournament, query):
    return [e.player.last_name for e in entries_for(tournament, query=query)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("joebges", ["Jöbges"]),
        ("jobges", ["Jöbges"]),
        ("JÖBGES", ["Jöbges"]),
        ("Jöb", ["Jöbges"]),
        ("Weissgerber", ["Weißgerber"]),
        ("weiß", ["Weißgerber"]),
        ("WEISSGERBER", ["Weißgerber"]),
        ("Müller", ["Mueller"]),
        ("erica", ["Schmitz"]),
        ("anna jöbges", ["Jöbges"]),
        ("Joebges Anna", ["Jöbges"]),
        ("mayen", ["Weißgerber", "Mueller"]),
        ("3", ["Mueller"]),
        ("Nr. 4", ["Thelen"]),
        ("#5", ["Schmitz"]),
        ("Anna Thelen", []),
        ("xyz", []),
        ("  –  ", []),
    ],
)
def test_search_folds_umlauts_case_and_accents(tournament, names, query, expected):
    assert found(tournament, query) == expected


def test_no_search_lists_everybody_by_start_number(tournament, names):
    assert [e.start_number for e in entries_for(tournament)] == [1, 2, 3, 4, 5]


def test_a_start_number_is_not_searched_in_names(tournament, names):
    assert PlayerQuery.parse("12") == PlayerQuery(number=12, words=())
    assert PlayerQuery.parse("   ") is None


@pytest.mark.parametrize("size", [5, 60])
def test_search_costs_two_queries_whatever_the_field(
    tournament, names, size, django_assert_num_queries
):
    for n in range(6, size + 1):
        EntryFactory(tournament=tournament, start_number=n, player__last_name="Gast")
    with django_assert_num_queries(2):
        assert found(tournament, "jobges") == ["Jöbges"]


def test_other_tournaments_are_not_searched(tournament, names):
    EntryFactory(player__last_name="Jöbges")
    assert found(tournament, "jöbges") == ["Jöbges"]


def test_same_name_however_typed(tournament, names):
    assert name_key("Anna", "Jöbges") == name_key("ANNA", "Joebges")
    assert name_key("Bernd", "Weißgerber") == name_key("bernd", "Weissgerber")
    assert name_key("Anna", "Jöbges") != name_key("Anna", "Jobges")
    same = same_name_entries(tournament, "anna", "JOEBGES")
    assert [e.start_number for e in same] == [1]


def test_the_desk_list_finds_umlauts_typed_without_them(
    organizer_client, tournament, names
):
    url = reverse("tournament:entry_list", kwargs={"slug": tournament.slug})
    text = organizer_client.get(url, {"q": "weissgerber"}).content.decode()
    assert "Weißgerber" in text and "Jöbges" not in text


def test_the_duplicate_warning_names_the_button_that_saves_anyway(
    organizer_client, tournament, names
):
    url = reverse("tournament:entry_create", kwargs={"slug": tournament.slug})
    data = {"first_name": "Anna", "last_name": "Joebges", "category": "open"}
    text = organizer_client.post(url, data).content.decode()
    assert "Achtung: gleichnamiger Spieler schon gemeldet" in text
    assert "Nr. 1 – Anna Jöbges" in text
    assert "„Trotzdem speichern“" in text
    assert ">Trotzdem speichern</button>" in text
    assert "Noch einmal „Speichern“" not in text
    # The second submit (the hidden field says yes) registers the player.
    response = organizer_client.post(
        url, {**data, "confirm_duplicate": "on"}, follow=True
    )
    assert "Anna Joebges ist mit Startnummer 6 gemeldet" in response.content.decode()
