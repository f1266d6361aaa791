"""Bad requests fail with a clear message and a stable code."""

from __future__ import annotations

import pytest

from tournament.seating.engine import SeatingError, seat, table_plan


def code(**kwargs: object) -> str:
    players = kwargs.pop("players", 12)
    with pytest.raises(SeatingError) as info:
        seat(players, seed=kwargs.pop("seed", 1), **kwargs)  # type: ignore[arg-type]
    assert str(info.value)
    assert isinstance(info.value, ValueError)
    return info.value.code


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, "too_few_players"),
        (1, "too_few_players"),
        (2, "too_few_players"),
        (5, "five_players"),
    ],
)
def test_fields_that_cannot_be_seated(n: int, expected: str) -> None:
    assert code(players=n) == expected
    with pytest.raises(SeatingError):
        table_plan(n)


def test_duplicate_players() -> None:
    assert code(players=[1, 2, 3, 4, 4, 5, 6]) == "duplicate_player"


def test_player_twice_in_a_played_series() -> None:
    fixed = [[[1, 2, 3, 4], [5, 6, 7, 1]]]
    assert code(players=8, fixed=fixed) == "duplicate_player"


def test_unknown_player_in_played_series() -> None:
    fixed = [[[1, 2, 3, 4], [5, 6, 7, 99]]]
    assert code(players=8, fixed=fixed) == "unknown_player"
    # Known once declared as withdrawn.
    result = seat(list(range(1, 8)), seed=1, fixed=fixed, withdrawn=[99])
    assert result.series[0] == fixed[0]


def test_withdrawn_player_still_in_the_field() -> None:
    assert code(players=8, withdrawn=[3]) == "duplicate_player"


def test_more_played_series_than_planned() -> None:
    fixed = [[[1, 2, 3, 4]]] * 3
    assert code(players=4, series=2, fixed=fixed) == "too_many_fixed"


def test_impossible_table_in_played_series() -> None:
    assert code(players=8, fixed=[[[1, 2], [3, 4, 5, 6, 7, 8]]]) == "bad_table"


def test_bad_series_count_and_mode() -> None:
    assert code(series=0) == "bad_series"
    assert code(mode="random") == "bad_mode"


def test_error_carries_details_for_a_translated_message() -> None:
    with pytest.raises(SeatingError) as info:
        seat([3, 9, 9, 12, 3], seed=1)
    assert info.value.params == {"players": [3, 9]}
