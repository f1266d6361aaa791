"""Drawing again after a change: series 1 played with a late arrival and a
swap, or a withdrawal later on. The draw still reaches 0 repeated meetings
wherever the history allows it, and says why when repeats are left."""

from __future__ import annotations

import random

import pytest

from tournament.seating.engine import seat, swap_players, table_plan
from tournament.seating.engine.api import three_bound
from tournament.seating.engine.bounds import forced_repeats
from tournament.seating.engine.search import Problem, Search
from tournament.seating.engine.starts import aligned

from .verify import verify


def late_and_swap(n: int, case: int) -> tuple[list[int], list[list[list[int]]]]:
    """The organizer's walk: series 1 drawn for ``n - 1`` players, two
    players of two tables swapped, then one more player arrives."""
    rng = random.Random(f"{n}-{case}")
    first = seat(n - 1, series=5, seed=f"first-{n}-{case}").series[0]
    t1, t2 = rng.sample(range(len(first)), 2)
    a, b = rng.choice(first[t1]), rng.choice(first[t2])
    return list(range(1, n + 1)), swap_players([first], 1, a, b)


# Histories whose draw kept repeats that another seed avoids (2 to 10 of
# them), one draw each.
@pytest.mark.parametrize(
    ("n", "case"),
    [(13, 4), (13, 8), (13, 27), (16, 13), (16, 14), (16, 39), (20, 0), (20, 6)],
)
def test_a_late_arrival_and_a_swap_leave_no_repeat(n: int, case: int) -> None:
    players, fixed = late_and_swap(n, case)
    result = seat(players, series=5, seed=case, fixed=fixed)
    assert result.series[:1] == fixed
    f = verify(result.series, players, result.quality, played=1)
    assert f.repeats == 0
    assert result.repeats_note == ""


def test_every_history_of_twenty_players_reaches_zero() -> None:
    # Before, 39 of these 40 draws kept 2-5 repeated meetings.
    for case in range(0, 40, 4):
        players, fixed = late_and_swap(20, case)
        result = seat(players, series=5, seed=case, fixed=fixed)
        assert result.quality["repeated_meetings"] == 0, case


def test_repeats_the_played_series_force_are_named_so() -> None:
    # Eight players met all at one table pair-wise in two series of two
    # tables each; with 8 players and five series, repeats are certain.
    fixed = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 5, 6], [3, 4, 7, 8]]]
    result = seat(8, seed=1, fixed=fixed)
    repeats = result.quality["repeated_meetings"]
    assert repeats > 0
    assert repeats <= result.forced_repeats
    assert result.repeats_note == "history"


def test_a_small_first_draw_names_the_field() -> None:
    result = seat(13, seed=1)
    assert result.quality["repeated_meetings"] == 3
    assert result.repeats_note == "field"
    assert seat(16, seed=1).repeats_note == ""


def test_forced_repeats_counts_partners_no_one_has_left() -> None:
    # 8 players, 3 more series of two tables of four: each needs 9 partners
    # but has 7, minus the 3 met already = 4 new ones; 5 repeats each,
    # each repeat shared by two: 20.
    met = {
        (a, b): 1 for t in ((0, 1, 2, 3), (4, 5, 6, 7)) for a in t for b in t if a < b
    }
    assert forced_repeats(8, 3, 0, met, [0] * 8, 0) == 20
    # 16 players, nothing played: everybody can meet 15 new people.
    assert forced_repeats(16, 5, 0, {}, [0] * 16, 0) == 0
    # A table of three needs a partner less: 13 players, series 1 at three
    # tables of four, four series with three tables of three each - the
    # twelve who played take three tables of three each and need no repeat.
    met = {
        (a, b): 1
        for t in ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11))
        for a in t
        for b in t
        if a < b
    }
    assert forced_repeats(13, 4, 3, met, [0] * 13, 3) == 0
    # Without tables of three the twelve would need 12 partners, have 9.
    assert forced_repeats(13, 4, 0, met, [0] * 13, 0) == 18


# Histories of the tight fields whose draw kept repeats that another seed
# avoids: series 1 drawn for one player less (a late arrival), or two series
# played by one player more who then withdrew. Each needs long searches.
@pytest.mark.parametrize(
    ("n", "case", "kind"),
    [
        (19, 10, "late"),
        (20, 3, "withdrawal"),
        (20, 8, "withdrawal"),
        (20, 53, "withdrawal"),
    ],
)
def test_a_tight_field_reaches_zero_after_a_change(
    n: int, case: int, kind: str
) -> None:
    players = list(range(1, n + 1))
    if kind == "late":
        fixed, gone = [seat(n - 1, seed=f"first {case}").series[0]], []
    else:
        fixed, gone = seat(n + 1, seed=f"first {case}").series[:2], [n + 1]
    result = seat(players, seed=case, fixed=fixed, withdrawn=gone)
    assert result.series[: len(fixed)] == fixed
    f = verify(result.series, players, result.quality, played=len(fixed))
    assert f.repeats == 0
    assert result.repeats_note == ""
    # Nobody sits at more tables of three than the played series allow.
    threes = table_plan(n).threes
    before = [sum(len(t) == 3 for s in fixed for t in s if p in t) for p in players]
    bound = three_bound(before, 3 * threes, 5 - len(fixed))
    assert all(
        f.three[p] <= max(bound, b) for p, b in zip(players, before, strict=True)
    )


def bench_history(n: int, case: int) -> tuple[list[int], list[list[list[int]]]]:
    """The benchmark's history ``case`` for ``n`` players (late arrival,
    swap, both, withdrawal or several changes, in turn), rebuilt here."""
    rng = random.Random(f"history {n} {case}")
    kind = ["late", "swap", "late+swap", "withdrawal", "several"][case % 5]
    players = list(range(1, n + 1))

    def swapped(tables: list[list[int]]) -> list[list[int]]:
        first, second = rng.sample(range(len(tables)), 2)
        a, b = rng.choice(tables[first]), rng.choice(tables[second])
        return swap_players([tables], 1, a, b)[0]

    assert kind != "withdrawal"
    late = {"late": 1, "swap": 0, "late+swap": 1, "several": 2}[kind]
    first = seat(n - late, seed=f"first {case}").series[0]
    if kind != "late":
        first = swapped(first)
    if kind != "several":
        return players, [first]
    second = seat(players, seed=f"second {case}", fixed=[first]).series[1]
    return players, [first, swapped(second)]


# Histories of 18 and 19 players whose draw kept one or two repeated
# meetings that another seed avoids: a late arrival, a swap or both in
# series 1, or two late arrivals and a swap in each of two series. At 18
# after a late arrival, a design laid around series 1 puts tables of three
# on players who sat at one already; easing them off must not add repeats.
@pytest.mark.parametrize(
    ("n", "case"),
    [
        (18, 5),
        (18, 7),
        (18, 10),
        (18, 12),
        (18, 15),
        (18, 17),
        (19, 5),
        (19, 7),
        (19, 12),
        (19, 15),
        (19, 19),
    ],
)
def test_the_tightest_fields_reach_zero_after_a_change(n: int, case: int) -> None:
    players, fixed = bench_history(n, case)
    result = seat(players, seed=case, fixed=fixed)
    assert result.series[: len(fixed)] == fixed
    f = verify(result.series, players, result.quality, played=len(fixed))
    assert f.repeats == 0
    assert result.repeats_note == ""
    threes = table_plan(n).threes
    before = [sum(len(t) == 3 for s in fixed for t in s if p in t) for p in players]
    bound = three_bound(before, 3 * threes, 5 - len(fixed))
    assert all(
        f.three[p] <= max(bound, b) for p, b in zip(players, before, strict=True)
    )


def test_easing_moves_tables_of_three_without_adding_repeats() -> None:
    # 18 players, series 1 drawn for 17 (three tables of three): a design
    # laid around it repeats nothing, but puts tables of three on players
    # who sat at one already. Easing never adds a repeat nor a sitting
    # above the bound, and from some starts removes every excess.
    players, fixed = bench_history(18, 5)
    n, plan = len(players), table_plan(18)
    index = {p: i for i, p in enumerate(players)}
    played = [[index[p] for p in table] for table in fixed[0]]
    fixed_three = [0] * n
    fixed_meet: dict[tuple[int, int], int] = {}
    for table in played:
        for a in table:
            fixed_three[a] += len(table) == 3
            for b in table:
                if a < b:
                    fixed_meet[a, b] = 1
    problem = Problem(
        n=n,
        series=5,
        fixed_meet=fixed_meet,
        fixed_three=fixed_three,
        three_bound=three_bound(fixed_three, 3 * plan.threes, 4),
    )
    rng = random.Random(0)
    eased = 0
    for k in range(12):
        start = aligned(
            plan,
            5,
            played,
            4,
            fixed_three,
            problem.three_bound,
            rng,
            ghosts_first=k % 2 == 1,
        )
        if start is None:
            continue
        search = Search(problem, start, rng)
        assert search.repeats() == 0
        before = search.over_three()
        search.ease()
        assert search.repeats() == 0
        assert search.over_three() <= before
        eased += search.over_three() == 0
    assert eased
