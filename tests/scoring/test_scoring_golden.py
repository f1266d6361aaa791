"""Every worked case of docs/RULES.md §10, as a golden record under golden/."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scoring import GameRecord, HandRecord, IllegalAction, read_record
from scoring.actions import action_from_json
from scoring.records import game_result_json

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_worked_case_has_a_golden_record() -> None:
    cases = {load(path)["case"] for path in GOLDEN}
    assert cases == {f"docs/RULES.md §10.{i}" for i in range(1, 10)}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_worked_case_replays_to_its_outcome(path: Path) -> None:
    doc = load(path)
    record = read_record(doc["record"])
    if isinstance(record, GameRecord):
        assert game_result_json(record.replay(), detail=True) == doc["outcome"]
        return
    hand = record.replay()
    outcome = hand.outcome()
    if doc["outcome"] is None:
        assert outcome is None
    else:
        assert outcome is not None
        assert outcome.to_json() == doc["outcome"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_worked_case_record_is_canonical(path: Path) -> None:
    """The golden files are written exactly as the engine writes records."""
    doc = load(path)
    assert read_record(doc["record"]).to_json() == doc["record"]


CHECKED = [path for path in GOLDEN if load(path)["checks"]]


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.stem)
def test_worked_case_checkpoints(path: Path) -> None:
    doc = load(path)
    record = read_record(doc["record"])
    assert isinstance(record, HandRecord)
    for check in doc["checks"]:
        hand = replace(record, actions=record.actions[: check["after"]]).replay()
        view = hand.view(None)
        where = f"after {check['after']} actions"
        for key in ("value", "last_knocker", "blind_knocks"):
            if key in check:
                assert view[key] == check[key], f"{where}: {key}"
        if "trick_winners" in check:
            winners = [t["winner"] for t in view["tricks"] if t["winner"]]
            assert winners == check["trick_winners"], where
        legal = set(hand.legal_actions())
        if "legal" in check:
            expected = {action_from_json(a) for a in check["legal"]}
            assert legal == expected, where
        for a in check.get("legal_includes", []):
            assert action_from_json(a) in legal, f"{where}: {a}"
        for bad in check.get("illegal", []):
            illegal = action_from_json(bad["action"])
            assert illegal not in legal, f"{where}: {bad}"
            with pytest.raises(IllegalAction) as caught:
                hand.apply(illegal)
            assert caught.value.code == bad["code"], f"{where}: {bad}"
