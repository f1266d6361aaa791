"""Hand edits: swap two players, recompute the quality, list repeated pairs."""

from __future__ import annotations

import pytest

from tournament.seating.engine import (
    SeatingError,
    quality,
    repeated_pairs,
    seat,
    swap_players,
)


def test_swap_then_quality_shows_the_new_repeats() -> None:
    result = seat(40, seed=5)
    assert result.quality["repeated_meetings"] == 0
    a, partner = result.series[0][0][:2]  # they met in series 1
    # In series 2, move a to partner's table by swapping with one seated there.
    there = next(t for t in result.series[1] if partner in t)
    other = next(p for p in there if p != partner)
    swapped = swap_players(result.series, 2, a, other)
    assert result.series == seat(40, seed=5).series  # the input is unchanged
    q = quality(swapped)
    assert q["repeated_meetings"] >= 1
    assert (min(a, partner), max(a, partner), 2) in repeated_pairs(swapped)
    assert a in next(t for t in swapped[1] if partner in t)


def test_repeated_pairs_lists_most_frequent_first() -> None:
    series = [[[1, 2, 3]], [[1, 2, 3]], [[1, 2, 3]]]
    assert repeated_pairs(series) == [(1, 2, 3), (1, 3, 3), (2, 3, 3)]
    assert repeated_pairs(seat(16, seed=1).series) == []


def test_swap_refuses_players_not_in_the_series() -> None:
    series = seat(8, seed=1).series
    with pytest.raises(SeatingError) as info:
        swap_players(series, 1, 1, 99)
    assert info.value.code == "unknown_player"
    with pytest.raises(SeatingError):
        swap_players(series, 6, 1, 2)
