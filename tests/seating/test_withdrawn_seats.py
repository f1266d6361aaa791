"""A withdrawn player's seat carries his mark ("abgemeldet (nach Serie 1,
Spiel 2)") on the seating pages: "Wo sitze ich?", the series' page and the
projector's list of names; only in the series he no longer plays to its
end, the rule the results follow (`Entry.withdrawal_text_in`)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.support.factories import EntryFactory, make_series
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.models import Entry

pytestmark = pytest.mark.django_db

DURING = "abgemeldet (nach Serie 1, Spiel 2)"
AFTER = "abgemeldet (nach Serie 1)"


def withdraw(entry, series, game):
    entry.withdrawn_at = timezone.now()
    entry.withdrawal_reason = "krank"
    entry.withdrawn_after_series = series
    entry.withdrawn_after_game = game
    entry.save()


@pytest.fixture
def two_series(tournament):
    """Series 1 and 2 released, both seated 1-8 in order; number 3 left
    during series 1 (after game 2), number 5 after it."""
    entries = [EntryFactory(tournament=tournament, start_number=n) for n in range(1, 9)]
    make_series(tournament, sizes=(4, 4), entries=entries)
    make_series(tournament, sizes=(4, 4), number=2, entries=entries)
    withdraw(entries[2], 1, 2)
    withdraw(entries[4], 1, None)
    return tournament


def seat_lines(html):
    return re.findall(r"<li>.*?</li>", html, re.S)


def where_lines(client, url, query):
    html = client.get(url, {"q": query}).content.decode()
    found = html[html.index('class="where-seats"') :].split("</ul>")[0]
    return seat_lines(found)


def test_where_do_i_sit_marks_the_series_he_no_longer_plays(client, two_series):
    url = f"/t/{two_series.slug}/wo-sitze-ich/"
    during = where_lines(client, url, "3")
    assert len(during) == 2
    assert f'<small class="withdrawn-mark">{DURING}</small>' in during[0]
    assert DURING in during[1]  # not in series 2 at all
    after = where_lines(client, url, "5")
    # He played series 1 to its end: no mark there.
    assert "abgemeldet" not in after[0] and AFTER in after[1]
    assert "abgemeldet" not in "".join(where_lines(client, url, "1"))


def test_the_series_page_marks_him_in_the_series_he_left(client, two_series):
    first = client.get(f"/t/{two_series.slug}/serie/1/").content.decode()
    assert first.count("withdrawn-mark") == 1 and DURING in first
    second = client.get(f"/t/{two_series.slug}/serie/2/").content.decode()
    assert second.count("withdrawn-mark") == 2
    assert DURING in second and AFTER in second


def test_the_projectors_names_mark_him(client, two_series):
    page = client.get(f"/t/{two_series.slug}/projektor/").content.decode()
    names = page[page.index('class="seat-names"') :].split("</ol>")[0]
    marked = [line for line in seat_lines(names) if "withdrawn-mark" in line]
    numbers = {3: DURING, 5: AFTER}
    assert len(marked) == 2
    for number, mark in numbers.items():
        player = Entry.objects.get(tournament=two_series, start_number=number).player
        line = next(x for x in marked if player.last_name in x)
        assert mark in line


@pytest.mark.parametrize("name", ["seating", "where", "seating-names"])
def test_the_marks_cost_no_query_per_seat(tournament, name, local_cache):
    """Each seating fragment reads as many queries for 12 tables as for 2,
    a withdrawn player at every table."""
    counts = []
    for tables, slug in ((2, "klein"), (12, "gross")):
        tournament.pk = None
        tournament.slug = slug
        tournament.save()
        series = make_series(tournament, sizes=(4,) * tables)
        for table in series.tables.all():
            seat = table.seats.order_by("number").first()
            withdraw(seat.entry, 1, 2)
        params = {"series": "1"} if name == "seating" else {}
        if name == "where":
            params = {"q": "1"}  # start numbers 1, 10-19, …: many players
        key = FragmentKey(FRAGMENTS[name], params)
        with CaptureQueriesContext(connection) as queries:
            html = region(tournament, key, "de").html
        assert "withdrawn-mark" in html
        counts.append(len(queries))
    assert counts[0] == counts[1]
