"""Benchmark of the seating module (``tournament.seating``), on one core.

Run from the repository root: ``python bench/seating.py``. For each field
size, five series are seated by ``seat(N, seed=s)`` for three seeds; the
figures of the worst of the three are printed:

- ``E``: repeated meetings, Σ over pairs of max(0, times together − 1);
- ``max_three``: most tables of three one player sits at (``bound`` is
  ⌈15·b/N⌉, the least that can be promised);
- ``max_seat``: most times one player has the same seat number;
- ``seconds``: CPU time of one ``seat()`` call, quality report included
  (``time.process_time``, so other load on the machine does not count).

The baseline is a plain lottery measured in the same run: every series an
independent random shuffle of the players into the same tables, seat order
as drawn; ``E_random`` is its mean over the three seeds.

Then the draws after a change (``changed_history``): for each field size of
``CHANGED``, ``HISTORIES`` tournaments whose series 1 (or 1 and 2) were played
with a late arrival, a swap, both, a withdrawal after series 2, or several
changes; the next draw is ``seat()`` with those series fixed. A draw that
keeps repeated meetings is checked: if another seed (``CHECK_SEEDS`` of them)
or, with ``--thorough``, a longer search (``CHECK_ATTEMPTS`` attempts) finds
a draw of this history with no repeat and nobody more often at a table of
three than the bound, the repeats were avoidable. Repeats the engine
proves forced are not checked.
Printed per size: the share of draws with repeats, with avoidable repeats,
and the slowest draw (CPU seconds).

The last line is one JSON object ``{"rows": [{"players", "E", "E_random",
"max_three", "max_seat", "seconds"}, ...], "after_change": [{"players",
"with_repeats", "avoidable", "max_s"}, ...], "after_change_avoidable_repeats":
share, "after_change_max_s": seconds}``.

Runtime: the first draws take seconds; the changed histories up to two
seconds a draw at the tight sizes (13-20 players), plus a check for each
draw that keeps repeats, and far less elsewhere. The default, ``HISTORIES``
= 20 per size, runs in two to three minutes (one core);
``--histories 100`` measures 100 per size and takes about five times as
long; ``--thorough`` adds the longer search to every check.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.seating.engine import api, quality, seat, swap_players, table_plan

FIELDS = [16, 20, 50, 100, 250, 400, 1000, 2000]
SEEDS = [1, 2, 3]
CHANGED = [13, 14, 15, 16, 17, 18, 19, 20, 24, 27, 32, 40, 64, 80]
HISTORIES = 20  # per size; --histories 100 for the full measure
CHECK_SEEDS = 1
CHECK_ATTEMPTS = 4 * api.ATTEMPTS  # the longer search, with --thorough
clock = time.process_time


def lottery(n: int, seed: int) -> list[list[list[int]]]:
    """Five independent random series of players 1..n (the old way)."""
    rng = Random(seed)
    sizes = table_plan(n).sizes
    out = []
    for _ in range(5):
        players = list(range(1, n + 1))
        rng.shuffle(players)
        tables, i = [], 0
        for size in sizes:
            tables.append(players[i : i + size])
            i += size
        out.append(tables)
    return out


Fixed = list[list[list[int]]]


def swapped(tables: list[list[int]], rng: Random) -> list[list[int]]:
    """``tables`` after the organizer swapped two players of two tables."""
    first, second = rng.sample(range(len(tables)), 2)
    a, b = rng.choice(tables[first]), rng.choice(tables[second])
    return swap_players([tables], 1, a, b)[0]


def changed_history(n: int, case: int) -> tuple[str, list[int], Fixed, list[int]]:
    """A tournament of ``n`` players whose plan changed after it began.

    Returns the kind of change, the field, the played series and who
    withdrew - what ``seat()`` gets when the next series is drawn. Every
    series played was drawn by the engine; five kinds take turns:

    - ``late``: one player arrives after series 1;
    - ``swap``: two players of series 1 swapped seats before it was played;
    - ``late+swap``: both (the organizer's walk of the issue);
    - ``withdrawal``: one of ``n + 1`` leaves after series 2;
    - ``several``: two late arrivals and a swap in series 1, then another
      swap in series 2 (drawn for the new field).
    """
    rng = Random(f"history {n} {case}")
    kind = KINDS[case % len(KINDS)]
    players = list(range(1, n + 1))
    if kind == "withdrawal":
        played = seat(n + 1, seed=f"first {case}").series[:2]
        return kind, players, played, [n + 1]
    late = {"late": 1, "swap": 0, "late+swap": 1, "several": 2}[kind]
    first = seat(n - late, seed=f"first {case}").series[0]
    if kind != "late":
        first = swapped(first, rng)
    if kind != "several":
        return kind, players, [first], []
    second = seat(players, seed=f"second {case}", fixed=[first]).series[1]
    return kind, players, [first, swapped(second, rng)], []


KINDS = ["late", "swap", "late+swap", "withdrawal", "several"]


def over_three(series: Fixed, played: int, players: list[int]) -> int:
    """Sittings at tables of three above what the played series allow."""
    threes = table_plan(len(players)).threes
    count = {p: 0 for p in players}
    for number, tables in enumerate(series):
        if number == played:
            before = list(count.values())
        for table in tables:
            for p in table:
                if p in count and len(table) == 3:
                    count[p] += 1
    bound = api.three_bound(before, 3 * threes, len(series) - played)
    return sum(max(0, c - bound) for c in count.values())


def avoidable(players: list[int], fixed: Fixed, gone: list[int], over: int) -> bool:
    """Whether another seed or a longer search seats this history with no
    repeated meeting and no more sittings at tables of three above the bound."""

    def clean(result: api.Seating) -> bool:
        return (
            result.quality["repeated_meetings"] == 0
            and over_three(result.series, len(fixed), players) <= over
        )

    for k in range(CHECK_SEEDS):
        if clean(seat(players, seed=f"check {k}", fixed=fixed, withdrawn=gone)):
            return True
    if "--thorough" not in sys.argv:
        return False
    attempts, api.ATTEMPTS = api.ATTEMPTS, CHECK_ATTEMPTS
    try:
        return clean(seat(players, seed="check long", fixed=fixed, withdrawn=gone))
    finally:
        api.ATTEMPTS = attempts


def after_change(histories: int) -> list[dict[str, float]]:
    """Draws after a change, per field size: see the module docstring."""
    print(f"{'N':>5} {'with repeats':>12} {'avoidable':>9} {'slowest s':>9}")
    rows = []
    for n in CHANGED:
        repeats = avoided = 0
        slowest = 0.0
        for case in range(histories):
            _kind, players, fixed, gone = changed_history(n, case)
            started = clock()
            result = seat(players, seed=case, fixed=fixed, withdrawn=gone)
            slowest = max(slowest, clock() - started)
            if not result.quality["repeated_meetings"]:
                continue
            repeats += 1
            if result.repeats_note == "history":
                continue
            over = over_three(result.series, len(fixed), players)
            avoided += avoidable(players, fixed, gone, over)
        row = {
            "players": n,
            "with_repeats": round(repeats / histories, 3),
            "avoidable": round(avoided / histories, 3),
            "max_s": round(slowest, 3),
        }
        print(
            f"{n:>5} {row['with_repeats']:>12} {row['avoidable']:>9} "
            f"{row['max_s']:>9.3f}",
            flush=True,
        )
        rows.append(row)
    return rows


def main() -> None:
    histories = HISTORIES
    if "--histories" in sys.argv:
        histories = int(sys.argv[sys.argv.index("--histories") + 1])
    rows = []
    head = (
        f"{'N':>5} {'E':>3} {'E_random':>8} {'max_three':>9} {'bound':>5} "
        f"{'random':>6} {'max_seat':>8} {'random':>6} {'seconds':>8}"
    )
    print(head)
    for n in FIELDS:
        worst_e = worst_three = worst_seat = 0
        seconds = 0.0
        random_e, random_three, random_seat = [], [], []
        for seed in SEEDS:
            started = clock()
            q = seat(n, seed=seed).quality
            seconds = max(seconds, clock() - started)
            worst_e = max(worst_e, q["repeated_meetings"])
            worst_three = max(worst_three, q["max_three"])
            worst_seat = max(worst_seat, q["max_seat"])
            r = quality(lottery(n, seed))
            random_e.append(r["repeated_meetings"])
            random_three.append(r["max_three"])
            random_seat.append(r["max_seat"])
        bound = table_plan(n).three_bound(5)
        e_random = round(sum(random_e) / len(random_e), 1)
        print(
            f"{n:>5} {worst_e:>3} {e_random:>8} {worst_three:>9} {bound:>5} "
            f"{max(random_three):>6} {worst_seat:>8} {max(random_seat):>6} "
            f"{seconds:>8.3f}"
        )
        rows.append(
            {
                "players": n,
                "E": worst_e,
                "E_random": e_random,
                "max_three": worst_three,
                "max_seat": worst_seat,
                "seconds": round(seconds, 3),
            }
        )
    changed = after_change(histories)
    share = sum(r["avoidable"] for r in changed) / len(changed)
    print(
        json.dumps(
            {
                "rows": rows,
                "after_change": changed,
                "after_change_avoidable_repeats": round(share, 4),
                "after_change_max_s": max(r["max_s"] for r in changed),
            }
        )
    )


if __name__ == "__main__":
    main()
