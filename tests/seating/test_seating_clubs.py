"""Clubs: members apart whenever every club fits, else as few meetings as can be."""

from __future__ import annotations

import random
from math import comb

import pytest

from tournament.seating.engine import seat, table_plan

from .verify import verify


def clubs_of(sizes: list[int], start: int = 1) -> dict[int, str]:
    clubs, p = {}, start
    for number, size in enumerate(sizes):
        for _ in range(size):
            clubs[p] = f"Club {number}"
            p += 1
    return clubs


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (20, [5, 5, 5, 5]),
        (40, [10, 10, 10, 10]),
        (40, [7, 7, 7, 7, 7, 5]),
        (37, [10, 9, 9, 9]),
        (57, [15, 12, 9, 8, 3, 2]),
        (100, [25, 25, 25, 25]),
        (100, [10] * 10),
        (250, [63, 40, 40, 30, 20, 20]),
        (401, [100, 100, 50, 50, 50]),
        (2000, [500, 300, 200] + [25] * 20),
    ],
)
def test_clubs_that_fit_never_share_a_table(n: int, sizes: list[int]) -> None:
    assert max(sizes) <= table_plan(n).tables
    clubs = clubs_of(sizes)
    for seed in range(3):
        result = seat(n, seed=seed, clubs=clubs)
        f = verify(result.series, range(1, n + 1), result.quality, clubs=clubs)
        assert f.club_meetings == 0
        assert f.repeats == 0


def test_random_small_clubs_fit_in_typical_fields() -> None:
    rng = random.Random(4)
    for n in (44, 61, 88, 130):
        tables = table_plan(n).tables
        clubs: dict[int, str] = {}
        for p in range(1, n + 1):
            if rng.random() < 0.7:  # some players have no club
                clubs[p] = f"C{rng.randrange(n // 6)}"
        if max(list(clubs.values()).count(c) for c in set(clubs.values())) > tables:
            continue
        result = seat(n, seed=n, clubs=clubs)
        f = verify(result.series, range(1, n + 1), result.quality, clubs=clubs)
        assert (f.club_meetings, f.repeats) == (0, 0)


def least_club_meetings(n: int, sizes: list[int], series: int = 5) -> int:
    """A club of c members over T tables shares tables at least this often."""
    tables = table_plan(n).tables
    total = 0
    for c in sizes:
        q, r = divmod(c, tables)
        total += r * comb(q + 1, 2) + (tables - r) * comb(q, 2)
    return total * series


@pytest.mark.parametrize(
    ("n", "sizes"), [(60, [30, 30]), (50, [20, 20, 10]), (100, [40, 30])]
)
def test_clubs_too_big_to_fit_meet_as_little_as_possible(
    n: int, sizes: list[int]
) -> None:
    clubs = clubs_of(sizes)
    result = seat(n, seed=1, clubs=clubs)
    f = verify(result.series, range(1, n + 1), result.quality, clubs=clubs)
    assert f.club_meetings == least_club_meetings(n, sizes)
    assert f.repeats == 0


def test_club_entries_of_players_not_in_the_field_are_ignored() -> None:
    clubs = {1: "A", 2: "A", 3: "B", 999: "A"}
    result = seat(list(range(1, 41)), seed=5, clubs=clubs)
    assert result.quality["club_meetings"] == 0


def test_repeats_come_before_clubs_in_tight_fields() -> None:
    # 20 players, clubs of at most 5 = tables: nobody meets anyone twice
    # (the promise for every N >= 15); clubs are kept apart only as
    # far as that allows - far fewer club meetings than by chance.
    clubs = clubs_of([3, 3, 3, 3, 3, 3, 2])
    result = seat(20, seed=2, clubs=clubs)
    f = verify(result.series, range(1, 21), result.quality, clubs=clubs)
    assert f.repeats == 0
    assert f.club_meetings <= 6


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(16, [4, 4, 4, 4]), (16, [8, 8]), (15, [5, 5, 5]), (22, [8, 7, 7]), (24, [6] * 4)],
)
def test_clubs_never_cost_a_repeat_where_no_design_has_columns(
    n: int, sizes: list[int]
) -> None:
    # For these fields no design with columns exists (16: only the affine
    # plane AG(2, 4)), so clubs cannot be packed; the repeat-free design is
    # still the start, and clubs are kept apart only as far as it allows.
    clubs = clubs_of(sizes)
    for seed in range(3):
        result = seat(n, seed=seed, clubs=clubs)
        f = verify(result.series, range(1, n + 1), result.quality, clubs=clubs)
        assert f.repeats == 0
