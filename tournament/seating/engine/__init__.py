"""Seating for 7-Schräm tournaments: series of tables of 3-4, by lot.

Pure Python, standard library only; the Django app calls it through
:func:`seat` and stores what it returns.

API
---
``seat(players, *, series=5, seed, clubs=None, fixed=(), withdrawn=(),
mode="lot", totals=None, exact=False) -> Seating``

- ``players``: the current field, any distinct ints (start numbers, entry
  ids), or an int ``N`` meaning ``1..N``. The result does not depend on their
  order.
- ``seed``: int or str. One seed, one seating, on every machine (budgets
  count iterations, not seconds); another seed, an unrelated seating.
- ``clubs``: player → club name (an empty name means no club). Members of a
  club are kept apart when that is possible; ids not in the field are
  ignored.
- ``fixed``: the series already played, unchanged, in seat order. They may
  hold players who have since withdrawn - list those in ``withdrawn`` - and
  lack late entries. Any other id in ``fixed`` is an error (``unknown_player``).
- ``mode="lot"`` seats every remaining series. ``mode="standings"`` ("Setzen
  nach Punktestand") seats only the *next* series: by lot if none is played,
  else players of similar ``totals`` (player → points so far; missing = 0)
  together, top table first. Call it again after each series. With
  ``exact=True`` (a final series) the next series is seated straight down
  the standings: places 1-4 at table 1 and so on, the tables of three
  last; no meeting, club or table of three is weighed against a place.

``Seating.series`` is the whole tournament so far: ``fixed`` plus the new
series; a series is a list of tables, a table a list of player ids in seat
order, seat 1 first; the LAST seat deals first. Tables of 4 come first in
standings mode; in lot mode the table order is drawn too.
``Seating.quality`` is ``quality(series, clubs)``; ``Seating.as_json()``
gives ``{"series": ..., "quality": ...}`` as the command line prints it.
``Seating.repeats_note`` says why repeated meetings are left, if any:
``"field"`` (too few players for five series without one), ``"history"``
(the played series force them: ``Seating.forced_repeats``, a lower bound,
is reached) or ``"search"`` (the search spent its budget; fewer may exist).
After a change (played series fixed) the search starts again from other
starts while repeats are left that the history may not force, within a
fixed number of attempts (about two seconds at worst).

``quality(series, clubs=None) -> dict`` recomputes the report from raw series
(after a hand swap, say: ``quality(swap_players(series, 2, a, b))``);
``repeated_pairs(series)`` lists the pairs that met more than once;
``table_plan(n)`` tells how many tables of 4 and 3 a field needs.

Bad requests raise ``SeatingError`` (a ``ValueError``) with a stable
``code``: ``too_few_players``, ``five_players``, ``duplicate_player``,
``unknown_player``, ``bad_table``, ``too_many_fixed``, ``bad_series``,
``bad_mode``; ``params`` holds the details for a translated message.

What a seating promises (five series)
-------------------------------------
In order of priority, each only as far as the earlier ones and the played
series allow:

1. tables of 4 only, except 1, 2 or 3 tables of 3 for N ≡ 3, 2, 1 (mod 4);
   nobody at more tables of 3 than ⌈15·b/N⌉ (b tables of 3 per series);
2. repeated meetings E = Σ max(0, times together − 1): 0 for every N ≥ 15;
   for N ≤ 14: 3: 12, 4: 24, 6: 15, 7: 24, 8: 32, 9: 9, 10: 17, 11: 20,
   12: 24 (all proven least; for 10 the counting bound 15 needs someone at
   four tables of 3), 13: 3 (best known; 0 is impossible), 14: 2 (0 and 1 are
   impossible) - and among those, no pair meeting more often than needed
   (which can be a lot: E = 17 for 10 and E = 20 for 11 players keep one
   pair together in all five series);
3. no two members of one club at a table (else as few such meetings as can
   be without a repeated meeting: in tight fields of 16-31 players the
   designs that avoid every repeat cannot always keep clubs apart too);
4. nobody more than twice in one seat, nobody dealing first more than twice.

Other series counts work too (``series=``); the figures are then what the
designs and the search reach, and the seat cap is ⌈series / 4⌉.

How: known designs (cyclic "Dutch cycles", Galois fields, the affine plane
AG(2, 4), unions of these, one stored design for 24) with players mapped
onto them by lot and clubs packed into design columns that never meet;
ghost points deleted for tables of 3; stored best seatings for N ≤ 14; a
tabu local search for the rest (tables-of-three bound where no ghosts fit,
re-seating, standings, clubs that do not pack). See
``docs/SEATING.md``.
"""

from .api import Mode, Seating, Series, Table, seat
from .edit import swap_players
from .errors import SeatingError
from .plan import TablePlan, table_plan
from .quality import quality, repeated_pairs

__all__ = [
    "Mode",
    "Seating",
    "SeatingError",
    "Series",
    "Table",
    "TablePlan",
    "quality",
    "repeated_pairs",
    "seat",
    "swap_players",
    "table_plan",
]
