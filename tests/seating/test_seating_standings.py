"""Mode "standings": series 1 by lot, then players of similar totals together."""

from __future__ import annotations

import random

import pytest

from tournament.seating.engine import Seating, seat

from .verify import verify


def play(
    n: int, *, clubs: dict[int, str] | None = None, seed: int = 0
) -> tuple[Seating, list[int]]:
    """Seat five series one by one, inventing totals after each."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    totals = dict.fromkeys(players, 0)
    played: list[list[list[int]]] = []
    deviations: list[int] = []
    for k in range(5):
        result = seat(
            players, seed=k, fixed=played, mode="standings", totals=totals, clubs=clubs
        )
        assert result.series[:k] == played
        assert len(result.series) == k + 1
        if k:
            # The table each player would get seated straight by standings
            # (players of equal totals may take any of their places).
            order = sorted(players, key=lambda p: -totals[p])
            first: dict[int, int] = {}
            last: dict[int, int] = {}
            for i, p in enumerate(order):
                first.setdefault(totals[p], i // 4)
                last[totals[p]] = i // 4
            for t, table in enumerate(result.series[k]):
                for p in table:
                    lo, hi = first[totals[p]], last[totals[p]]
                    deviations.append(max(0, lo - t, t - hi))
        played = result.series
        for table in result.series[k]:
            for p in table:
                totals[p] += rng.randint(-30, 120)
    return result, deviations


@pytest.mark.parametrize(
    ("n", "exact", "worst"), [(40, 0.3, 10), (100, 0.6, 5), (401, 0.85, 5)]
)
def test_later_series_group_similar_totals_without_repeats(
    n: int, exact: float, worst: int
) -> None:
    clubs = {p: f"C{p % (n // 8)}" for p in range(1, n + 1)}
    result, deviations = play(n, clubs=clubs)
    f = verify(result.series, range(1, n + 1), result.quality, clubs=clubs)
    assert (f.repeats, f.club_meetings) == (0, 0)
    # Small fields run out of new opponents near their rank (40 players:
    # after four series each has met 12 and shares a club with 4 more), so
    # the share seated exactly by standings grows with the field.
    assert deviations.count(0) >= exact * len(deviations)
    assert max(deviations) <= worst


def test_standings_mode_without_played_series_is_one_series_by_lot() -> None:
    result = seat(30, seed=1, mode="standings", totals={1: 500})
    assert len(result.series) == 1
    assert sorted(p for t in result.series[0] for p in t) == list(range(1, 31))


def test_top_table_holds_the_leaders_when_nothing_stands_in_the_way() -> None:
    first = seat(64, seed=2)
    totals = {p: 1000 - p for p in range(1, 65)}  # 1 leads, 64 is last
    result = seat(64, seed=3, fixed=first.series[:1], mode="standings", totals=totals)
    top = result.series[1][0]
    # The leaders 1-4 share table 1 unless they met in series 1.
    met = [t for t in first.series[0] if len(set(t) & {1, 2, 3, 4}) > 1]
    if not met:
        assert sorted(top) == [1, 2, 3, 4]
    assert max(top) <= 8


def test_a_final_series_sits_straight_down_the_standings() -> None:
    """17 players, four series played, clubs of four: the final series
    (exact) puts places 1-4 at table 1, 5-8 at table 2 and the three
    tables of three last, whoever met before or shares a club."""
    players = list(range(1, 18))
    clubs = {p: f"C{(p - 1) // 4}" for p in players}
    played = seat(players, seed=5, clubs=clubs).series[:4]
    totals = {p: 1000 - 10 * p for p in players}  # 1 leads, 17 is last
    result = seat(
        players,
        seed=6,
        fixed=played,
        clubs=clubs,
        mode="standings",
        totals=totals,
        exact=True,
    )
    assert result.series[:4] == played
    assert [sorted(t) for t in result.series[4]] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11],
        [12, 13, 14],
        [15, 16, 17],
    ]
    # Without `exact` the club mates 1-4 are kept apart.
    weighed = seat(
        players, seed=6, fixed=played, clubs=clubs, mode="standings", totals=totals
    )
    assert sorted(weighed.series[4][0]) != [1, 2, 3, 4]
