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

The last line is one JSON object ``{"rows": [{"players", "E", "E_random",
"max_three", "max_seat", "seconds"}, ...]}``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.seating.engine import quality, seat, table_plan

FIELDS = [16, 20, 50, 100, 250, 400, 1000, 2000]
SEEDS = [1, 2, 3]
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


def main() -> None:
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
    print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
