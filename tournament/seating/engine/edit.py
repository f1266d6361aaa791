"""Hand edits an organizer makes to a seating."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import SeatingError


def swap_players(
    series: Sequence[Sequence[Sequence[int]]], number: int, a: int, b: int
) -> list[list[list[int]]]:
    """A copy of ``series`` with players ``a`` and ``b`` swapping seats in
    series ``number`` (1-based); everything else unchanged.

    Raises ``SeatingError`` (``unknown_player``) if either is not seated there.
    """
    out = [[list(table) for table in tables] for tables in series]
    if not 1 <= number <= len(out):
        raise SeatingError("bad_series", f"there is no series {number}.")
    where = {
        p: (t, k)
        for t, table in enumerate(out[number - 1])
        for k, p in enumerate(table)
    }
    for p in (a, b):
        if p not in where:
            raise SeatingError(
                "unknown_player",
                f"player {p} does not sit in series {number}.",
                players=[p],
                series=number,
            )
    (ta, ka), (tb, kb) = where[a], where[b]
    out[number - 1][ta][ka], out[number - 1][tb][kb] = b, a
    return out
