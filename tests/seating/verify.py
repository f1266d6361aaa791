"""An independent checker for seatings: recomputes everything from raw series.

Deliberately shares no code with ``tournament.seating``: the table plan, the
pair counts, the seat and table-of-three counts are all recomputed here from
first principles, so a bug in the package cannot hide itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

Series = Sequence[Sequence[int]]


@dataclass
class Figures:
    players: int
    repeats: int  # E
    worst_pair: int
    sum_squares: int
    three: Counter[int]  # tables of three per player
    seat: Counter[tuple[int, int]]  # (player, seat index) -> times
    deal: Counter[int]  # last seat -> times
    club_meetings: int

    def max_three(self, players: Iterable[int]) -> int:
        return max((self.three[p] for p in players), default=0)

    def max_seat(self, players: Iterable[int]) -> int:
        wanted = set(players)
        return max((c for (p, _), c in self.seat.items() if p in wanted), default=0)

    def max_deal(self, players: Iterable[int]) -> int:
        return max((self.deal[p] for p in players), default=0)


def expected_sizes(n: int) -> Counter[int]:
    """Tables of 4 as many as possible, tables of 3 only as arithmetic forces."""
    for threes in range(4):
        rest = n - 3 * threes
        if rest >= 0 and rest % 4 == 0:
            return Counter({4: rest // 4, 3: threes}) - Counter()
    raise AssertionError(f"no plan for {n}")


def check_series(tables: Series, players: Sequence[int]) -> None:
    """Every player exactly once; table sizes as the plan demands."""
    seated = [p for t in tables for p in t]
    assert sorted(seated) == sorted(players), "not every player exactly once"
    sizes = Counter(len(t) for t in tables)
    assert sizes == expected_sizes(len(players)), (sizes, len(players))


def figures(
    series: Sequence[Series], clubs: Mapping[int, str] | None = None
) -> Figures:
    met: Counter[frozenset[int]] = Counter()
    three: Counter[int] = Counter()
    seat: Counter[tuple[int, int]] = Counter()
    deal: Counter[int] = Counter()
    everyone: set[int] = set()
    for tables in series:
        for table in tables:
            everyone.update(table)
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] += 1
            if len(table) == 3:
                for p in table:
                    three[p] += 1
            for k, p in enumerate(table):
                seat[p, k] += 1
            deal[table[-1]] += 1
    clubs = clubs or {}
    club_meetings = 0
    for pair, m in met.items():
        a, b = tuple(pair)
        if clubs.get(a) and clubs.get(a) == clubs.get(b):  # "" = no club
            club_meetings += m
    return Figures(
        players=len(everyone),
        repeats=sum(m - 1 for m in met.values() if m > 1),
        worst_pair=max(met.values(), default=0),
        sum_squares=sum(m * m for m in met.values()),
        three=three,
        seat=seat,
        deal=deal,
        club_meetings=club_meetings,
    )


def verify(
    series: Sequence[Series],
    players: Sequence[int],
    quality: Mapping[str, Any],
    *,
    clubs: Mapping[int, str] | None = None,
    played: int = 0,
) -> Figures:
    """Check a fresh seating (``played`` = 0) or the new series of a re-seating.

    Asserts: the new series seat every current player once at tables of the
    plan's sizes; the reported quality equals the recomputed one; nobody is
    more than twice in one seat or dealing first (five series); nobody of the
    current field sits at more tables of three than can be helped (⌈15·b/N⌉
    for a fresh seating of five series).
    """
    for tables in series[played:]:
        check_series(tables, players)
    f = figures(series, clubs)
    assert quality["repeated_meetings"] == f.repeats
    assert quality["worst_pair"] == f.worst_pair
    assert quality["sum_squares"] == f.sum_squares
    assert quality["max_three"] == max(f.three.values(), default=0)
    assert quality["max_seat"] == max(f.seat.values(), default=0)
    assert quality["max_deal"] == max(f.deal.values(), default=0)
    assert quality["club_meetings"] == f.club_meetings
    if len(series) <= 5:
        assert f.max_seat(players) <= 2
        assert f.max_deal(players) <= 2
    assert f.max_three(players) <= least_max_three(series, players, played)
    return f


def least_max_three(
    series: Sequence[Series], players: Sequence[int], played: int
) -> int:
    """The fewest tables of three the unluckiest player can be held to.

    The new series have a fixed number of such seats, one per player and
    series at most; fill them from the players with the fewest so far.
    """
    before = figures(series[:played]).three
    counts = sorted(before[p] for p in players)
    rounds = len(series) - played
    seats = sum(len(t) == 3 for t in series[-1]) * 3 * rounds if rounds else 0
    if not seats:
        return max(counts, default=0)
    for level in range(max(counts) + rounds + 1):
        if sum(min(rounds, max(0, level - c)) for c in counts) >= seats:
            return max(level, max(counts))  # nobody can lose a played one
    raise AssertionError("more seats than players can take")
