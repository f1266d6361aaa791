"""The standings API lists the players in the standings, not those who
never played (they showed with rank 0), and a series a player has not
played is null, not 0: 0 is a series played without winning a game."""

import pytest

from tests.support.factories import make_series
from tests.support.results import confirm, enter, games
from tournament.models import Table

pytestmark = pytest.mark.django_db

# Seat 1 wins games 1, 3 and 4, seat 2 games 2 and 5: seats 3 and 4 play
# series 1 and keep 0 points.
PAIRS = [(1, 5), (2, 3), (1, 7), (1, 1), (2, 2)]


@pytest.fixture
def played(tournament, referee, organizer):
    series = make_series(tournament, sizes=(4, 4))
    # Seniors at both tables: 1 and 2 played (table 1), 5 and 6 not yet.
    for entry in tournament.entries.select_related("player"):
        entry.player.category = (
            "seniors" if entry.start_number in (1, 2, 5, 6) else "open"
        )
        entry.player.save()
    confirm(
        enter(Table.objects.get(series=series, number=1), referee, games(PAIRS)),
        organizer,
    )
    return tournament


def test_only_players_with_a_result_and_null_for_unplayed_series(client, played):
    rows = client.get(f"/api/t/{played.slug}/standings/").json()["rows"]
    assert sorted(r["start_number"] for r in rows) == [1, 2, 3, 4]
    assert all(r["rank"] > 0 for r in rows)
    by_number = {r["start_number"]: r for r in rows}
    assert by_number[1]["series_points"][1:] == [None, None, None, None]
    assert by_number[1]["series_points"][0] > 0
    # Played series 1 without a win: 0, not null.
    assert by_number[4]["series_points"] == [0, None, None, None, None]


def test_a_categorys_ranking_too(client, played):
    rows = client.get(f"/api/t/{played.slug}/standings/?category=senioren").json()[
        "rows"
    ]
    assert [r["start_number"] for r in rows] == [1, 2]
    assert all(r["rank"] > 0 and r["series_points"][1:] == [None] * 4 for r in rows)
