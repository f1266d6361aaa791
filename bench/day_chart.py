"""The whole day's chart: p50 and p95 of every request per minute of the
day, and the p95 of the live pushes, from the CSV `bench/day.py --csv`
writes; each series' release and the restart marked, the targets of
docs/PERFORMANCE.md § The whole day as dotted lines.

    python bench/day_chart.py day.csv docs/img/day.png

Needs matplotlib (requirements-dev.txt); `bench/day.py --chart FILE.png`
calls it after the run.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

# docs/PERFORMANCE.md § The whole day: every request kind's p95, and a
# confirmed result on every phone within 2 s (p95).
REQUEST_TARGET_MS = 300
PUSH_TARGET_MS = 2000


def _number(text: str) -> float | None:
    return float(text) if text else None


def draw(table: str | Path, png: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(table, newline="") as read:
        rows = list(csv.DictReader(read))
    minutes = [float(r["minute"]) for r in rows]
    figure, axes = plt.subplots(figsize=(11, 4.8), dpi=120)
    lines = (
        ("p50_ms", "p50 aller Anfragen", "#1f77b4", "-"),
        ("p95_ms", "p95 aller Anfragen", "#d62728", "-"),
        ("push_p95_ms", "p95 Live-Push (Bestätigung → Tabelle)", "#2ca02c", "--"),
    )
    for column, label, color, style in lines:
        values = [_number(r.get(column, "")) for r in rows]
        xs = [m for m, v in zip(minutes, values, strict=True) if v is not None]
        ys = [v for v in values if v is not None]
        if ys:
            axes.plot(xs, ys, style, color=color, label=label, marker=".")
    axes.set_yscale("log")
    for target, label in (
        (REQUEST_TARGET_MS, "Ziel p95 Anfragen"),
        (PUSH_TARGET_MS, "Ziel p95 Push"),
    ):
        axes.axhline(target, color="grey", linestyle=":", linewidth=1)
        axes.annotate(
            label,
            (1, target),
            xycoords=("axes fraction", "data"),
            xytext=(-4, 3),
            textcoords="offset points",
            fontsize=8,
            color="grey",
            horizontalalignment="right",
        )
    for row in rows:
        for event in filter(None, row.get("events", "").split(";")):
            what, _, at = event.rpartition("@")
            restart = what == "Neustart"
            axes.axvline(
                float(at),
                color="#ff7f0e" if restart else "#888888",
                linestyle="-" if restart else "--",
                linewidth=1.5 if restart else 1,
            )
            axes.annotate(
                what,
                (float(at), 0),
                xycoords=("data", "axes fraction"),
                xytext=(3, 4),
                textcoords="offset points",
                fontsize=8,
                color="#ff7f0e" if restart else "#555555",
            )
    axes.set_xlabel("Minute des Tages")
    axes.set_ylabel("Millisekunden (logarithmisch)")
    axes.set_title("Der ganze Tag: Antwortzeiten und Live-Pushes je Minute")
    axes.grid(True, which="major", axis="y", alpha=0.3)
    axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    figure.savefig(png)
    plt.close(figure)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: python bench/day_chart.py DAY.csv CHART.png")
    draw(sys.argv[1], sys.argv[2])
