"""The seating report counts what its line says: tables with club mates,
one count however many clubs share a table, the same count the draws
offered beside it show."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, make_series
from tournament.seating import adapter, selectors
from tournament.seating import services as seating_services

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.fixture
def two_clubs_at_table_one(tournament):
    """Series 1 of eight players seated by start number: table 1 holds two
    of Club A and two of Club B, table 2 no club mates."""
    clubs = {1: "Club A", 2: "Club A", 3: "Club B", 4: "Club B"}
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=f"V{n}",
            player__last_name="N",
            player__club=clubs.get(n, f"Club {n}"),
        )
        for n in range(1, 9)
    ]
    seating_services.series_ensure(tournament=tournament)
    series = make_series(tournament, sizes=(4, 4), status="seated", entries=entries)
    series.seed = "c0ffee"
    series.quality = adapter.seating_quality([adapter.stored_series(series)], entries)
    series.save()
    return series


def test_two_clubs_at_one_table_are_one_table_in_the_report_and_the_card(
    organizer_client, tournament, two_clubs_at_table_one
):
    series = two_clubs_at_table_one
    report = selectors.seating_report(series, selectors.series_tables(series))
    current, _ = seating_services.draw_options(series=series, count=0)
    assert len(report["club_tables"]) == current.club_tables == 1
    page = text_of(
        organizer_client.get(
            reverse(
                "tournament:series_manage",
                kwargs={"slug": tournament.slug, "number": 1},
            )
        )
    )
    assert "Vereinskameraden am selben Tisch an 1 Tisch" in page
    assert "Tisch 1: V1 N, V2 N (Club A); V3 N, V4 N (Club B)" in page
    assert page.count("Tisch 1:") == 1
