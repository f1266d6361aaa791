"""The designs behind E = 0: checked from their tables, not their recipes."""

from __future__ import annotations

from itertools import combinations

import pytest

from tournament.seating.engine.designs import (
    base_design,
    bases,
    choose_ghosts,
    partners,
)
from tournament.seating.engine.galois import field, prime_power
from tournament.seating.engine.plan import table_plan


def check_base(m: int, series: int) -> None:
    base = base_design(m, series)
    assert base is not None, m
    seen: set[tuple[int, int]] = set()
    for tables in base.series:
        assert sorted(p for t in tables for p in t) == list(range(4 * m))
        for table in tables:
            assert len(table) == 4
            for pair in combinations(sorted(table), 2):
                assert pair not in seen, (m, pair)
                seen.add(pair)
    if base.columns:
        for a, b in seen:
            assert a // m != b // m, "two points of one column met"


@pytest.mark.parametrize("m", [m for m in range(4, 130) if m != 6] + [250, 500])
def test_five_series_bases_never_repeat(m: int) -> None:
    check_base(m, 5)


def test_twenty_four_points_come_from_the_stored_design() -> None:
    check_base(6, 5)


def test_no_base_where_none_can_exist() -> None:
    # 4, 8 and 12 players cannot meet 15 others; no design is claimed.
    for m in (1, 2, 3):
        assert base_design(m, 5) is None


@pytest.mark.parametrize("series", [2, 3, 4, 6, 7, 8])
def test_other_series_counts_where_a_recipe_exists(series: int) -> None:
    for m in range(4, 60):
        if base_design(m, series) is not None:
            check_base(m, series)


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9, 16, 25, 27])
def test_galois_fields_are_fields(q: int) -> None:
    add, mul = field(q)
    elements = range(q)
    for a in elements:
        assert add(a, 0) == a and mul(a, 1) == a
        if a:
            assert sorted(mul(a, b) for b in elements) == list(elements)
        for b in elements:
            assert add(a, b) == add(b, a) and mul(a, b) == mul(b, a)
    for a, b, c in combinations(range(min(q, 9)), 3):
        assert mul(a, add(b, c)) == add(mul(a, b), mul(a, c))


def test_prime_powers() -> None:
    assert [q for q in range(2, 33) if prime_power(q)] == [
        2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32,
    ]  # fmt: skip


@pytest.mark.parametrize("n", [15, 18, 19, 33, 38, 41, 42, 50, 57, 99, 250, 1001])
def test_ghosts_never_meet_and_spare_the_tables_of_three(n: int) -> None:
    plan = table_plan(n)
    m = (n + plan.threes) // 4
    for base in bases(m, 5):
        ghosts = choose_ghosts(base, plan.threes, plan.three_bound(5))
        if ghosts is not None:
            break
    assert ghosts is not None and len(ghosts) == plan.threes
    met = partners(base)
    for a, b in combinations(ghosts, 2):
        assert b not in met[a]
    hits = [sum(p in met[g] for g in ghosts) for p in range(4 * m)]
    assert max(hits) <= plan.three_bound(5)
