"""What the played series force: the fewest repeated meetings still to come.

A player who sits at a table of four meets three people, at a table of three
two. Over the series still to play he needs that many partners; those he
has not met yet are all he can take without a repeat. Every partner slot
beyond them is a repeated meeting, and each repeat is counted by both its
players. The tables of three soften this: whoever sits at one needs a
partner less, and the seats at tables of three go first to the players who
are short of partners (within the three-table bound, where that bound
leaves enough seats).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def forced_repeats(
    n: int,
    todo: int,
    threes: int,
    met: Mapping[tuple[int, int], int],
    fixed_three: Sequence[int],
    three_bound: int,
) -> int:
    """A lower bound on the repeated meetings the series still to play add.

    ``n`` players ``0..n-1``, ``todo`` series still to seat with ``threes``
    tables of three each; ``met``: pairs ``(a, b)``, ``a < b``, that already
    shared a table; ``fixed_three``: tables of three each already sat at.
    """
    known = [0] * n
    for (a, b), m in met.items():
        if m:
            known[a] += 1
            known[b] += 1
    short = [max(0, 3 * todo - (n - 1 - known[p])) for p in range(n)]
    room = [min(todo, max(0, three_bound - c)) for c in fixed_three]
    seats = 3 * threes * todo
    if sum(room) < seats:
        room = [todo] * n
    eased = min(seats, sum(min(r, s) for r, s in zip(room, short, strict=True)))
    return -(-(sum(short) - eased) // 2)
