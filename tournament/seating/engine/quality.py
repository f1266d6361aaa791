"""Quality figures of a seating, recomputed from the raw series."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

SeriesLike = Sequence[Sequence[Sequence[int]]]


def meetings(series: SeriesLike) -> Counter[tuple[int, int]]:
    """How often each pair ``(low, high)`` of players shared a table."""
    met: Counter[tuple[int, int]] = Counter()
    for tables in series:
        for table in tables:
            met.update(combinations(sorted(table), 2))
    return met


def repeated_pairs(series: SeriesLike) -> list[tuple[int, int, int]]:
    """Pairs that met more than once, as ``(a, b, times)``, most often first."""
    met = meetings(series)
    return sorted(
        ((a, b, m) for (a, b), m in met.items() if m > 1),
        key=lambda r: (-r[2], r[0], r[1]),
    )


def quality(
    series: SeriesLike, clubs: Mapping[int, str] | None = None
) -> dict[str, Any]:
    """The quality report of a seating (JSON-serialisable).

    - ``repeated_meetings``: E = Σ over pairs of max(0, times together − 1);
      ``worst_pair``: the most times one pair met; ``repeated_pairs``: how many
      pairs met more than once; ``sum_squares``: Σ times² (lower = spread);
    - ``max_three``: most tables of three one player sat at, ``three_bound``:
      ⌈3-table seats / players⌉, the fewest that can be promised when all
      played every series (after withdrawals it averages over everyone who
      played, so it may fall below what can be helped), and
      ``three_counts``: how many players sat at 0, 1, … tables of three;
    - ``max_seat``: most times one player had one seat number, ``max_deal``:
      most times one player sat in the last seat (dealing first);
    - ``club_meetings``: times two members of one club shared a table (an
      empty club name means no club).
    """
    met = meetings(series)
    three: Counter[int] = Counter()
    seat: Counter[tuple[int, int]] = Counter()
    deal: Counter[int] = Counter()
    players: set[int] = set()
    three_seats = 0
    for tables in series:
        for table in tables:
            players.update(table)
            if len(table) == 3:
                three.update(table)
                three_seats += 3
            seat.update((p, k) for k, p in enumerate(table))
            if table:
                deal[table[-1]] += 1
    club_meetings = 0
    if clubs:
        club_meetings = sum(
            m
            for (a, b), m in met.items()
            if clubs.get(a) and clubs.get(a) == clubs.get(b)
        )
    spread = Counter(three[p] for p in players)
    return {
        "players": len(players),
        "series": len(series),
        "repeated_meetings": sum(m - 1 for m in met.values()),
        "worst_pair": max(met.values(), default=0),
        "repeated_pairs": sum(1 for m in met.values() if m > 1),
        "sum_squares": sum(m * m for m in met.values()),
        "max_three": max(three.values(), default=0),
        "three_bound": -(-three_seats // len(players)) if players else 0,
        "three_counts": {str(k): spread[k] for k in sorted(spread)},
        "max_seat": max(seat.values(), default=0),
        "max_deal": max(deal.values(), default=0),
        "club_meetings": club_meetings,
    }
