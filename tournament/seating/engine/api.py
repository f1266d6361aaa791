"""``seat()``: check the request, draw the lot, search, order the seats.

A first draw (nothing played) searches once from a design by lot
(``designed``; a plain lottery where no design covers the field) within
``BUDGET`` iterations. By the standings, the next series is laid down the
standings and polished toward them.

After a change (series played, drawn by lot) the first search runs with the
short tenure ``CHANGED_TENURE``; then, while more repeats are left than the
played series force or more sittings at tables of three than they hold
(``_Change.done``, the bound: ``bounds.forced_repeats``), a pipeline:
``FIRST_STEPS`` on the first search, then up to ``ATTEMPTS`` attempts. An
attempt takes up to ``EASED`` starts, each the first of ``STARTS`` that
applies and makes one, each improved by ``EASING``, until one is done or
repeats; the last, unless done, is improved by ``SEARCHING``. The best
seating wins, the first search's on a tie. docs/SEATING.md tells the
algorithm and its history.

The histories that needed a row kept a repeat another seed avoids until
it was added: field size, then the history's number, as the tests in
tests/seating/test_seating_after_change.py draw them (most are the
benchmark's, ``bench/seating.py``).

=======================  ====================================  ===================
Start (``STARTS``)       When it applies                       Histories that
                                                               needed it
=======================  ====================================  ===================
two played series        an attempt's first start on an even   a withdrawal after
crossing in a design     turn, two or more series played       series 2
(``aligned_two``)
one played series,       even turns first; odd turns when      a late arrival: his
ghosts on the points     ghosts chosen first fit nowhere       table keeps the
it leaves (``aligned``)                                        ghosts
one played series,       odd turns first; even turns when      a late arrival and
ghosts first             the above fit nowhere                 a swap: 13 (4, 8,
(``aligned``)                                                  27), 16 (13, 14,
                                                               39), 20 (0, 6)
a design by lot          no design holds a played series       the fallback
(``designed``)
=======================  ====================================  ===================

=======================  ====================================  ===================
Step                     When it applies                       Histories that
                                                               needed it
=======================  ====================================  ===================
re-seat whole series     the first search, or an attempt's     19 (5, 7, 12, 15,
exactly (``REPAIR``:     searched start, repeats more than     19), with relabel
``Search.repair``)       forced
re-seat the first start  the very first start repeats (a       20 (53, a
exactly, else search     played series that does not fit the   withdrawal); 20,
the design               design); if that leaves repeats, the  several changes
                         search goes on from the design
ease the tables of       a start that repeats nothing          18 (5, 7, 10, 15,
three (``Search.ease``)                                        17): tables of three
                                                               on those who sat at
                                                               one before
relabel the players      easing left the attempt short         19 (5, 7, 12, 15,
(``Search.relabel``,                                           19), with repair
``RELABEL``)
search long              likewise                              19 (10, a late
(``Search.run``,                                               arrival), 20 (3, 8,
``ATTEMPT_BUDGET``,                                            withdrawals)
``ATTEMPT_RESTARTS``)
=======================  ====================================  ===================
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .bounds import forced_repeats
from .errors import SeatingError
from .plan import TablePlan, table_plan
from .quality import quality
from .search import Problem, Search, Tables
from .seats import assign_seats
from .starts import aligned, aligned_two, designed, fill, lottery

Table = list[int]
Series = list[Table]
Mode = Literal["lot", "standings"]
MODES = ("lot", "standings")
BUDGET = 3000  # search iterations of the first search
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
        change = _Change.around(plan, problem, played, index, rng)
        outcome.forced = change.forced
        found = _after_change(change, _Attempt(search, start, None))
    for tables in found:
        rng.shuffle(tables)
    return found


# -- after a change: the pipeline ------------------------------------------

# The tabu tenure of every search after a change. With a history the tight
# fields need long searches that return to their best state many times; a
# short tenure keeps them close to it.
CHANGED_TENURE = (1, 2)


@dataclass
class _Change:
    """What the starts and steps after a change share, all as indices."""

    plan: TablePlan
    problem: Problem
    played: list[Series]  # the played series, players still in the field
    rng: random.Random
    forced: int  # repeated meetings the played series force, at least
    # Sittings at tables of three above the bound that the played series
    # alone already hold: no attempt removes them.
    played_over: int

    @classmethod
    def around(
        cls,
        plan: TablePlan,
        problem: Problem,
        played: list[Series],
        index: dict[int, int],
        rng: random.Random,
    ) -> _Change:
        """The change that left ``played`` (tables of player ids)."""
        fixed_meet, fixed_three = problem.fixed_meet, problem.fixed_three or []
        played_repeats = sum(max(0, m - 1) for m in fixed_meet.values())
        todo = problem.series - len(played)
        forced = played_repeats + forced_repeats(
            plan.players,
            todo,
            plan.threes,
            fixed_meet,
            fixed_three,
            problem.three_bound,
        )
        current = [
            [[index[p] for p in table if p in index] for table in tables]
            for tables in played
        ]
        played_over = sum(
            max(0, c - problem.three_bound) for c in problem.fixed_three or ()
        )
        return cls(plan, problem, current, rng, forced, played_over)

    @property
    def todo(self) -> int:
        return self.problem.series - len(self.played)

    def searcher(self, start: list[Tables]) -> Search:
        return Search(self.problem, start, self.rng, tenure=CHANGED_TENURE)

    def repeats(self, search: Search) -> bool:
        """Whether ``search`` repeats more than the history forces."""
        return search.repeats() > self.forced

    def done(self, search: Search) -> bool:
        """Whether only what the played series force is left: the bound."""
        return search.over_three() <= self.played_over and not self.repeats(search)


@dataclass
class _Attempt:
    """One attempt's search, the start it began from, and its turn (which
    start of the pipeline it is; ``None`` for the first search)."""

    search: Search
    start: list[Tables]
    turn: int | None


@dataclass(frozen=True)
class Start:
    """A way to lay the series still to play, for the steps to improve.

    ``applies(change, turn, first)``: whether it is tried for start number
    ``turn``, ``first`` when it is its attempt's first start. ``make``:
    the start, or ``None`` when it finds none (the next one is tried).
    """

    name: str
    applies: Callable[[_Change, int, bool], bool]
    make: Callable[[_Change, int], list[Tables] | None]


@dataclass(frozen=True)
class Step:
    """A way to improve an attempt, run where ``applies`` says so."""

    name: str
    applies: Callable[[_Change, _Attempt], bool]
    run: Callable[[_Change, _Attempt], None]


def _two_played(change: _Change, turn: int) -> list[Tables] | None:
    first, second = change.rng.sample(change.played, 2)
    return aligned_two(
        change.plan, change.problem.series, first, second, change.todo, change.rng
    )


def _one_played(change: _Change, *, ghosts_first: bool) -> list[Tables] | None:
    problem = change.problem
    return aligned(
        change.plan,
        problem.series,
        change.rng.choice(change.played),
        change.todo,
        problem.fixed_three or [0] * change.plan.players,
        problem.three_bound,
        change.rng,
        ghosts_first=ghosts_first,
    )


def _by_lot(change: _Change, turn: int) -> list[Tables] | None:
    problem = change.problem
    made = designed(change.plan, problem.series, problem.clubs or [], change.rng)
    return None if made is None else made[0][: change.todo]


# The starts after a change, in this order; the first that makes one is
# searched. Even turns lay the ghosts among the points the played series
# leaves first, odd turns choose them first, and each falls back on the
# other choice.
STARTS: tuple[Start, ...] = (
    Start(
        "two played series crossing in a design",
        lambda change, turn, first: first and len(change.played) >= 2 and turn % 2 == 0,
        _two_played,
    ),
    Start(
        "one played series in a design, ghosts on the points it leaves",
        lambda change, turn, first: turn % 2 == 0,
        lambda change, turn: _one_played(change, ghosts_first=False),
    ),
    Start(
        "one played series in a design, ghosts first",
        lambda change, turn, first: True,
        lambda change, turn: _one_played(change, ghosts_first=True),
    ),
    Start(
        "one played series in a design, ghosts on the points it leaves",
        lambda change, turn, first: turn % 2 == 1,
        lambda change, turn: _one_played(change, ghosts_first=False),
    ),
    Start("a design by lot", lambda change, turn, first: True, _by_lot),
)


def _reseat_first(change: _Change, attempt: _Attempt) -> None:
    attempt.search.repair()
    if change.repeats(attempt.search):
        # The search does better from the design itself.
        attempt.search = change.searcher(attempt.start)


def _repair(change: _Change, attempt: _Attempt) -> None:
    attempt.search.repair()


def _ease(change: _Change, attempt: _Attempt) -> None:
    attempt.search.ease()


# Relabelling steps over a design laid around a played series: who takes
# which point is all that is left to fix there, and a few dozen exchanges of
# the players in conflict settle it where it can be settled.
RELABEL = 60


def _relabel(change: _Change, attempt: _Attempt) -> None:
    attempt.search.relabel(RELABEL)


# One long search per attempt (search iterations) that restarts from its
# best state many times (fruitless restarts): a few long searches find a
# draw without repeats in the tight fields far more often than many short
# ones, within the time one draw may take.
ATTEMPT_BUDGET = 8000
ATTEMPT_RESTARTS = 30


def _search_long(change: _Change, attempt: _Attempt) -> None:
    attempt.search.run(ATTEMPT_BUDGET, restarts=ATTEMPT_RESTARTS)


REPAIR = Step(
    "re-seat whole series exactly",
    lambda change, attempt: change.repeats(attempt.search),
    _repair,
)
# What improves the first search, from the first draw's start.
FIRST_STEPS: tuple[Step, ...] = (REPAIR,)
# What improves each start of an attempt before it is searched.
EASING: tuple[Step, ...] = (
    Step(
        "re-seat the first start exactly, else search the design",
        lambda change, attempt: attempt.turn == 0 and change.repeats(attempt.search),
        _reseat_first,
    ),
    Step(
        "ease the tables of three",
        lambda change, attempt: not change.repeats(attempt.search),
        _ease,
    ),
)
# What improves an attempt's last start when easing left it short.
SEARCHING: tuple[Step, ...] = (
    Step("relabel the players over the design", lambda change, attempt: True, _relabel),
    Step("search long", lambda change, attempt: True, _search_long),
    REPAIR,
)


def _improve(change: _Change, attempt: _Attempt, steps: tuple[Step, ...]) -> None:
    for step in steps:
        if step.applies(change, attempt):
            step.run(change, attempt)


# Attempts after the first search while more is left than the bound: each
# searches one start, so the draw's time grows with them; this many keep the
# slowest draw of the tightest fields under two seconds.
ATTEMPTS = 4


def _after_change(change: _Change, first: _Attempt) -> list[list[list[int]]]:
    """The best of the first search and further attempts while more is left
    than the played series force: the pipeline of the module docstring.

    The first search's seating stays whenever it is as good as any, so
    ties are broken as they are without a change.
    """
    _improve(change, first, FIRST_STEPS)
    best = first.search
    for round_ in range(ATTEMPTS):
        if change.done(best):
            break
        attempt = _eased(change, round_)
        if attempt is None:
            break
        if not change.done(attempt.search):
            _improve(change, attempt, SEARCHING)
        if attempt.search.cost < best.cost:
            best = attempt.search
    return [[list(t) for t in s] for s in best.tables]


# Starts eased per attempt before the last of them is searched: easing is
# cheap and, where it succeeds, ends the attempt; the start decides whether
# it can, so another start is worth more than another pass.
EASED = 4


def _eased(change: _Change, round_: int) -> _Attempt | None:
    """Attempt ``round_``'s starts, each improved by ``EASING``, until one
    repeats (it goes to the search as it is), is done, or ``EASED`` were
    tried: the last of them. ``None`` when no design covers the field."""
    attempt = None
    for k in range(EASED):
        turn = round_ + k
        start = _start(change, turn, first=k == 0)
        if start is None:
            return None
        attempt = _Attempt(change.searcher(start), start, turn)
        _improve(change, attempt, EASING)
        if change.repeats(attempt.search) or change.done(attempt.search):
            break
    return attempt


def _start(change: _Change, turn: int, *, first: bool) -> list[Tables] | None:
    """Start number ``turn``: the first of ``STARTS`` that applies and makes
    one; ``None`` when none does (no design covers the field)."""
    for strategy in STARTS:
        if strategy.applies(change, turn, first):
            start = strategy.make(change, turn)
            if start is not None:
                return start
    return None
