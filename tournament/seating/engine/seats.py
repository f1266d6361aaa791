"""Seat order within tables: spread every player over the seats.

The last seat of a table deals first. With ``cap = ⌈series / 4⌉`` (2 for five
series) a good order seats nobody more than ``cap`` times in one seat and lets
nobody deal first more than ``cap`` times. Tables of three have seats 1-3, the
third dealing first.
"""

from __future__ import annotations

import random
from itertools import permutations

BIG = 10**6

Series = list[list[int]]

_PERMS = {k: list(permutations(range(k))) for k in (2, 3, 4)}


class _Counts:
    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.seat: dict[int, list[int]] = {}
        self.deal: dict[int, int] = {}

    def add(self, table: list[int], d: int) -> None:
        for k, p in enumerate(table):
            self.seat.setdefault(p, [0, 0, 0, 0])[k] += d
            if k == len(table) - 1:
                self.deal[p] = self.deal.get(p, 0) + d

    def price(self, p: int, size: int) -> list[int]:
        """Cost of one more sitting of ``p`` in each seat of a table of ``size``."""
        seats = self.seat.get(p, [0, 0, 0, 0])
        deal = self.deal.get(p, 0)
        out = []
        for k in range(size):
            c = seats[k]
            # Over the cap is (nearly) forbidden; below it, 2c + 1 is what one
            # more sitting adds to Σ c², so seats spread out evenly.
            cost = BIG if c >= self.cap else 2 * c + 1
            if k == size - 1:
                cost += BIG if deal >= self.cap else 2 * deal + 1
            out.append(cost)
        return out

    def excess(self, p: int) -> int:
        over = sum(max(0, c - self.cap) for c in self.seat.get(p, ()))
        return over + max(0, self.deal.get(p, 0) - self.cap)


def _best_order(
    table: list[int],
    counts: _Counts,
    rng: random.Random,
    avoid: tuple[int, int] | None = None,
) -> list[int]:
    """The cheapest seat order; ``avoid = (player, seat)`` forbids one seat."""
    size = len(table)
    if size not in _PERMS:
        return list(table)
    prices = [counts.price(p, size) for p in table]
    best: list[tuple[int, ...]] = []
    best_cost = 0
    for perm in _PERMS[size]:  # perm[i] = seat of table[i]
        if avoid is not None and perm[table.index(avoid[0])] == avoid[1]:
            continue
        cost = sum(prices[i][k] for i, k in enumerate(perm))
        if not best or cost < best_cost:
            best, best_cost = [perm], cost
        elif cost == best_cost:
            best.append(perm)
    perm = rng.choice(best)
    order = [0] * size
    for i, k in enumerate(perm):
        order[k] = table[i]
    return order


def assign_seats(
    fixed: list[Series], new: list[Series], rng: random.Random, cap: int
) -> list[Series]:
    """Seat orders for ``new`` (table membership unchanged), given ``fixed``.

    Greedy series by series, each table taking its cheapest order, then a
    min-conflicts repair for players still over ``cap``.
    """
    counts = _Counts(cap)
    for series in fixed:
        for table in series:
            counts.add(table, 1)
    out: list[Series] = []
    for series in new:
        ordered = []
        for table in series:
            order = _best_order(table, counts, rng)
            counts.add(order, 1)
            ordered.append(order)
        out.append(ordered)
    _repair(out, counts, rng)
    return out


def _repair(out: list[Series], counts: _Counts, rng: random.Random) -> None:
    """Min-conflicts: move a player out of a seat he has too often.

    Rarely needed: the greedy pass leaves an excess in about one of a
    thousand random seatings. The forced re-order may push another player
    over, who is then moved in turn; a few thousand steps always sufficed.
    """
    tables_of: dict[int, list[tuple[int, int]]] = {}
    for h, series in enumerate(out):
        for t, table in enumerate(series):
            for p in table:
                tables_of.setdefault(p, []).append((h, t))
    over = {p for p in tables_of if counts.excess(p)}
    for _ in range(5000):
        if not over:
            return
        p = rng.choice(sorted(over))
        choices = []
        for h, t in tables_of[p]:
            table = out[h][t]
            k = table.index(p)
            if counts.seat[p][k] > counts.cap or (
                k == len(table) - 1 and counts.deal[p] > counts.cap
            ):
                choices.append((h, t, k))
        if not choices:  # over only through the played series
            over.discard(p)
            continue
        h, t, k = rng.choice(choices)
        table = out[h][t]
        counts.add(table, -1)
        order = _best_order(table, counts, rng, avoid=(p, k))
        counts.add(order, 1)
        out[h][t] = order
        for q in order:
            if counts.excess(q):
                over.add(q)
            else:
                over.discard(q)
