"""``seat()``: check the request, draw the lot, search, order the seats."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .errors import SeatingError
from .plan import TablePlan, table_plan
from .quality import quality
from .search import Problem, Search
from .seats import assign_seats
from .starts import designed, fill, lottery

Table = list[int]
Series = list[Table]
Mode = Literal["lot", "standings"]
MODES = ("lot", "standings")
BUDGET = 3000  # search iterations; enough for E = 0 wherever it is in reach


@dataclass(frozen=True)
class Seating:
    """Series of tables of player ids (seat 1 first) and their quality."""

    series: list[Series]
    quality: dict[str, Any]

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
    if todo and mode == "standings" and played:
        want = _standing_tables(ids, plan, totals or {}, rng)
        new = _search(plan, series, played, index, club_no, rng, want)[:1]
    elif todo:
        new = _search(plan, series, played, index, club_no, rng, None)
        if mode == "standings":
            new = new[:1]
    as_ids = [[[ids[p] for p in table] for table in tables] for tables in new]
    seated = played + assign_seats(played, as_ids, rng, cap=-(-series // 4))
    return Seating(seated, quality(seated, clubs))


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


def _search(
    plan: TablePlan,
    series: int,
    played: list[Series],
    index: dict[int, int],
    clubs: list[int],
    rng: random.Random,
    want: list[int] | None,
) -> list[list[list[int]]]:
    """The series still to play, as player indices, tables by lot or standings."""
    n, todo = plan.players, series - len(played)
    made = designed(plan, series, clubs, rng)
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
    fixed_meet: dict[tuple[int, int], int] = {}
    fixed_three = [0] * n
    for tables in played:
        for table in tables:
            here = sorted(index[p] for p in table if p in index)
            for i, a in enumerate(here):
                fixed_three[a] += len(table) == 3
                for b in here[i + 1 :]:
                    fixed_meet[a, b] = fixed_meet.get((a, b), 0) + 1
    problem = Problem(
        n=n,
        series=series,
        fixed_meet=fixed_meet,
        clubs=clubs,
        fixed_three=fixed_three,
        three_bound=three_bound(fixed_three, 3 * plan.threes, todo),
        standings=None if want is None else (0, want),
    )
    search = Search(problem, start, rng)
    unbeatable = best_known and not played and max(clubs, default=-1) < 0
    unbeatable = unbeatable and want is None
    found = search.run(BUDGET, target=search.cost if unbeatable else None)
    if want is not None:
        return search.polish(BUDGET)
    for tables in found:
        rng.shuffle(tables)
    return found
