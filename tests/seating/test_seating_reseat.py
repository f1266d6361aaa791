"""Re-seating after withdrawals and late entries: played series stay fixed."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tests.support.hostile import examples
from tournament.seating.engine import seat

from .verify import figures, verify


def field(n: int, gone: Sequence[int], late: Sequence[int] = ()) -> list[int]:
    return [p for p in range(1, n + 1) if p not in gone] + list(late)


@pytest.mark.parametrize("n", [40, 57, 100, 401, 1000])
def test_withdrawals_in_series_2_and_3_keep_every_promise(n: int) -> None:
    # Clubs of about 8: they fit (no club has more members than tables).
    clubs = {p: f"C{p % (n // 8)}" for p in range(1, n + 10)}
    first = seat(n, seed="open", clubs=clubs)

    # Two players leave after series 1.
    gone = [3, 17]
    players = field(n, gone)
    second = seat(
        players, seed="s2", clubs=clubs, fixed=first.series[:1], withdrawn=gone
    )
    assert second.series[:1] == first.series[:1]
    assert len(second.series) == 5
    f = verify(second.series, players, second.quality, clubs=clubs, played=1)
    assert (f.repeats, f.club_meetings) == (0, 0)

    # After series 2 one more leaves and two late entries arrive.
    gone = [*gone, 25]
    players = field(n, gone, [n + 1, n + 2])
    third = seat(
        players, seed="s3", clubs=clubs, fixed=second.series[:2], withdrawn=gone
    )
    assert third.series[:2] == second.series[:2]
    f = verify(third.series, players, third.quality, clubs=clubs, played=2)
    assert (f.repeats, f.club_meetings) == (0, 0)


@pytest.mark.parametrize("n", [15, 16, 20, 24, 30])
def test_small_fields_reseat_within_the_bounds(n: int) -> None:
    # Tight fields may not allow E = 0 any more, but every series is complete,
    # seats and tables of three stay within their bounds.
    first = seat(n, seed=1)
    players = field(n, [2])
    second = seat(players, seed=2, fixed=first.series[:1], withdrawn=[2])
    verify(second.series, players, second.quality, played=1)
    players = field(n, [2, 5], [n + 1])
    third = seat(players, seed=3, fixed=second.series[:2], withdrawn=[2, 5])
    verify(third.series, players, third.quality, played=2)


def test_reseating_without_changes_needs_no_repeats() -> None:
    first = seat(64, seed=9)
    again = seat(64, seed=10, fixed=first.series[:3])
    assert again.series[:3] == first.series[:3]
    assert again.quality["repeated_meetings"] == 0


def test_all_series_played_returns_them_unchanged() -> None:
    first = seat(40, seed=1)
    again = seat(40, seed=2, fixed=first.series)
    assert again.series == first.series
    assert again.quality == first.quality


def test_played_repeats_are_counted_but_not_added_to() -> None:
    # A played plan with a repeat (entered by hand): the new series add none.
    fixed = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 5, 6], [3, 4, 7, 8]]]
    fixed = [
        t + [[9 + 4 * k, 10 + 4 * k, 11 + 4 * k, 12 + 4 * k] for k in range(7)]
        for t in fixed
    ]
    before = figures(fixed).repeats
    result = seat(36, seed=4, fixed=fixed)
    assert figures(result.series).repeats == before


def test_random_withdrawals_and_late_entries() -> None:
    # Property run: any field, any changes after series 1, 2 and 3; from 40
    # players on the played series never force a repeat. 20 fields in
    # `make test`, fewer in the edit loop's quick profile.
    rng = random.Random(2025)
    for trial in range(examples(20)):
        n = rng.choice([rng.randint(6, 30), rng.randint(31, 160)])
        clubs = {p: f"C{rng.randrange(n // 6)}" for p in range(1, n + 9)}
        players, gone = list(range(1, n + 1)), []
        played = seat(players, seed=trial, clubs=clubs).series
        for k in (1, 2, 3):
            out = rng.sample(players, rng.randint(0, 3))
            top = max(players + gone)
            players = [p for p in players if p not in out]
            players += range(top + 1, top + 1 + rng.randint(0, 2))
            gone += out
            if len(players) == 5:
                players.append(top + 10)
            result = seat(
                players, seed=trial, fixed=played[:k], withdrawn=gone, clubs=clubs
            )
            assert result.series[:k] == played[:k]
            f = verify(result.series, players, result.quality, clubs=clubs, played=k)
            if len(players) >= 40:
                assert f.repeats == 0
            played = result.series
