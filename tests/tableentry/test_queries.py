""" "Mein Turnier" reads a fixed number of queries, whatever the field: its
fragment is rendered for each phone that shows it, after every change of a
table's result."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.support.factories import make_series
from tests.support.results import FIVE
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.tableentry.services import result_enter_by_player

pytestmark = pytest.mark.django_db


def queries_for(entry):
    """Rendered cold: nothing of the standings cached."""
    cache.clear()
    tournament = entry.tournament
    with CaptureQueriesContext(connection) as queries:
        html = region(
            tournament, FragmentKey(FRAGMENTS["mein"], {"link": entry.link_token}), "de"
        ).html
    assert "Mein Platz" in html
    return len(queries)


def test_the_page_costs_the_same_for_a_small_and_a_large_field(at_table):
    result_enter_by_player(
        player=at_table.p[1], table=at_table.t1, games=FIVE, mode="quick", revision=0
    )
    small = queries_for(at_table.p[2])
    entries = list(at_table.tournament.entries.all())
    make_series(at_table.tournament, sizes=(4,) * 20, number=2, status="seated")
    assert len(entries) < at_table.tournament.entries.count()
    large = queries_for(at_table.p[2])
    assert large == small
    # The table's rules are checked once for enter, confirm and reject
    # (tableentry.services.table_player_refusals): 22 queries when each asked.
    assert small <= 16


def test_no_query_is_ordered_through_the_tournament(at_table):
    """A query of one table's seats or versions orders by its own columns:
    ordered by a relation, Django follows that model's own ordering down to
    the tournament (date, name) and joins every table on the way."""
    result_enter_by_player(
        player=at_table.p[1], table=at_table.t1, games=FIVE, mode="quick", revision=0
    )
    entry = at_table.p[2]
    with CaptureQueriesContext(connection) as queries:
        html = region(
            entry.tournament,
            FragmentKey(FRAGMENTS["mein"], {"link": entry.link_token}),
            "de",
        ).html
    assert "Mein Platz" in html
    orders = [q["sql"].partition(" ORDER BY ")[2] for q in queries]
    assert any(orders)
    assert not [o for o in orders if "tournament_tournament" in o]
