"""The draw is by lot: reproducible per seed, unrelated across seeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from tournament.seating.engine import seat

ROOT = Path(__file__).resolve().parents[2]


def pairs(series: list[list[list[int]]]) -> set[frozenset[int]]:
    return {frozenset(p) for s in series for t in s for p in combinations(t, 2)}


@pytest.mark.parametrize("n", [7, 14, 16, 23, 40, 401])
def test_same_seed_same_seating(n: int) -> None:
    for seed in (0, 12345, "Rheinland 2025"):
        assert seat(n, seed=seed).series == seat(n, seed=seed).series


@pytest.mark.parametrize("n", [16, 40, 100, 401])
def test_different_seeds_give_unrelated_seatings(n: int) -> None:
    a, b = seat(n, seed=1).series, seat(n, seed=2).series
    assert a != b
    # Pairs meeting in both draws: about what two plain lotteries share
    # (15 partners each of n - 1), far from a relabelled copy of one draw.
    shared = len(pairs(a) & pairs(b))
    expected = len(pairs(a)) * 15 / (n - 1)
    assert shared <= 2 * expected + 10


def test_first_table_is_not_always_the_same_players() -> None:
    firsts = {tuple(sorted(seat(40, seed=s).series[0][0])) for s in range(20)}
    assert len(firsts) == 20


def test_order_of_the_player_list_does_not_matter() -> None:
    ids = [101, 7, 55, 23, 9, 64, 12, 88, 31, 40, 77, 5, 18, 99, 42, 60, 3]
    assert seat(ids, seed=3).series == seat(sorted(ids), seed=3).series


def test_arbitrary_ids_are_seated_as_given() -> None:
    ids = [1001 + 7 * k for k in range(30)]
    result = seat(ids, seed=8)
    for tables in result.series:
        assert sorted(p for t in tables for p in t) == ids
    assert result.quality["repeated_meetings"] == 0


def test_seed_gives_the_same_result_in_another_process() -> None:
    # Hash randomisation differs between processes; the seating must not.
    outputs = set()
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-m", "tournament.seating"]
        run = subprocess.run(
            [*command, "--players", "45", "--seed", "turnier"],
            capture_output=True,
            text=True,
            check=True,
            env=env,
            cwd=ROOT,
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop())["quality"]["repeated_meetings"] == 0
