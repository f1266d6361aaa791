import pytest

from tests.support.factories import make_series
from tournament.models import Table


@pytest.fixture
def at_table(tournament):
    """Entry at the table on ("one other player confirms"), series 1
    released: table 1 (start numbers 1–4) and table 2 (5–8); `t1`, `t2`
    the tables, `p[n]` the entry with start number n."""
    tournament.table_entry = "one"
    tournament.save()
    series = make_series(tournament, sizes=(4, 4))
    players = {e.start_number: e for e in tournament.entries.select_related("player")}

    class World:
        pass

    world = World()
    world.tournament = tournament
    world.series = series
    world.t1 = Table.objects.get(series=series, number=1)
    world.t2 = Table.objects.get(series=series, number=2)
    world.p = players
    return world
