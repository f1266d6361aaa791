"""Best known seatings of five series for fields of 3 to 14 players.

Found once by this package's local search (``search.py``, lexicographic cost)
and kept as data, because a field this small leaves the search many equally
good plateaus to wander; the tests recompute every figure. Players are
``0..N-1``; series are separated by ``/``, tables by ``|``.

Their repeated meetings E are the proven lower bounds (counting pairs), except
where the issue's other rules bind: with nobody at more than three tables of
three, N = 10 cannot do better than E = 17 (E = 15 needs a player at four of
them; ``tests/seating/test_seating_small_fields.py`` checks this exhaustively).
"""

from __future__ import annotations

_FIELDS = {
    3: "0 1 2/0 1 2/0 1 2/0 1 2/0 1 2",
    4: "0 1 2 3/0 1 2 3/0 1 2 3/0 1 2 3/0 1 2 3",
    6: "0 4 5|1 2 3/0 1 3|2 4 5/0 3 5|1 2 4/0 2 3|1 4 5/0 1 5|2 3 4",
    7: "0 2 3 6|1 4 5/0 3 4 5|1 2 6/1 3 5 6|0 2 4/2 4 5 6|0 1 3/1 2 3 4|0 5 6",
    8: "0 3 4 6|1 2 5 7/0 1 3 5|2 4 6 7/0 5 6 7|1 2 3 4/0 1 2 6|3 4 5 7/"
    "0 2 3 7|1 4 5 6",
    9: "0 2 7|1 3 5|4 6 8/0 5 8|1 4 6|2 3 7/0 5 6|1 7 8|2 3 4/0 1 4|2 5 8|3 6 7/"
    "0 3 8|1 2 6|4 5 7",
    10: "0 4 8 9|1 3 6|2 5 7/3 5 7 8|0 1 6|2 4 9/1 4 6 7|0 2 8|3 5 9/"
    "1 2 6 9|0 7 8|3 4 5/0 2 3 5|1 6 8|4 7 9",
    11: "0 2 5 10|3 4 6 9|1 7 8/0 1 4 9|2 3 8 10|5 6 7/2 4 7 10|5 6 8 9|0 1 3/"
    "0 3 6 7|1 4 5 8|2 9 10/1 2 6 10|3 5 7 9|0 4 8",
    12: "0 2 9 10|1 3 5 7|4 6 8 11/0 4 5 10|1 7 9 11|2 3 6 8/"
    "0 5 8 11|1 2 4 7|3 6 9 10/0 5 6 7|1 8 9 10|2 3 4 11/0 1 3 6|2 4 5 9|7 8 10 11",
    13: "4 7 8 12|0 6 9|1 3 10|2 5 11/1 2 6 8|0 3 7|4 5 9|10 11 12/"
    "0 1 4 11|2 9 10|3 5 12|6 7 8/3 8 9 11|0 2 12|1 5 7|4 6 10/"
    "0 5 8 10|1 9 12|2 3 4|6 7 11",
    14: "4 9 10 12|5 6 7 13|0 1 11|2 3 8/0 5 8 9|2 4 11 13|1 6 12|3 7 10/"
    "1 8 10 13|3 6 9 11|0 4 7|2 5 12/0 2 6 10|1 3 4 5|7 8 11|9 12 13/"
    "0 3 12 13|1 2 7 9|4 6 8|5 10 11",
}


def small_field(players: int) -> list[list[list[int]]] | None:
    """The stored five series for ``players`` (3-14), or ``None``."""
    text = _FIELDS.get(players)
    if text is None:
        return None
    return [
        [[int(p) for p in table.split()] for table in series.split("|")]
        for series in text.split("/")
    ]
