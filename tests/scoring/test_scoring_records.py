"""Reading and writing records (docs/FORMATS.md): strict, canonical, replayable."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from scoring_testkit import acts, deal

from scoring import (
    GameRecord,
    GameState,
    HandRecord,
    IllegalAction,
    RecordError,
    SheetError,
    SheetLine,
    read_record,
)
from scoring.records import game_result_json, hand_result_json

FORMATS_HAND: dict[str, Any] = {
    "format": "siebenschraem.hand/1",
    "rules": "championship",
    "marks": {"1": 7, "2": 7, "3": 7, "4": 7},
    "dealer": 4,
    "cards": {
        "1": ["10H", "9H", "AS", "JC"],
        "2": ["8H", "7S", "KD", "QC"],
        "3": ["10C", "9D", "7D", "KS"],
        "4": ["AH", "8S", "JD", "10S"],
    },
    "actions": [
        {"seat": 2, "act": "knock"},
        {"seat": 3, "act": "hold"},
        {"seat": 4, "act": "fold"},
        {"seat": 1, "act": "hold"},
        {"seat": 1, "act": "play", "card": "10H"},
    ],
}


def hand_doc(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(FORMATS_HAND)
    doc.update(changes)
    return doc


def game_doc(hands: list[Any] | None = None, **changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "siebenschraem.game/1",
        "rules": "championship",
        "seats": [1, 2, 3, 4],
        "start_marks": 7,
        "first_dealer": 4,
        "hands": hands or [],
    }
    doc.update(changes)
    return doc


def test_formats_example_hand_reads_and_writes_back_identically() -> None:
    record = HandRecord.from_json(FORMATS_HAND)
    assert record.to_json() == FORMATS_HAND
    assert json.dumps(HandRecord.from_json(record.to_json()).to_json()) == json.dumps(
        FORMATS_HAND
    )


def test_rules_may_be_omitted_and_are_written() -> None:
    doc = hand_doc()
    del doc["rules"]
    assert HandRecord.from_json(doc).to_json() == FORMATS_HAND


def test_hand_in_progress_replays_with_partial_result() -> None:
    hand = HandRecord.from_json(FORMATS_HAND).replay()
    assert not hand.finished
    assert hand_result_json(hand) == {
        "winner": None,
        "value": 2,
        "loss": {"1": 0, "2": 0, "3": 0, "4": 1},
        "marks": {"1": 7, "2": 7, "3": 7, "4": 6},
        "out": [],
        "next_dealer": None,
    }


def test_record_of_a_played_hand_round_trips() -> None:
    hand = deal(script="1 knock; 2 fold; 3 fold; 4 fold")
    doc = HandRecord.of(hand).to_json()
    again = HandRecord.from_json(json.loads(json.dumps(doc)))
    assert again.to_json() == doc
    assert again.replay().outcome() == hand.outcome()


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"colour": "red"}, "colour"),
        ({"format": "siebenschraem.hand/2"}, "format"),
        ({"rules": "skat"}, "rules"),
        ({"marks": {"1": 7, "2": 8, "3": 7, "4": 7}}, "marks.2"),
        ({"marks": {"1": 7, "2": -1, "3": 7, "4": 7}}, "marks.2"),
        ({"marks": {"1": 7, "2": True, "3": 7, "4": 7}}, "marks.2"),
        ({"marks": {"1": 7, "2": "7", "3": 7, "4": 7}}, "marks.2"),
        ({"marks": {"1": 7, "2": 7, "3": 7, "5": 7}}, "marks.5"),
        ({"marks": {"1": 7, "2": 0, "3": 0, "4": 0}}, "marks"),
        ({"marks": {"1": 7, "2": 7, "3": 7, "4": 7, "5": 7}}, "marks"),
        ({"dealer": 5}, "dealer"),
        ({"marks": {"1": 7, "2": 7, "3": 7, "4": 0}, "dealer": 3}, "cards.4"),
        ({"cards": {"1": ["10H", "9H", "AS", "JC"]}}, "cards.2"),
        ({"actions": {"seat": 1}}, "actions"),
    ],
)
def test_strict_hand_record(changes: dict[str, Any], path: str) -> None:
    with pytest.raises(RecordError) as caught:
        HandRecord.from_json(hand_doc(**changes))
    assert caught.value.path == path


@pytest.mark.parametrize(
    ("seat", "cards", "path"),
    [
        ("2", ["8H", "7S", "KD", "11C"], "cards.2[3]"),
        ("2", ["8H", "7S", "KD", "qc"], "cards.2[3]"),
        ("2", ["8H", "7S", "KD"], "cards.2"),
        ("2", ["8H", "7S", "KD", "10H"], "cards.2[3]"),
        ("2", ["8H", "7S", "KD", "8H"], "cards.2[3]"),
        ("2", ["8H", "7S", "KD", ["QC"]], "cards.2[3]"),
    ],
)
def test_bad_cards_are_errors(seat: str, cards: list[Any], path: str) -> None:
    doc = hand_doc()
    doc["cards"][seat] = cards
    with pytest.raises(RecordError) as caught:
        HandRecord.from_json(doc)
    assert caught.value.path == path


@pytest.mark.parametrize(
    ("action", "path"),
    [
        ({"seat": 1, "act": "knock", "loud": True}, "actions[2].loud"),
        ({"seat": 1, "act": "dance"}, "actions[2].act"),
        ({"seat": 1, "act": "play"}, "actions[2].card"),
        ({"seat": 1, "act": "play", "card": "1H"}, "actions[2].card"),
        ({"seat": 1, "act": "hold", "card": "10H"}, "actions[2].card"),
        ({"seat": "1", "act": "hold"}, "actions[2].seat"),
        ({"seat": 9, "act": "hold"}, "actions[2].seat"),
        ({"act": "hold"}, "actions[2].seat"),
        (["1", "hold"], "actions[2]"),
    ],
)
def test_bad_actions_are_errors(action: Any, path: str) -> None:
    doc = hand_doc()
    doc["actions"][2] = action
    with pytest.raises(RecordError) as caught:
        HandRecord.from_json(doc)
    assert caught.value.path == path


def test_illegal_action_is_located_and_names_the_rule() -> None:
    doc = hand_doc()
    doc["actions"].append({"seat": 2, "act": "knock"})
    with pytest.raises(IllegalAction) as caught:
        HandRecord.from_json(doc).replay()
    err = caught.value
    assert err.code == "knock_twice_in_a_row"
    assert (err.hand_index, err.action_index) == (None, 5)
    assert "actions[5]" in str(err) and "docs/RULES.md §4.2" in str(err)


SHEET = {
    "sheet": {"value": 3, "folded": {"2": 1, "4": 2}, "winner": 1, "penalty": {"3": 1}}
}


def test_game_record_mixes_sheet_lines_and_hands_and_round_trips() -> None:
    played = {
        "cards": {k: v for k, v in FORMATS_HAND["cards"].items()},
        "actions": [
            {"seat": 1, "act": "knock"},
            {"seat": 2, "act": "fold"},
            {"seat": 3, "act": "fold"},
            {"seat": 4, "act": "fold"},
        ],
    }
    doc = game_doc([SHEET, played])
    record = GameRecord.from_json(doc)
    assert record.to_json() == doc
    assert GameRecord.from_json(record.to_json()).to_json() == doc
    game = record.replay()
    assert game.marks == {1: 7, 2: 5, 3: 5, 4: 4}
    assert game_result_json(game) == {
        "winner": None,
        "marks": {"1": 7, "2": 5, "3": 5, "4": 4},
        "points": None,
        "hands": 2,
    }


def test_game_record_hand_may_repeat_what_the_game_implies() -> None:
    hand = {**FORMATS_HAND, "actions": []}
    doc = game_doc([hand])
    GameRecord.from_json(doc).replay()  # format, rules, marks, dealer agree
    wrong = game_doc([{**hand, "dealer": 2}])
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(wrong).replay()
    assert caught.value.path == "hands[0].dealer"
    wrong = game_doc([{**hand, "marks": {"1": 7, "2": 7, "3": 7, "4": 6}}])
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(wrong).replay()
    assert caught.value.path == "hands[0].marks"


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"seats": [1, 2, 3, 4, 5]}, "seats"),
        ({"seats": [1, 2, 4]}, "seats"),
        ({"start_marks": 0}, "start_marks"),
        ({"start_marks": "7"}, "start_marks"),
        ({"first_dealer": 0}, "first_dealer"),
        ({"referee": "x"}, "referee"),
        (
            {"hands": [{"sheet": {"value": 2, "winner": 1, "note": "x"}}]},
            "hands[0].sheet.note",
        ),
        ({"hands": [{"sheet": {"value": 2, "winner": 1}, "x": 1}]}, "hands[0].x"),
        (
            {"hands": [{"sheet": {"value": 2, "winner": 1, "folded": {"7": 1}}}]},
            "hands[0].sheet.folded.7",
        ),
        ({"hands": [{"cards": {}}]}, "hands[0].actions"),
    ],
)
def test_strict_game_record(changes: dict[str, Any], path: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(game_doc(**changes))
    assert caught.value.path == path


def test_game_record_errors_name_hand_and_action() -> None:
    bad_hand = {"cards": FORMATS_HAND["cards"], "actions": [{"seat": 2, "act": "hold"}]}
    with pytest.raises(IllegalAction) as caught:
        GameRecord.from_json(game_doc([SHEET, bad_hand])).replay()
    err = caught.value
    assert (err.hand_index, err.action_index, err.code) == (1, 0, "no_knock_to_answer")
    assert "hands[1].actions[0]" in str(err)
    bad_sheet = {"sheet": {"value": 3, "folded": {"2": 3}, "winner": 1}}
    with pytest.raises(SheetError) as caught_sheet:
        GameRecord.from_json(game_doc([SHEET, bad_sheet])).replay()
    assert (
        caught_sheet.value.line == 2 and caught_sheet.value.code == "sheet_fold_range"
    )


def test_only_the_last_hand_of_a_game_record_may_be_unfinished() -> None:
    unfinished = {"cards": FORMATS_HAND["cards"], "actions": []}
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(game_doc([unfinished, SHEET])).replay()
    assert caught.value.path == "hands[0].actions"


def test_no_hand_after_the_game_is_over() -> None:
    over = {"sheet": {"value": 7, "folded": {}, "winner": 1}}
    with pytest.raises(SheetError) as caught:
        GameRecord.from_json(game_doc([over, SHEET])).replay()
    assert caught.value.code == "game_over" and caught.value.line == 2
    played = {
        "cards": {"1": ["10H", "9H", "AS", "JC"], "2": ["8H", "7S", "KD", "QC"]},
        "actions": [],
    }
    with pytest.raises(IllegalAction) as caught_hand:
        GameRecord.from_json(game_doc([over, played])).replay()
    assert caught_hand.value.code == "game_over" and caught_hand.value.hand_index == 1


def test_game_outcome_json_matches_formats() -> None:
    over = {"sheet": {"value": 7, "folded": {}, "winner": 3}}
    game = GameRecord.from_json(game_doc([SHEET, over])).replay()
    assert game_result_json(game) == {
        "winner": 3,
        "marks": {"1": 0, "2": 0, "3": 6, "4": 0},
        "points": {"1": 0, "2": 0, "3": 13, "4": 0},
        "hands": 2,
    }
    detail = game_result_json(game, detail=True)["detail"]
    assert [d["winner"] for d in detail] == [1, 3]


def test_game_record_may_start_with_fewer_marks() -> None:
    over = {"sheet": {"value": 5, "folded": {}, "winner": 2}}
    game = GameRecord.from_json(game_doc([over], start_marks=5)).replay()
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.marks == {1: 0, 2: 5, 3: 0, 4: 0}
    assert outcome.points[2] == 12
    doc = GameRecord.of(game).to_json()
    assert doc["start_marks"] == 5 and GameRecord.from_json(doc).to_json() == doc


def test_game_state_writes_its_record() -> None:
    game = GameState(seats=3)
    game.apply_sheet(SheetLine(value=2, winner=1))
    hand = game.start_hand(
        {1: [0, 1, 2, 3], 2: [8, 9, 10, 11], 3: [16, 17, 18, 19]}  # type: ignore[list-item]
    )
    for a in acts("1 knock; 2 fold; 3 hold"):
        game.apply(a)
    assert not hand.finished
    doc = GameRecord.of(game).to_json()
    assert GameRecord.from_json(doc).to_json() == doc
    assert GameRecord.from_json(doc).replay().marks == game.marks


def test_read_record_dispatches_on_format() -> None:
    assert isinstance(read_record(FORMATS_HAND), HandRecord)
    assert isinstance(read_record(game_doc()), GameRecord)
    with pytest.raises(RecordError):
        read_record({"format": "other"})
    with pytest.raises(RecordError):
        read_record([1, 2])


def test_text_round_trip_matches_json_dumps() -> None:
    record = HandRecord.from_text(json.dumps(FORMATS_HAND))
    assert record.to_text() == json.dumps(FORMATS_HAND)
    game = GameRecord.from_text(" " + json.dumps(game_doc([SHEET])) + "\n")
    assert game.to_text() == json.dumps(game_doc([SHEET]))


@pytest.mark.parametrize("text", ["", "{", '{"a": 1} x', "[1, 2", "nul"])
def test_text_that_is_not_json_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        HandRecord.from_text(text)


def test_view_json_is_json_dumps_of_the_view() -> None:
    hand = HandRecord.from_json(FORMATS_HAND).replay()
    for seat in (None, 1, 2, 3, 4):
        assert hand.view_json(seat) == json.dumps(hand.view(seat))
    game = GameState()
    game.apply_sheet(SheetLine(value=2, winner=1))
    assert game.view_json(3) == json.dumps(game.view(3))
