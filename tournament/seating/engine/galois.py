"""Arithmetic in small finite fields GF(p^k), enough for the design recipes.

Elements are the integers 0..q-1, read as polynomials over GF(p) with base-p
digits as coefficients; 0 and 1 are the field's zero and one.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

BinOp = Callable[[int, int], int]


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``p**k == q`` and ``p`` prime, or ``None``."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, rest = 0, q
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


def _poly_mod(a: list[int], mod: list[int], p: int) -> list[int]:
    """Remainder of ``a`` divided by the monic ``mod`` (coefficients low first)."""
    a = a[:]
    k = len(mod) - 1
    for i in range(len(a) - 1, k - 1, -1):
        c = a[i]
        if c:
            for j in range(k + 1):
                a[i - k + j] = (a[i - k + j] - c * mod[j]) % p
    return (a + [0] * k)[:k]


def _irreducible(p: int, k: int) -> list[int]:
    """The first monic irreducible polynomial of degree ``k`` over GF(p)."""
    for low in product(range(p), repeat=k):
        poly = [*low, 1]
        if low[0] == 0:
            continue
        # Irreducible iff no monic factor of degree 1..k//2 divides it.
        if not any(
            not any(_poly_mod(poly, [*f, 1], p))
            for d in range(1, k // 2 + 1)
            for f in product(range(p), repeat=d)
        ):
            return poly
    raise AssertionError(f"no irreducible polynomial of degree {k} over GF({p})")


def field(q: int) -> tuple[BinOp, BinOp]:
    """Addition and multiplication of GF(q); ``q`` must be a prime power."""
    pk = prime_power(q)
    if pk is None:
        raise ValueError(f"GF({q}) does not exist")
    p, k = pk

    def digits(a: int) -> list[int]:
        return [a // p**i % p for i in range(k)]

    def number(ds: list[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    mod = _irreducible(p, k)
    add_table = [
        [
            number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])
            for b in range(q)
        ]
        for a in range(q)
    ]
    mul_table = [[0] * q for _ in range(q)]
    for a in range(q):
        da = digits(a)
        for b in range(q):
            prod = [0] * (2 * k - 1)
            for i, x in enumerate(da):
                for j, y in enumerate(digits(b)):
                    prod[i + j] = (prod[i + j] + x * y) % p
            mul_table[a][b] = number(_poly_mod(prod, mod, p))
    return (lambda a, b: add_table[a][b]), (lambda a, b: mul_table[a][b])
