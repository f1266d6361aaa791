"""``seat()``: check the request, draw the lot, search, order the seats."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .bounds import forced_repeats
from .errors import SeatingError
from .plan import TablePlan, table_plan
from .quality import quality
from .search import Problem, Search
from .seats import assign_seats
from .starts import aligned, aligned_two, designed, fill, lottery

Table = list[int]
Series = list[Table]
Mode = Literal["lot", "standings"]
MODES = ("lot", "standings")
BUDGET = 3000  # search iterations of one attempt
# After a change (played series fixed), further attempts from other starts
# while repeats are left that the history does not force. With a history the
# tight fields (17-20 players) need long searches with a short tabu tenure:
# a few long attempts that restart from their best state many times find a
# draw without repeats far more often than many short ones. An attempt
# starts from a design laid around a played series, which repeats nothing
# whoever sits where; its tables of three are first eased off those who sat
# at one before (two series at a time seated anew, exactly - cheap, and
# where it succeeds the attempt is over). Otherwise it relabels the players
# over the design (who takes which point is all that is left to fix),
# searches, and ends by re-seating whole series exactly where repeats
# remain. The whole budget stays under two seconds for the tightest fields
# on a slow machine.
ATTEMPTS = 4
RETRY_BUDGET = 8000  # search iterations of one further attempt
RETRY_RESTARTS = 30  # its fruitless restarts from the best state
EASED = 4  # starts eased per attempt before one is searched
RELABEL = 60  # relabelling steps from a design laid around played series
CHANGED_TENURE = (1, 2)  # tabu tenure of every search after a change
Note = Literal["", "field", "history", "search"]


@dataclass(frozen=True)
class Seating:
    """Series of tables of player ids (seat 1 first) and their quality.

    ``forced_repeats``: repeated meetings no seating of this field and these
    played series can avoid (a lower bound; the played series' own repeats
    included). ``repeats_note`` says why repeats are left, if any are:
    ``"field"`` - the field is too small for five series without one (first
    draw, N ≤ 14); ``"history"`` - the played series force them (there are
    no more than ``forced_repeats``); ``"search"`` - the search used its
    whole budget without getting below them, fewer may exist.
    """

    series: list[Series]
    quality: dict[str, Any]
    forced_repeats: int = 0
    repeats_note: Note = ""

    def as_json(self) -> dict[str, Any]:
        return {"series": self.series, "quality": self.quality}


def seat(
    players: Sequence[int] | int,
    *,
    series: int = 5,
    seed: int | str,
    clubs: Mapping[int, str] | None = None,
    fixed: Sequence[Sequence[Sequence[int]]] = (),
    withdrawn: Collection[int] = (),
    mode: Mode = "lot",
    totals: Mapping[int, int] | None = None,
    exact: bool = False,
) -> Seating:
    """Seat ``players`` for ``series`` series; see the package docstring."""
    ids = _players(players)
    plan = table_plan(len(ids))
    if series < 1:
        raise SeatingError("bad_series", f"{series} series: at least 1 is needed.")
    if mode not in MODES:
        raise SeatingError("bad_mode", f"unknown mode {mode!r}", mode=mode)
    played = _played(fixed, set(ids), set(withdrawn), series)
    rng = random.Random(seed)
    index = {pid: i for i, pid in enumerate(ids)}
    club_no = _club_numbers(ids, clubs or {})
    todo = series - len(played)
    new: list[list[list[int]]] = []
    outcome = _Outcome()
    if todo and mode == "standings" and played and exact:
        new = [_straight(ids, plan, totals or {}, played, index, club_no, rng)]
    elif todo and mode == "standings" and played:
        want = _standing_tables(ids, plan, totals or {}, rng)
        new = _search(plan, series, played, index, club_no, rng, want, outcome)[:1]
    elif todo:
        new = _search(plan, series, played, index, club_no, rng, None, outcome)
        if mode == "standings":
            new = new[:1]
    as_ids = [[[ids[p] for p in table] for table in tables] for tables in new]
    seated = played + assign_seats(played, as_ids, rng, cap=-(-series // 4))
    report = quality(seated, clubs)
    repeats = report["repeated_meetings"]
    note: Note = ""
    if repeats and new and mode == "lot":
        if not played and outcome.best_known:
            note = "field"
        elif played and repeats <= outcome.forced:
            note = "history"
        else:
            note = "search"
    return Seating(seated, report, outcome.forced, note)


@dataclass
class _Outcome:
    """What the search learnt besides the seating."""

    forced: int = 0  # repeated meetings the played series force, at least
    best_known: bool = False  # started from a stored best seating


def _players(players: Sequence[int] | int) -> list[int]:
    ids = list(range(1, players + 1)) if isinstance(players, int) else list(players)
    if len(set(ids)) != len(ids):
        twice = sorted({p for p in ids if ids.count(p) > 1})
        raise SeatingError(
            "duplicate_player",
            f"players entered twice: {', '.join(map(str, twice))}",
            players=twice,
        )
    return sorted(ids)


def _played(
    fixed: Sequence[Sequence[Sequence[int]]],
    current: set[int],
    withdrawn: set[int],
    series: int,
) -> list[Series]:
    """The played series as lists, after checking they make sense."""
    if both := sorted(current & withdrawn):
        raise SeatingError(
            "duplicate_player",
            f"players both playing and withdrawn: {', '.join(map(str, both))}",
            players=both,
        )
    if len(fixed) > series:
        raise SeatingError(
            "too_many_fixed",
            f"{len(fixed)} series played but only {series} planned.",
            fixed=len(fixed),
            series=series,
        )
    known = current | withdrawn
    out: list[Series] = []
    for number, tables in enumerate(fixed, 1):
        seen: set[int] = set()
        for table in tables:
            if not 3 <= len(table) <= 4:
                raise SeatingError(
                    "bad_table",
                    f"series {number} has a table of {len(table)} players.",
                    series=number,
                    size=len(table),
                )
            for p in table:
                if p in seen:
                    raise SeatingError(
                        "duplicate_player",
                        f"player {p} sits twice in series {number}.",
                        players=[p],
                        series=number,
                    )
                if p not in known:
                    raise SeatingError(
                        "unknown_player",
                        f"player {p} of series {number} is neither playing nor "
                        "withdrawn.",
                        players=[p],
                        series=number,
                    )
                seen.add(p)
        out.append([list(table) for table in tables])
    return out


def _club_numbers(ids: list[int], clubs: Mapping[int, str]) -> list[int]:
    names = sorted({clubs[p] for p in ids if clubs.get(p)})
    number = {name: i for i, name in enumerate(names)}
    return [number[clubs[p]] if clubs.get(p) else -1 for p in ids]


def three_bound(before: Sequence[int], seats: int, rounds: int) -> int:
    """The least L such that nobody need sit at more than L tables of three.

    ``before``: tables of three each player already sat at; ``seats`` per
    series for ``rounds`` more series, at most one per player and series.
    Water-filling: players below L take up to ``rounds`` more each. With
    nothing played it is ⌈rounds · seats / N⌉ (⌈15·b/N⌉ for five series).
    """
    need = seats * rounds
    level = 0
    while sum(min(rounds, max(0, level - c)) for c in before) < need:
        level += 1
    return level


def _standing_tables(
    ids: list[int], plan: TablePlan, totals: Mapping[int, int], rng: random.Random
) -> list[int]:
    """Each player's table when seated straight down the standings.

    Equal totals are ordered by lot; missing totals count as 0 (late entries).
    """
    order = list(range(len(ids)))
    rng.shuffle(order)
    order.sort(key=lambda i: -totals.get(ids[i], 0))
    want = [0] * len(ids)
    for t, table in enumerate(fill(order, plan)):
        for i in table:
            want[i] = t
    return want


# Starts of the straight seating's swaps among equal totals.
STRAIGHT_STARTS = 12


def _history(
    played: list[Series], index: dict[Any, int], n: int
) -> tuple[dict[tuple[int, int], int], list[int]]:
    """From the series played (tables of player ids), the meetings of each
    pair of player indices (lower first) and each player's tables of three;
    players no longer in `index` are left out."""
    met: dict[tuple[int, int], int] = {}
    three = [0] * n
    for tables in played:
        for table in tables:
            here = sorted(index[p] for p in table if p in index)
            for i, a in enumerate(here):
                three[a] += len(table) == 3
                for b in here[i + 1 :]:
                    met[a, b] = met.get((a, b), 0) + 1
    return met, three


def _straight(
    ids: list[int],
    plan: TablePlan,
    totals: Mapping[int, int],
    played: list[Series],
    index: dict[int, int],
    clubs: list[int],
    rng: random.Random,
) -> list[list[int]]:
    """The next series straight down the standings, as player indices:
    places by total, tables of 4 first, so the tables of three last. Only
    players of equal totals, who may take any of their places, trade tables,
    while that saves (in this order) a table of three beyond the fair
    bound, a repeated meeting, a meeting of club mates; from a few lots of
    their order, the best kept."""
    n = len(ids)
    met, three = _history(played, index, n)
    bound = three_bound(three, 3 * plan.threes, 1)
    points = [totals.get(p, 0) for p in ids]

    def cost(table: list[int]) -> int:
        total = 0
        if len(table) == 3:
            total += 10**6 * sum(max(0, three[p] + 1 - bound) for p in table)
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                total += 1000 * met.get((min(a, b), max(a, b)), 0)
                total += clubs[a] >= 0 and clubs[a] == clubs[b]
        return total

    best: list[list[int]] = []
    best_cost = -1
    for _ in range(STRAIGHT_STARTS):
        order = list(range(n))
        rng.shuffle(order)
        order.sort(key=lambda i: -points[i])
        tables = fill(order, plan)
        costs = [cost(t) for t in tables]
        improved = True
        while improved:
            improved = False
            for x, tx in enumerate(tables):
                for y in range(x + 1, len(tables)):
                    ty = tables[y]
                    for i, a in enumerate(tx):
                        for j, b in enumerate(ty):
                            if points[a] != points[b]:
                                continue
                            tx[i], ty[j] = b, a
                            cx, cy = cost(tx), cost(ty)
                            if cx + cy < costs[x] + costs[y]:
                                costs[x], costs[y] = cx, cy
                                a, b = b, a
                                improved = True
                            else:
                                tx[i], ty[j] = a, b
        if best_cost < 0 or sum(costs) < best_cost:
            best, best_cost = [list(t) for t in tables], sum(costs)
        if best_cost == 0:
            break
    return best


def _search(
    plan: TablePlan,
    series: int,
    played: list[Series],
    index: dict[int, int],
    clubs: list[int],
    rng: random.Random,
    want: list[int] | None,
    outcome: _Outcome,
) -> list[list[list[int]]]:
    """The series still to play, as player indices, tables by lot or standings."""
    n, todo = plan.players, series - len(played)
    made = designed(plan, series, clubs, rng)
    outcome.best_known = made is not None and made[1]
    start, best_known = (
        made if made is not None else (lottery(plan, series, rng), False)
    )
    rng.shuffle(start)
    start = start[:todo]
    if want is not None:
        # The next series straight down the standings; the later ones only
        # make sure this choice leaves a way to finish without repeats.
        order = sorted(range(n), key=lambda i: want[i])
        start[0] = fill(order, plan)
    fixed_meet, fixed_three = _history(played, index, n)
    problem = Problem(
        n=n,
        series=series,
        fixed_meet=fixed_meet,
        clubs=clubs,
        fixed_three=fixed_three,
        three_bound=three_bound(fixed_three, 3 * plan.threes, todo),
        standings=None if want is None else (0, want),
    )
    short = played and want is None
    search = Search(problem, start, rng, tenure=CHANGED_TENURE if short else None)
    unbeatable = best_known and not played and max(clubs, default=-1) < 0
    unbeatable = unbeatable and want is None
    found = search.run(BUDGET, target=search.cost if unbeatable else None)
    if want is not None:
        return search.polish(BUDGET)
    if played:
        played_repeats = sum(max(0, m - 1) for m in fixed_meet.values())
        outcome.forced = played_repeats + forced_repeats(
            n, todo, plan.threes, fixed_meet, fixed_three, problem.three_bound
        )
        found = _retry(plan, problem, search, played, index, rng, outcome.forced)
    for tables in found:
        rng.shuffle(tables)
    return found


def _retry(
    plan: TablePlan,
    problem: Problem,
    search: Search,
    played: list[Series],
    index: dict[int, int],
    rng: random.Random,
    forced: int,
) -> list[list[list[int]]]:
    """The best of further attempts while repeats are left that may not be
    forced: each starts from a fresh design by lot, relabelled so that one
    played series lies inside one of its series, or (every other attempt,
    with two played) two played series inside two of them - then the
    design's other series repeat none of their meetings. A start that
    repeats nothing has its tables of three eased off those who sat at one
    before (``Search.ease``); if some stay above the bound, a few more
    starts are eased, and the last is searched: it relabels the players
    over the design, searches from there and re-seats whole series where
    repeats are left (``Search.relabel``, ``Search.run``, ``Search.repair``).

    The first attempt's seating stays whenever it is as good as any, so
    ties are broken as they are without a change.
    """
    current = [
        [[index[p] for p in table if p in index] for table in tables]
        for tables in played
    ]
    # Sittings at tables of three above the bound that the played series
    # alone already hold: no attempt removes them.
    played_over = sum(
        max(0, c - problem.three_bound) for c in problem.fixed_three or ()
    )
    if search.repeats() > forced:
        search.repair()
    best = search

    def done(search: Search) -> bool:
        return search.over_three() <= played_over and search.repeats() <= forced

    for round_ in range(ATTEMPTS):
        if done(best):
            break
        # A start that repeats nothing is first eased (``Search.ease``);
        # if that leaves sittings above the bound, another start is eased,
        # up to ``EASED``, and the last one searched as below. The very
        # first start, should it repeat (a played series that does not fit
        # the design), is re-seated exactly first: cheap, and often enough
        # all it takes.
        for k in range(EASED):
            start = _start(plan, problem, current, rng, round_ + k, two=k == 0)
            if start is None:
                return [[list(t) for t in s] for s in best.tables]
            attempt = Search(problem, start, rng, tenure=CHANGED_TENURE)
            if attempt.repeats() > forced and not round_ + k:
                attempt.repair()
                if attempt.repeats() > forced:
                    # The search below does better from the design itself.
                    attempt = Search(problem, start, rng, tenure=CHANGED_TENURE)
            if attempt.repeats() > forced:
                break
            attempt.ease()
            if done(attempt):
                break
        if not done(attempt):
            attempt.relabel(RELABEL)
            attempt.run(RETRY_BUDGET, restarts=RETRY_RESTARTS)
            if attempt.repeats() > forced:
                attempt.repair()
        if attempt.cost < best.cost:
            best = attempt
    return [[list(t) for t in s] for s in best.tables]


def _start(
    plan: TablePlan,
    problem: Problem,
    current: list[Series],
    rng: random.Random,
    round_: int,
    *,
    two: bool,
) -> list[list[list[int]]] | None:
    """A fresh start for attempt ``round_``: a design laid around two played
    series (even rounds, when two are played and ``two``), or around one,
    its ghosts chosen first (odd rounds) or among the points left (then the
    other way if that fails); failing those, a design by lot. ``None`` when
    no design covers the field."""
    todo = problem.series - len(current)
    start = None
    if two and len(current) >= 2 and round_ % 2 == 0:
        first, second = rng.sample(current, 2)
        start = aligned_two(plan, problem.series, first, second, todo, rng)
    for ghosts_first in (round_ % 2 == 1, round_ % 2 == 0):
        if start is None:
            start = aligned(
                plan,
                problem.series,
                rng.choice(current),
                todo,
                problem.fixed_three or [0] * plan.players,
                problem.three_bound,
                rng,
                ghosts_first=ghosts_first,
            )
    if start is None:
        made = designed(plan, problem.series, problem.clubs or [], rng)
        if made is None:
            return None
        start = made[0][:todo]
    return start
