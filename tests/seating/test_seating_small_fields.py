"""Fields of 3 to 14: the least repeated meetings, proved where it is cheap."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

from tournament.seating.engine import seat
from tournament.seating.engine.small import small_field

from .verify import figures, verify


def test_stored_fields_are_valid_seatings() -> None:
    for n in [3, 4, *range(6, 15)]:
        series = small_field(n)
        assert series is not None
        players = list(range(n))
        plain = seat(n, seed=0)  # seats them, and checks the bounds
        verify(plain.series, range(1, n + 1), plain.quality)
        assert figures(series).repeats == plain.quality["repeated_meetings"]
        for tables in series:
            assert sorted(p for t in tables for p in t) == players


def test_six_players_cannot_do_better() -> None:
    # Every series of 6 is a triple with player 0 and its complement: try all
    # five-series choices. E = 15 is least, and then no pair need meet more
    # than three times, with Σ m² = 70.
    triples = [t for t in combinations(range(6), 3) if 0 in t]
    best = None
    for choice in combinations_with_replacement(triples, 5):
        met: Counter[tuple[int, int]] = Counter()
        for t in choice:
            rest = tuple(p for p in range(6) if p not in t)
            met.update(combinations(t, 2))
            met.update(combinations(rest, 2))
        key = (30 - len(met), max(met.values()), sum(m * m for m in met.values()))
        best = key if best is None or key < best else best
    f = figures(seat(6, seed=1).series)
    assert best == (f.repeats, f.worst_pair, f.sum_squares) == (15, 3, 70)


def _multigraphs() -> list[dict[tuple[int, int], int]]:
    """4-regular loopless multigraphs on 5 labelled vertices."""
    pairs = list(combinations(range(5), 2))
    found: list[dict[tuple[int, int], int]] = []

    def extend(i: int, mult: dict[tuple[int, int], int], degree: list[int]) -> None:
        if i == len(pairs):
            if all(d == 4 for d in degree):
                found.append(dict(mult))
            return
        a, b = pairs[i]
        for k in range(min(4 - degree[a], 4 - degree[b]) + 1):
            mult[pairs[i]] = k
            degree[a] += k
            degree[b] += k
            extend(i + 1, mult, degree)
            degree[a] -= k
            degree[b] -= k

    extend(0, {}, [0] * 5)
    return found


def test_ten_players_need_seventeen_repeats_under_the_three_table_bound() -> None:
    # 10 players: per series one table of 4 and two of 3; the bound ⌈30/10⌉ = 3
    # puts everyone at the table of 4 exactly twice. A player is then an edge
    # between his two series in a 4-regular multigraph on the five series.
    # Edges sharing a vertex meet at a table of 4; two disjoint edges can only
    # meet in the one series that misses all four of their ends, where the six
    # edges away from that vertex split into two tables of 3. E = 15 + the
    # disjoint pairs that never meet; minimise over all multigraphs and splits.
    least = None
    for graph in _multigraphs():
        edges = [e for e, k in graph.items() for _ in range(k)]
        missed = 0
        for v in range(5):
            away = [i for i, e in enumerate(edges) if v not in e]
            missed += min(
                sum(
                    1
                    for i, j in combinations(away, 2)
                    if not set(edges[i]) & set(edges[j]) and (i in t) != (j in t)
                )
                for t in combinations(away, 3)
                if away[0] in t
            )
        least = missed if least is None else min(least, missed)
    assert least is not None
    assert 15 + least == 17 == seat(10, seed=1).quality["repeated_meetings"]
