"""The whole day's figures as bench/day.py reckons them after the day, and
its chart (docs/PERFORMANCE.md § The whole day)."""

import csv

import pytest

from bench.day import push_latencies
from bench.day_chart import draw


def test_a_push_is_charged_to_the_confirmation_it_followed_even_before_its_answer():
    # Confirmations sent at 1.0 and 4.0 s; the push of the first came at
    # 1.2 s, before its answer told the bench of it.
    socket = [(0.0, "connect"), (1.2, "fragment"), (4.5, "fragment")]
    assert push_latencies(socket, [4.0, 1.0]) == [
        (1.2, pytest.approx(200)),
        (4.5, pytest.approx(500)),
    ]


def test_what_was_confirmed_before_a_connect_or_shown_already_is_not_a_push():
    socket = [
        (0.0, "connect"),
        (2.0, "etag"),  # the page had these standings: no push to time
        (3.0, "fragment"),
        (6.0, "connect"),  # 5.0 came by the catch-up
        (6.1, "fragment"),
        (8.0, "fragment"),
    ]
    assert push_latencies(socket, [1.0, 2.5, 5.0, 7.0]) == [
        (3.0, pytest.approx(500)),
        (8.0, pytest.approx(1000)),
    ]


def test_the_chart_draws_the_minutes_series_and_restart(tmp_path):
    pytest.importorskip("matplotlib")
    table = tmp_path / "day.csv"
    with open(table, "w", newline="") as out:
        writer = csv.writer(out)
        head = "minute requests p50_ms p95_ms p99_ms push_p95_ms p95_page_ms events"
        writer.writerow(head.split())
        writer.writerow([0, 10, 3.5, 80.0, 120.0, "", 60.0, "Serie 1@0.20"])
        writer.writerow([1, 12, 4.0, 95.0, 130.0, 150.0, 70.0, "Neustart@1.50"])
        writer.writerow([2, 0, "", "", "", "", "", ""])
    png = tmp_path / "day.png"
    draw(table, png)
    assert png.read_bytes().startswith(b"\x89PNG")
