"""The seating page's "nach Tabelle setzen": a series seated by the
standings after the series before it (the engine's standings mode), with
its quality report; only once every earlier table is confirmed."""

import pytest
from django.urls import reverse

from tests.support.factories import make_series
from tests.support.results import confirm, enter, games
from tournament.models import AuditEvent, Entry, Seat, Series

pytestmark = pytest.mark.django_db

# Seat 1 wins every game with all 7 marks: 70 points; the others 0.
SEAT_ONE_WINS = games([(1, 7)] * 5)


@pytest.fixture
def played_one(tournament, referee, referee2):
    """Series 1 of 16 players at four tables (1-4, 5-8, 9-12, 13-16), every
    result confirmed: the leaders 1, 5, 9 and 13 never met. Two series: the
    second is the final one (in an earlier series the engine first keeps
    the later ones free of repeats, and follows the standings less closely:
    the quality report says how closely)."""
    tournament.series_count = 2
    tournament.save(update_fields=["series_count"])
    series = make_series(tournament, sizes=(4, 4, 4, 4))
    Entry.objects.filter(tournament=tournament).update(checked_in=True)
    for table in series.tables.order_by("number"):
        confirm(enter(table, referee, SEAT_ONE_WINS), referee2)
    return series


def seat_by_standings(client, tournament, number, version=0):
    return client.post(
        reverse("tournament:series_seat", args=[tournament.slug, number]),
        {"version": version, "mode": "standings"},
        follow=True,
    )


def numbers(series, table):
    return sorted(
        Seat.objects.filter(series=series, table__number=table).values_list(
            "entry__start_number", flat=True
        )
    )


def test_the_leaders_sit_at_table_one_and_the_report_says_how_close(
    organizer_client, tournament, played_one
):
    second = Series.objects.create(tournament=tournament, number=2)
    page = organizer_client.get(
        reverse("tournament:series_manage", args=[tournament.slug, 2])
    ).content.decode()
    assert "Nach Tabelle setzen" in page
    response = seat_by_standings(organizer_client, tournament, 2)
    text = response.content.decode()
    assert "Serie 2 ist nach Tabelle gesetzt." in text
    second.refresh_from_db()
    assert (second.status, second.mode) == ("seated", "standings")
    assert numbers(second, 1) == [1, 5, 9, 13]
    assert second.quality["repeated_meetings"] == 0
    assert second.quality["standings"] == {
        "players": 16,
        "exact": 16,
        "worst": 0,
        "final": True,
    }
    assert "Am Tisch ihres Tabellenplatzes" in text and "16 von 16" in text
    assert "nach Tabelle gesetzt" in text
    event = AuditEvent.objects.get(action="series.seat_standings")
    assert event.after["status"] == "seated"


def test_refused_while_an_earlier_table_waits_for_its_result(
    organizer_client, tournament, referee
):
    series = make_series(tournament, sizes=(4, 4, 4))
    Entry.objects.filter(tournament=tournament).update(checked_in=True)
    enter(series.tables.get(number=1), referee, SEAT_ONE_WINS)  # not confirmed
    Series.objects.create(tournament=tournament, number=2)
    before = AuditEvent.objects.count()
    text = seat_by_standings(organizer_client, tournament, 2).content.decode()
    assert (
        "Nach Tabelle setzen geht erst, wenn jeder Tisch der Serien davor ein "
        "bestätigtes Ergebnis hat. Es fehlen: Serie 1, Tisch 1, 2, 3."
    ) in text
    assert Series.objects.get(tournament=tournament, number=2).status == "draft"
    assert not Seat.objects.filter(series__number=2).exists()
    assert AuditEvent.objects.count() == before


def test_series_one_has_no_standings_to_seat_by(organizer_client, tournament):
    Series.objects.create(tournament=tournament, number=1)
    page = organizer_client.get(
        reverse("tournament:series_manage", args=[tournament.slug, 1])
    ).content.decode()
    assert "Nach Tabelle setzen" not in page
    text = seat_by_standings(organizer_client, tournament, 1).content.decode()
    assert "Vor Serie 1 gibt es noch keine Tabelle" in text


def test_a_seated_series_can_be_seated_by_standings_instead_and_back(
    organizer_client, tournament, played_one
):
    second = Series.objects.create(tournament=tournament, number=2)
    organizer_client.post(
        reverse("tournament:series_seat", args=[tournament.slug, 2]),
        {"version": 0},
    )
    second.refresh_from_db()
    assert (second.status, second.mode) == ("seated", "lot")
    seat_by_standings(organizer_client, tournament, 2, version=second.version)
    second.refresh_from_db()
    assert second.mode == "standings"
    assert numbers(second, 1) == [1, 5, 9, 13]
    # A stale form changes nothing.
    text = seat_by_standings(organizer_client, tournament, 2, version=0)
    assert "inzwischen von jemand anderem geändert" in text.content.decode()
    # Drawn again by lot, the series says so.
    organizer_client.post(
        reverse("tournament:series_seat", args=[tournament.slug, 2]),
        {"version": second.version, "new_lot": "1"},
    )
    second.refresh_from_db()
    assert second.mode == "lot"
    assert "standings" not in second.quality


def test_a_swap_keeps_the_standings_report(organizer_client, tournament, played_one):
    second = Series.objects.create(tournament=tournament, number=2)
    seat_by_standings(organizer_client, tournament, 2)
    second.refresh_from_db()
    a, b = numbers(second, 1)[0], numbers(second, 2)[0]
    organizer_client.post(
        reverse("tournament:series_swap", args=[tournament.slug, 2]),
        {"version": second.version, "a": a, "b": b},
    )
    second.refresh_from_db()
    assert second.quality["standings"]["exact"] < 16


def test_the_final_series_puts_the_places_at_their_tables_even_if_they_met(
    organizer_client, tournament, referee, referee2
):
    """Series 1 of 16 at tables 1-4, 5-8, 9-12, 13-16; at table 1 seats 1
    and 2 win every game with all marks kept, elsewhere every seat wins
    with one: 1 and 2 lead, though they met. The final series
    (2 of 2) puts them at table 1 all the same, and the page says why."""
    tournament.series_count = 2
    tournament.save(update_fields=["series_count"])
    series = make_series(tournament, sizes=(4, 4, 4, 4))
    Entry.objects.filter(tournament=tournament).update(checked_in=True)
    for table in series.tables.order_by("number"):
        if table.number == 1:
            pairs = [(1, 7), (2, 7), (1, 7), (2, 7), (1, 7)]
        else:
            pairs = [(1, 1), (2, 1), (3, 1), (4, 1), (1, 1)]
        confirm(enter(table, referee, games(pairs)), referee2)
    second = Series.objects.create(tournament=tournament, number=2)
    page = organizer_client.get(
        reverse("tournament:series_manage", args=[tournament.slug, 2])
    ).content.decode()
    assert "Dies ist die letzte Serie, sie wird streng nach Tabelle gesetzt" in page
    text = seat_by_standings(organizer_client, tournament, 2).content.decode()
    second.refresh_from_db()
    assert {1, 2} <= set(numbers(second, 1))
    assert second.quality["standings"]["exact"] == 16
    assert second.quality["standings"]["final"] is True
    assert "Letzte Serie, streng nach Tabelle gesetzt" in text
