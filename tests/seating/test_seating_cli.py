"""The command line: python -m tournament.seating ..."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tournament.seating.engine.cli import main

from .verify import verify


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out else {}), err


def test_prints_series_and_quality(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = run(capsys, "--players", "18", "--seed", "7")
    assert status == 0
    assert set(data) == {"series", "quality"}
    verify(data["series"], range(1, 19), data["quality"])
    assert data["quality"]["repeated_meetings"] == 0


def test_clubs_fixed_and_withdrawn_from_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    clubs = tmp_path / "clubs.json"
    clubs.write_text(json.dumps({str(p): f"C{p % 6}" for p in range(1, 49)}))
    status, first, _ = run(capsys, "--players", "48", "--clubs", str(clubs))
    assert status == 0 and first["quality"]["club_meetings"] == 0
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps(first["series"][:2]))
    status, again, _ = run(
        capsys,
        "--players", "50", "--seed", "2", "--fixed", str(fixed),
        "--withdrawn", "4,9", "--clubs", str(clubs),
    )  # fmt: skip
    assert status == 0
    assert again["series"][:2] == first["series"][:2]
    players = [p for p in range(1, 51) if p not in (4, 9)]
    verify(again["series"], players, again["quality"], played=2)
    assert again["quality"]["repeated_meetings"] == 0


def test_standings_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, first, _ = run(capsys, "--players", "32", "--mode", "standings")
    assert status == 0 and len(first["series"]) == 1
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps(first["series"]))
    totals = tmp_path / "totals.json"
    totals.write_text(json.dumps({str(p): 100 - p for p in range(1, 33)}))
    status, second, _ = run(
        capsys, "--players", "32", "--mode", "standings",
        "--fixed", str(fixed), "--totals", str(totals),
    )  # fmt: skip
    assert status == 0 and len(second["series"]) == 2
    assert second["quality"]["repeated_meetings"] == 0


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--players", "5"], "five_players"),
        (["--players", "2"], "too_few_players"),
        (["--players", "0"], "too_few_players"),
    ],
)
def test_errors_go_to_stderr(
    capsys: pytest.CaptureFixture[str], args: list[str], code: str
) -> None:
    status, data, err = run(capsys, *args)
    assert status == 2 and not data
    assert err.startswith(f"error: {code}: ")


def test_unknown_player_in_fixed_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps([[[1, 2, 3, 4], [5, 6, 7, 77]]]))
    status, _, err = run(capsys, "--players", "8", "--fixed", str(fixed))
    assert status == 2 and "unknown_player" in err


def test_duplicate_player_in_fixed_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps([[[1, 2, 3, 4], [5, 6, 1, 8]]]))
    status, _, err = run(capsys, "--players", "8", "--fixed", str(fixed))
    assert status == 2 and "duplicate_player" in err


def test_unreadable_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    for option in ("--fixed", "--clubs"):
        status, _, err = run(capsys, "--players", "8", option, str(broken))
        assert status == 2 and err.startswith("error: bad_file")
    status, _, err = run(capsys, "--players", "8", "--clubs", str(tmp_path / "no"))
    assert status == 2 and err.startswith("error: bad_file")
