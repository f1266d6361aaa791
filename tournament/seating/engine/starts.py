"""Where the search starts: a design drawn by lot, or a sort by standings.

All functions work on player *indices* ``0..n-1`` and return series of
tables whose slot sizes follow the table plan.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, islice

from .designs import Base, base_design, bases, choose_ghosts
from .plan import TablePlan
from .small import small_field

Tables = list[list[int]]
GHOST_SETS = 500  # sets of leftover points tried as ghosts
CROSS_STEPS = 20_000  # tries to match two played series onto a design


def designed(
    plan: TablePlan, series: int, clubs: Sequence[int], rng: random.Random
) -> tuple[list[Tables], bool] | None:
    """``series`` series from a known design, players placed by lot.

    Returns the series and whether they are already the best possible (the
    stored small fields); ``None`` when no recipe covers this field. Members
    of one club are packed into one column where they fit, so they never
    meet; the search deals with whatever is left.
    """
    n = plan.players
    if series == 5 and (stored := small_field(n)) is not None:
        players = list(range(n))
        rng.shuffle(players)
        return [[[players[p] for p in t] for t in s] for s in stored], True
    m, least = (n + plan.threes) // 4, plan.three_bound(series)
    # Clubs want columns that never meet: a looser bound on tables of three
    # is easier for the search to mend than scattered clubs.
    columns_only = max(clubs, default=-1) >= 0
    base, ghosts = None, None
    for candidate in bases(m, series):
        if columns_only and not candidate.columns:
            continue
        base = base or candidate
        ghosts = choose_ghosts(candidate, plan.threes, least)
        if ghosts is not None:
            base = candidate
            break
    base = base or base_design(m, series)
    if base is None:
        return None
    # A base taken without ghosts (base_design, when clubs found no design
    # with columns) tries the tight bound first; failing that, a looser
    # bound, and the search then removes the excess.
    for bound in range(least, plan.threes + 1):
        if ghosts is None:
            ghosts = choose_ghosts(base, plan.threes, bound)
    if ghosts is None:
        return None
    gone = set(ghosts)
    columns = [[p for p in c if p not in gone] for c in base.column_points()]
    for column in columns:
        rng.shuffle(column)
    where = _pack(columns, clubs, rng)
    out = [
        [[where[p] for p in table if p not in gone] for table in tables]
        for tables in base.series
    ]
    return out, False


def _pack(
    columns: list[list[int]], clubs: Sequence[int], rng: random.Random
) -> dict[int, int]:
    """Map points to players: each club into one column if it fits.

    Best fit, largest club first; a club too big for any column's free room
    is split over the roomiest columns. Players without a club fill the rest.
    """
    members: dict[int, list[int]] = {}
    loners: list[int] = []
    for p, club in enumerate(clubs):
        (members.setdefault(club, []) if club >= 0 else loners).append(p)
    free = [list(column) for column in columns]
    where: dict[int, int] = {}
    for club in sorted(members, key=lambda c: (-len(members[c]), c)):
        group = members[club]
        fits = [c for c in range(len(free)) if len(free[c]) >= len(group)]
        while group:
            c = (
                min(fits, key=lambda c: (len(free[c]), c))
                if fits
                else max(range(len(free)), key=lambda c: (len(free[c]), -c))
            )
            take = min(len(free[c]), len(group))
            for p in group[:take]:
                where[free[c].pop()] = p
            group = group[take:]
    rng.shuffle(loners)
    rest = [point for column in free for point in column]
    where.update(zip(rest, loners, strict=True))
    return where


def lottery(plan: TablePlan, series: int, rng: random.Random) -> list[Tables]:
    """``series`` independent random series (the plain lottery)."""
    out = []
    for _ in range(series):
        players = list(range(plan.players))
        rng.shuffle(players)
        out.append(fill(players, plan))
    return out


def fill(players: Sequence[int], plan: TablePlan) -> Tables:
    """Seat ``players`` in order into the plan's tables, tables of 4 first."""
    tables, i = [], 0
    for size in plan.sizes:
        tables.append(list(players[i : i + size]))
        i += size
    return tables


def aligned(
    plan: TablePlan,
    series: int,
    played: Tables,
    todo: int,
    fixed_three: Sequence[int],
    bound: int,
    rng: random.Random,
    *,
    ghosts_first: bool,
) -> list[Tables] | None:
    """``todo`` series of a design, laid so one played series fits into it.

    A design on ``4m`` points (``m`` tables) is drawn and one of its series
    chosen; each played table (its players still in the field) is laid into
    one of that series' tables, best fit, largest first. Everyone who met in
    ``played`` then sits together in that series, so the design's other
    series repeat none of those meetings. The points left over seat the
    players who did not fit (late arrivals, tables broken by a withdrawal).

    Ghosts (deleted points: their tables become tables of three) are either
    chosen first, as for a first draw (``ghosts_first``), or among the points
    the played tables left: then two ghosts may share the chosen series'
    table (a late arrival's, say), as that series is not used, but never
    meet in the others. Within a table the players with most tables of
    three behind them (``fixed_three``) take the points with fewest ahead,
    so as few as can be go above ``bound``. ``None`` if no ghosts fit.
    """
    m = (plan.players + plan.threes) // 4
    designs = _designs(plan, series)
    if not designs:
        return None
    base = rng.choice(designs)
    ghosts: set[int] = set()
    if ghosts_first:
        chosen_ghosts = choose_ghosts(base, plan.threes, plan.three_bound(series))
        if chosen_ghosts is None:
            return None
        ghosts = set(chosen_ghosts)
    chosen = rng.randrange(series)
    free = [[x for x in table if x not in ghosts] for table in base.series[chosen]]
    for room in free:
        rng.shuffle(room)
    tables = [list(t) for t in played if t]
    rng.shuffle(tables)
    tables.sort(key=len, reverse=True)
    groups: list[tuple[list[int], list[int]]] = []  # (players, their points)
    for table in tables:
        fits = [k for k, room in enumerate(free) if len(room) >= len(table)]
        if fits:
            k = min(fits, key=lambda k: len(free[k]))
            groups.append((table, free[k][-len(table) :]))
            del free[k][-len(table) :]
    others = [h for h in range(series) if h != chosen]
    rng.shuffle(others)
    used = [base.series[h] for h in others[:todo]]
    left = [x for room in free for x in room]
    if not ghosts_first:
        found = _apart(used, left, plan.threes, rng)
        if found is None:
            return None
        ghosts = found
    seated = {p for players, _ in groups for p in players}
    late = [p for p in range(plan.players) if p not in seated]
    groups.append((late, [x for x in left if x not in ghosts]))
    load = [0] * (4 * m)
    for tables_h in used:
        for table_h in tables_h:
            if ghosts.intersection(table_h):
                for x in table_h:
                    load[x] += 1
    point: dict[int, int] = {}
    for players, points in groups:
        by_three = sorted(players, key=lambda p: -fixed_three[p])
        by_load = sorted(points, key=lambda x: load[x])
        point.update(zip(by_three, by_load, strict=True))
    return _labelled(used, point, ghosts)


def _apart(
    used: Sequence[Sequence[Sequence[int]]],
    left: list[int],
    count: int,
    rng: random.Random,
) -> set[int] | None:
    """``count`` points of ``left`` no two of which meet in ``used``, by lot."""
    met: dict[int, set[int]] = {x: set() for x in left}
    for tables in used:
        for table in tables:
            for x in table:
                if x in met:
                    met[x].update(table)
    order = list(left)
    rng.shuffle(order)
    for choice in islice(combinations(order, count), GHOST_SETS):
        if not any(b in met[a] for a, b in combinations(choice, 2)):
            return set(choice)
    return None


def aligned_two(
    plan: TablePlan,
    series: int,
    first: Tables,
    second: Tables,
    todo: int,
    rng: random.Random,
) -> list[Tables] | None:
    """``todo`` series of a design into which two played series both fit.

    Two series of a design are drawn; the tables of ``first`` are matched to
    the tables of one, those of ``second`` to the other, so that each player
    who played both lands on the one point where his two tables cross
    (``_match_tables``, a small backtracking search bounded by
    ``CROSS_STEPS``). Then nobody who met in either played series meets
    again in the design's other series. Players of one played series only
    take a free point of their table (``_place_alone``); the rest, and the
    ghosts (no two meeting), take what is left (``_label_rest``). ``None``
    when no match is found.
    """
    m = (plan.players + plan.threes) // 4
    designs = _designs(plan, series)
    if not designs or max(len(first), len(second)) > m:
        return None
    base = rng.choice(designs)
    one, two = rng.sample(range(series), 2)
    cross = _Crossing.of(base.series[one], base.series[two], m)
    at_first = {p: i for i, table in enumerate(first) for p in table}
    at_second = {p: j for j, table in enumerate(second) for p in table}
    both = [p for p in at_first if p in at_second]
    edges = _table_graph(both, at_first, at_second)
    match = _match_tables(_walk(edges), edges, cross.cell, m, rng)
    if match is None:
        return None
    point = {
        p: cross.cell[match["r", at_first[p]], match["c", at_second[p]]] for p in both
    }
    if len(set(point.values())) < len(point):
        return None
    free = set(range(4 * m)) - set(point.values())
    _place_alone(point, free, at_first, at_second, match, cross, rng)
    others = [h for h in range(series) if h not in (one, two)]
    rng.shuffle(others)
    used = [base.series[h] for h in others[:todo]]
    if len(used) < todo:
        return None
    return _label_rest(plan, used, point, free, rng)


def _designs(plan: TablePlan, series: int) -> list[Base]:
    """The first few designs for the field's next multiple of four, if any
    (a design of fewer than four tables leaves nothing to lay around)."""
    m = (plan.players + plan.threes) // 4
    return list(islice(bases(m, series), 3)) if m >= 4 else []


# A table of a played series matched onto a design: ("r", table of the first
# played series), matched to a table of one design series (its rows), or
# ("c", table of the second), matched to one of the other (its columns).
Node = tuple[str, int]


@dataclass(frozen=True)
class _Crossing:
    """Two series of a design as rows and columns: each point lies where its
    table of the one (its row) crosses its table of the other (its column);
    two tables cross at one point at most, as no pair meets twice."""

    row: dict[int, int]
    col: dict[int, int]
    cell: dict[tuple[int, int], int]

    @classmethod
    def of(
        cls, one: Sequence[Sequence[int]], two: Sequence[Sequence[int]], m: int
    ) -> _Crossing:
        row = {x: t for t, table in enumerate(one) for x in table}
        col = {x: t for t, table in enumerate(two) for x in table}
        cell = {(row[x], col[x]): x for x in range(4 * m)}
        return cls(row, col, cell)


def _table_graph(
    both: list[int], at_first: dict[int, int], at_second: dict[int, int]
) -> dict[Node, list[Node]]:
    """The played tables as a graph: an edge per player of both series,
    between his table of the first and his table of the second."""
    edges: dict[Node, list[Node]] = {}
    for p in both:
        a, b = ("r", at_first[p]), ("c", at_second[p])
        edges.setdefault(a, []).append(b)
        edges.setdefault(b, []).append(a)
    return edges


def _walk(edges: dict[Node, list[Node]]) -> list[Node]:
    """The tables in the order a walk meets them, breadth first from the
    most connected, so each is matched next to those it must cross."""
    order: list[Node] = []
    seen: set[Node] = set()
    for root in sorted(edges, key=lambda v: -len(edges[v])):
        walk = [root]
        while walk:
            v = walk.pop(0)
            if v not in seen:
                seen.add(v)
                order.append(v)
                walk.extend(w for w in edges[v] if w not in seen)
    return order


def _match_tables(
    order: list[Node],
    edges: dict[Node, list[Node]],
    cell: dict[tuple[int, int], int],
    m: int,
    rng: random.Random,
) -> dict[Node, int] | None:
    """Each played table matched to a design table of its side, different
    tables to different ones, so that every two played tables that share a
    player are matched to two design tables that cross; backtracking in
    ``order``, options by lot, within ``CROSS_STEPS`` tries. ``None`` when
    none is found."""
    match: dict[Node, int] = {}
    taken: dict[str, set[int]] = {"r": set(), "c": set()}
    steps = 0

    def fits(v: Node, t: int) -> bool:
        for w in edges[v]:
            if w in match:
                key = (t, match[w]) if v[0] == "r" else (match[w], t)
                if key not in cell:
                    return False
        return True

    def extend(k: int) -> bool:
        nonlocal steps
        if k == len(order):
            return True
        v = order[k]
        options = [t for t in range(m) if t not in taken[v[0]]]
        rng.shuffle(options)
        for t in options:
            steps += 1
            if steps > CROSS_STEPS:
                return False
            if fits(v, t):
                match[v] = t
                taken[v[0]].add(t)
                if extend(k + 1):
                    return True
                del match[v]
                taken[v[0]].discard(t)
        return False

    return match if extend(0) else None


def _place_alone(
    point: dict[int, int],
    free: set[int],
    at_first: dict[int, int],
    at_second: dict[int, int],
    match: dict[Node, int],
    cross: _Crossing,
    rng: random.Random,
) -> None:
    """Players of one played series only take a free point of the design
    table their played table is matched to, by lot, where one is left."""
    alone = [
        (p, ("r", i), cross.row) for p, i in at_first.items() if p not in at_second
    ]
    alone += [
        (p, ("c", j), cross.col) for p, j in at_second.items() if p not in at_first
    ]
    for p, table, lines in alone:
        room = sorted(x for x in free if table in match and lines[x] == match[table])
        if room:
            point[p] = rng.choice(room)
            free.discard(point[p])


def _label_rest(
    plan: TablePlan,
    used: list[tuple[tuple[int, ...], ...]],
    point: dict[int, int],
    free: set[int],
    rng: random.Random,
) -> list[Tables] | None:
    """The design's series ``used`` with the players placed so far, the
    ghosts (no two meeting in ``used``) and everyone else by lot on the
    points left. ``None`` when no ghosts fit or the points do not add up."""
    left = sorted(free)
    ghosts = _apart(used, left, plan.threes, rng)
    if ghosts is None:
        return None
    rest = [x for x in left if x not in ghosts]
    rng.shuffle(rest)
    late = [p for p in range(plan.players) if p not in point]
    if len(late) != len(rest):
        return None
    point.update(zip(late, rest, strict=True))
    return _labelled(used, point, ghosts)


def _labelled(
    used: Sequence[Sequence[Sequence[int]]], point: dict[int, int], ghosts: set[int]
) -> list[Tables]:
    """The series ``used`` of a design with every point replaced by the
    player on it (``point``: player → point), the ghosts left out."""
    label = {x: p for p, x in point.items()}
    return [
        [[label[x] for x in table if x not in ghosts] for table in tables]
        for tables in used
    ]
