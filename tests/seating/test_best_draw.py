"""The draw taken is never worse than a draw offered beside it (tables of
three, repeats over the whole plan and so far, club mates: the engine's
order, each a line of the card), series 1 offers the same comparison, and
each draw offered shows its tables before it is taken."""

import re

import pytest
from django.urls import reverse

from tests.support import worlds
from tests.support.worlds import redraw_day
from tournament.models import Series
from tournament.seating import services as seating_services

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def not_beaten(current, options):
    """No option is better on one line of the card and as good on the
    others, and none ranks before the draw taken."""
    lines = ("three_again", "planned_repeats", "repeats", "club_tables")
    for o in options:
        assert current.planned_repeats is not None
        assert current.rank() <= o.rank(), (current, o)
        assert not (
            all(getattr(o, k) <= getattr(current, k) for k in lines)
            and any(getattr(o, k) < getattr(current, k) for k in lines)
        ), (current, o)


def test_the_draw_taken_is_never_worse_than_one_offered(tournament, organizer):
    series, _ = redraw_day(tournament, organizer)
    for _ in range(6):
        current, options = seating_services.draw_options(series=series)
        assert options
        not_beaten(current, options)
        series = seating_services.series_seat(
            actor=organizer, series=series, new_lot=True
        )


@pytest.fixture
def one_club_of_six(tournament):
    """16 present players, six of them of Club A: in series 1 club mates
    share a table whatever the lot."""
    worlds.present(tournament, 16, club_a=6)
    seating_services.series_ensure(tournament=tournament)
    return Series.objects.get(tournament=tournament, number=1)


def test_series_one_offers_other_draws_each_with_its_tables(
    organizer, organizer_client, tournament, one_club_of_six
):
    series = seating_services.series_seat(actor=organizer, series=one_club_of_six)
    url = reverse(
        "tournament:series_manage", kwargs={"slug": tournament.slug, "number": 1}
    )
    page = text_of(organizer_client.get(url))
    assert "Andere Auslosungen vergleichen" in page
    page = text_of(organizer_client.get(url + "?vergleichen=1"))
    assert "Jetzige Setzung" in page and "Andere Auslosung 1" in page
    assert "Was bleibt, liegt an der Zahl der Spieler und ihren Vereinen." in page
    current, options = seating_services.draw_options(series=series)
    not_beaten(current, options)
    first = options[0]
    # The card names every table's players before it is taken.
    assert "Tische ansehen" in page
    assert len(first.tables) == 4
    assert f"Tisch 1: {', '.join(first.tables[0])}" in page
    assert sorted(
        int(n) for t in first.tables for n in re.findall(r"Nr\. (\d+)", " ".join(t))
    ) == list(range(1, 17))
