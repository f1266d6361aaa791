"""Seatings without repeated meetings, built from known designs.

A *base* seats the points ``0..M-1`` (``M = 4m``) in tables of four for a
number of series, so that no two points share a table twice. Point ``c*m + x``
is "column ``c``, position ``x``"; every table holds one point of each column,
so two points of one column never meet (which is what keeps clubs apart).

Recipes (see ``docs/SEATING.md``):

- cyclic "Dutch cycles" over Z_m: series ``h`` seats ``(c, t + c*h)``;
- the same pattern over GF(q) for prime powers, plus, for q = 4, the columns
  themselves as one more series (the affine plane AG(2, 4));
- two bases side by side (e.g. 48 = 20 + 28);
- for 24 points (m = 6, where no recipe works) a seating found once by the
  local search, kept as data; its columns do meet.

Fields not a multiple of four delete "ghost" points from the next base.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache, reduce

from .galois import BinOp, field, prime_power

# Candidate ghosts tried before giving up; a few hundred suffice wherever a
# ghost set exists, and where none does the whole space is small anyway.
LIMIT = 20_000


@dataclass(frozen=True)
class Base:
    """Series of tables of four over points ``0..4m-1``, no pair twice."""

    m: int
    series: tuple[tuple[tuple[int, ...], ...], ...]
    columns: bool = True  # False: points of one column may meet

    def column_points(self) -> list[list[int]]:
        """Groups of points that never meet (all points if there are none)."""
        if not self.columns:
            return [list(range(4 * self.m))]
        return [list(range(c * self.m, (c + 1) * self.m)) for c in range(4)]


_FOUND_24 = (
    "0 1 2 3|4 5 6 7|8 9 10 11|12 13 14 15|16 17 18 19|20 21 22 23/"
    "0 6 8 12|1 11 18 23|2 7 15 19|3 4 14 21|5 10 16 22|9 13 17 20/"
    "0 5 9 19|1 7 12 20|2 4 17 23|3 10 13 18|6 11 14 22|8 15 16 21/"
    "0 7 17 22|1 9 14 16|2 11 13 21|3 5 8 23|4 10 12 19|6 15 18 20/"
    "0 10 15 23|1 6 13 19|2 8 14 20|3 7 11 16|4 9 18 22|5 12 17 21"
)


def _found(m: int, series: int) -> Base | None:
    if m != 6 or series > 5:
        return None
    tables = tuple(
        tuple(tuple(int(p) for p in t.split()) for t in s.split("|"))
        for s in _FOUND_24.split("/")
    )
    return Base(6, tables[:series], columns=False)


def _pattern(m: int, series: int, add: BinOp, mul: BinOp) -> Base:
    """Table ``t`` of series ``h`` seats ``(c, t + c*h)`` for columns ``c``."""
    return Base(
        m,
        tuple(
            tuple(tuple(c * m + add(t, mul(c, h)) for c in range(4)) for t in range(m))
            for h in range(series)
        ),
    )


def _cyclic(m: int, series: int) -> Base | None:
    # (a, x) and (b, y) meet in series h iff y - x = (b - a) h (mod m): twice
    # only if m divides (b - a)(h - h') for some column and series difference.
    if any(d * e % m == 0 for d in range(1, 4) for e in range(1, series)):
        return None
    return _pattern(m, series, lambda a, b: (a + b) % m, lambda a, b: a * b % m)


def _galois(q: int, series: int) -> Base | None:
    # Over a field (of at least four elements, one per column) the
    # differences (b - a)(h - h') are never zero, so any q series work, and
    # for q = 4 the columns are one more parallel class.
    if q < 4 or prime_power(q) is None or series > q + (q == 4):
        return None
    add, mul = field(q)
    base = _pattern(q, min(series, q), add, mul)
    if series > q:
        # The columns become a series, so they no longer keep clubs apart.
        columns = tuple(tuple(range(c * q, c * q + q)) for c in range(4))
        base = Base(q, (*base.series, columns), columns=False)
    return base


def _union(a: Base, b: Base) -> Base:
    """``a`` and ``b`` side by side; their points never meet each other."""
    m = a.m + b.m

    def move(base: Base, shift: int, point: int) -> int:
        return point // base.m * m + shift + point % base.m

    return Base(
        m,
        tuple(
            tuple(tuple(move(a, 0, p) for p in table) for table in sa)
            + tuple(tuple(move(b, a.m, p) for p in table) for table in sb)
            for sa, sb in zip(a.series, b.series, strict=True)
        ),
        columns=a.columns and b.columns,
    )


@lru_cache(maxsize=64)
def base_design(m: int, series: int) -> Base | None:
    """A base on ``4m`` points for ``series`` series, or ``None`` if no recipe."""
    if m < 1:
        return None
    found = _cyclic(m, series) or _galois(m, series) or _found(m, series)
    if found is None:
        # Prefer a union whose columns still never meet (48 = 20 + 28 over
        # 16 + 32, whose affine plane uses its columns as a series).
        for small in range(4, m // 2 + 1):
            a, b = base_design(small, series), base_design(m - small, series)
            if a is not None and b is not None:
                union = _union(a, b)
                if found is None or (union.columns and not found.columns):
                    found = union
    return found


def bases(m: int, series: int) -> Iterator[Base]:
    """``base_design(m, series)``, then a few unions of smaller bases.

    Ghosts in different blocks of a union never meet and share no partner,
    which rescues the table-of-three bound where the first base cannot
    (e.g. 30 = 16 + 16 - 2, 45 = 16 + 16 + 16 - 3).
    """
    first = base_design(m, series)
    if first is not None:
        yield first
    splits: list[tuple[int, ...]] = [(a, m - a) for a in range(4, m // 2 + 1)]
    splits += [(a, b, m - a - b) for a in (4, 5) for b in (4, 5) if a <= b]
    tried = 0
    for parts in splits:
        if tried >= 12 or min(parts) < 4:
            continue
        built = [base_design(x, series) for x in parts]
        if all(b is not None for b in built):
            tried += 1
            yield reduce(_union, [b for b in built if b is not None])


def partners(base: Base) -> list[set[int]]:
    """For every point, the set of points it shares a table with."""
    met: list[set[int]] = [set() for _ in range(4 * base.m)]
    for tables in base.series:
        for table in tables:
            for p in table:
                met[p].update(table)
    for p, s in enumerate(met):
        s.discard(p)
    return met


def choose_ghosts(base: Base, count: int, bound: int) -> list[int] | None:
    """``count`` points to delete so the rest seat a field of ``4m - count``.

    Ghosts never meet each other, so every series gets exactly ``count``
    tables of three; and nobody meets more than ``bound`` ghosts, so nobody
    sits at more than ``bound`` tables of three. ``None`` if no such set.
    """
    if count == 0:
        return []
    met = partners(base)
    m = base.m

    # The k-th ghost tries column k first, so ghosts spread over the columns
    # when they can, leaving room in every column to pack clubs.
    def order(k: int) -> list[int]:
        return sorted(range(4 * m), key=lambda p: ((p // m - k) % 4, p % m))

    orders = [order(k) for k in range(count)]
    hits = [0] * (4 * m)
    chosen: list[int] = []
    tries = 0

    def extend() -> bool:
        nonlocal tries
        if len(chosen) == count:
            return True
        for g in orders[len(chosen)]:
            tries += 1
            if tries > LIMIT:
                return False
            if g in chosen or any(g in met[c] for c in chosen):
                continue
            if any(hits[p] >= bound for p in met[g]):
                continue
            chosen.append(g)
            for p in met[g]:
                hits[p] += 1
            if extend():
                return True
            chosen.pop()
            for p in met[g]:
                hits[p] -= 1
        return False

    return chosen if extend() else None
