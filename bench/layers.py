"""The serving layers proved layer by layer (issue 39): bench/load.py once per
configuration of the serving machinery, each in a process of its own with
its own server and database, one after the other.

The configurations (`SERVING_LAYERS_OFF`, tournament/core/serving.py): all
layers on (the site as it serves in the hall), then each layer off in turn
(`edge`, `lanes`, `onethread`, `pages` (which takes `edge` along),
`flight`, `switchinterval`), then all off: public pages by Django's own
conditional GET and cache framework alone (tournament/live/cached.py),
Django's handler, a thread per request. Each at every size asked for, by
default 300 phones + 20 referees and 1,000 phones + 30 referees.

Per size a table: the configuration, its errors, p50 and p95 of every
request, the referees' worst p95, the ratio of p50 under load to one phone
alone, and the server's CPU per request (bench/load.py's figures; its
output is printed as it runs). The targets a kept layer must help to hold
(docs/PERFORMANCE.md): 0 errors, p95 ≤ 300 ms, the referees' worst p95 ≤
500 ms, ratio ≤ 4 at 1,000 phones + 30 referees on one process.

    python bench/layers.py                       # both sizes, 30 s each run
    python bench/layers.py --seconds 60 --viewers 1000 --referees 30
    python bench/layers.py --configurations all-on pages all-off
    python bench/layers.py --workers 1 --poll 15  # other flags go to load.py

Eight configurations × two sizes are sixteen runs of bench/load.py (each
builds its 400-player tournament first): about a minute each beyond
--seconds. The last line is one JSON object: {"sizes": [{"viewers",
"referees", "configurations": [{"name", "off", and bench/load.py's
figures}]}], "errors": all errors}; the exit status is 1 if any run had
errors or ended without figures.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402
from tournament.core.serving import SERVING_LAYERS  # noqa: E402

ALL_ON, ALL_OFF = "all-on", "all-off"


def configurations(chosen: list[str] | None) -> list[tuple[str, list[str]]]:
    """(name, the layers off) of each configuration, in the order run: all
    on, each layer off, all off; only those `chosen` if given."""
    every: list[tuple[str, list[str]]] = [(ALL_ON, [])]
    every += [(layer, [layer]) for layer in SERVING_LAYERS]
    every += [(ALL_OFF, list(SERVING_LAYERS))]
    if not chosen:
        return every
    names = [name for name, _ in every]
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        raise SystemExit(
            f"no such configuration: {', '.join(unknown)} (the configurations: "
            f"{', '.join(names)})"
        )
    return [(name, off) for name, off in every if name in chosen]


def measure(
    viewers: int, referees: int, off: list[str], passed: list[str]
) -> dict[str, Any]:
    """One run of bench/load.py with the layers `off` switched off in its
    server (the variable reaches it through load.py's environment); its
    figures (its last line), or {"failed": why}."""
    env = os.environ | {"SERVING_LAYERS_OFF": ",".join(off)}
    command = [sys.executable, load.__file__, *passed]
    command += [f"--viewers={viewers}", f"--referees={referees}"]
    run = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True)
    print(run.stdout, end="", flush=True)
    lines = run.stdout.strip().splitlines()
    try:
        figures: dict[str, Any] = json.loads(lines[-1])
    except (IndexError, ValueError):
        return {"failed": f"bench/load.py ended without figures ({run.returncode})"}
    return figures


COLUMNS = (
    ("configuration", "label", 18),
    ("errors", "errors", 6),
    ("p50 ms", "p50_ms", 8),
    ("p95 ms", "p95_ms", 8),
    ("ref. p95 ms", "referees_worst_p95_ms", 11),
    ("ratio", "ratio", 6),
    ("CPU ms/req", "server_cpu_ms", 10),
)


def table(rows: list[dict[str, Any]]) -> str:
    """The figures of one size's configurations, a row each."""

    def line(values: list[Any]) -> str:
        cells = ["–" if value is None else str(value) for value in values]
        widths = [width for _, _, width in COLUMNS]
        first = cells[0].ljust(widths[0])
        rest = zip(cells[1:], widths[1:], strict=False)
        return "  ".join([first, *(cell.rjust(width) for cell, width in rest)])

    lines = [line([title for title, _, _ in COLUMNS])]
    for row in rows:
        if "failed" in row:
            lines.append(line([row["label"], row["failed"]]))
        else:
            lines.append(line([row.get(key) for _, key, _ in COLUMNS]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Any other flag (--workers, --poll, --referee-pause, "
        "--baseline-seconds) goes to bench/load.py as it is.",
    )
    parser.add_argument(
        "--viewers", type=int, nargs="+", default=[300, 1000], help="phones per size"
    )
    parser.add_argument(
        "--referees",
        type=int,
        nargs="+",
        default=[20, 30],
        help="referees per size (one value: the same for every size)",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="load phase")
    parser.add_argument(
        "--configurations",
        nargs="+",
        help=f"only these: {ALL_ON}, a layer's name (that layer off), {ALL_OFF}",
    )
    args, passed = parser.parse_known_args()
    if len(args.referees) == 1:
        args.referees *= len(args.viewers)
    if len(args.referees) != len(args.viewers):
        raise SystemExit("give one --referees value, or one per --viewers value")
    chosen = configurations(args.configurations)
    passed = [f"--seconds={args.seconds}", *passed]

    sizes = []
    for viewers, referees in zip(args.viewers, args.referees, strict=True):
        rows = []
        for name, off in chosen:
            print(
                f"== {viewers} viewers, {referees} referees, {name} "
                f"(SERVING_LAYERS_OFF={','.join(off)})",
                flush=True,
            )
            figures = measure(viewers, referees, off, passed)
            label = name if name in (ALL_ON, ALL_OFF) else f"{name} off"
            rows.append({"name": name, "label": label, "off": off} | figures)
        sizes.append({"viewers": viewers, "referees": referees, "configurations": rows})

    for size in sizes:
        print(f"== {size['viewers']} viewers, {size['referees']} referees")
        print(table(size["configurations"]))
    rows = [row for size in sizes for row in size["configurations"]]
    errors = sum(row.get("errors", 0) for row in rows)
    failed = sum("failed" in row for row in rows)
    print(json.dumps({"sizes": sizes, "errors": errors, "failed": failed}))
    if errors or failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
