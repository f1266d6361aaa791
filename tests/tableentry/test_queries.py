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
