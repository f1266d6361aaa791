"""docs/FORMATS.md shows records the engine reads and the outcomes it
gives: its examples are replayed here, so the page cannot drift from
`scoring`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from scoring import GameRecord, HandRecord, SheetLine, read_record, settle_sheet_line
from scoring.records import game_result_json

DOC = Path(__file__).resolve().parents[2] / "docs/FORMATS.md"


def examples() -> dict[str, list[Any]]:
    """The page's JSON examples, by the section they stand in."""
    found: dict[str, list[Any]] = {}
    section = ""
    for block in re.split(r"^(## .*)$", DOC.read_text(encoding="utf-8"), flags=re.M):
        if block.startswith("## "):
            section = block[3:].strip()
            continue
        for code in re.findall(r"```json\n(.*?)```", block, flags=re.S):
            found.setdefault(section, []).append(json.loads(code))
    return found


def test_the_hand_record_is_read_and_its_outcome_is_the_case_played_out():
    doc = examples()
    record = read_record(doc["Hand record"][0])
    assert isinstance(record, HandRecord)
    hand = record.replay()
    assert hand.outcome() is None  # the actions stop early
    golden = Path(__file__).parent / "golden" / "case09_dead_card.json"
    finished = read_record(json.loads(golden.read_text(encoding="utf-8"))["record"])
    assert isinstance(finished, HandRecord)
    assert finished.cards == record.cards
    assert finished.actions[: len(record.actions)] == record.actions
    outcome = finished.replay().outcome()
    assert outcome is not None
    assert outcome.to_json() == doc["Hand outcome"][0]


def test_the_game_record_replays_to_the_game_outcome():
    doc = examples()
    record = read_record(doc["Game record"][0])
    assert isinstance(record, GameRecord)
    assert game_result_json(record.replay()) == doc["Game outcome"][0]


def test_the_sheet_line_settles_as_the_page_says():
    (line,) = (example["sheet"] for example in examples()["Sheet line"])
    settled = settle_sheet_line(
        SheetLine(
            value=line["value"],
            winner=line["winner"],
            folded={int(s): v for s, v in line["folded"].items()},
            penalty={int(s): v for s, v in line["penalty"].items()},
        ),
        {seat: 7 for seat in range(1, 5)},
        dealer=4,
    )
    assert settled.loss == {1: 0, 2: 1, 3: 1, 4: 2}
    assert settled.next_dealer == 1
