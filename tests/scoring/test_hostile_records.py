"""Hostile records (issue 9): random and adversarial JSON thrown at the
record readers. Only the engine's own errors (RecordError, IllegalAction,
SheetError: ValueErrors with a path, code or line) may come out; never a
TypeError, KeyError, IndexError, RecursionError or anything else."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring import GameRecord, GameState, HandRecord, read_record
from scoring.bots import make_bots
from scoring.errors import IllegalAction, RecordError, SheetError
from scoring.records import GAME_FORMAT, HAND_FORMAT
from scoring.simulate import play_game
from tests.support.hostile import examples

CLEAN = (RecordError, IllegalAction, SheetError)

HOSTILE = settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

HAND: dict[str, Any] = {
    "format": HAND_FORMAT,
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


def _played_game() -> dict[str, Any]:
    """A whole bot game's record, card by card."""
    game = GameState(4)
    play_game(game, make_bots(["greedy"], 4, 7), Random(7))
    return GameRecord.of(game).to_json()


GAME = _played_game()
# A whole game from a paper score sheet: (value, winner, folded seats: paid).
SHEET_GAME: dict[str, Any] = {
    "format": GAME_FORMAT,
    "rules": "championship",
    "seats": [1, 2, 3, 4],
    "start_marks": 7,
    "first_dealer": 4,
    "hands": [
        {"sheet": {"value": v, "winner": w, "folded": {str(s): 1 for s in f}}}
        for v, w, f in [
            (2, 1, (2, 3, 4)),
            (6, 3, (1, 2)),
            (2, 3, (1, 2)),
            (2, 3, (1, 2)),
            (2, 2, (1, 3)),
            (2, 1, (2, 3)),
            (2, 3, (1, 2)),
            (3, 2, (1,)),
            (2, 3, (1, 2)),
        ]
    ],
}


def _nested(depth: int) -> Any:
    """A list in a list in … (deeper than any repr or recursion allows)."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


DEEP = _nested(50_000)

# Values a hostile document puts where a seat, a card or a list belongs.
ODD_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, -1, 2**31, 2**63, -(2**63) - 1, 10**100, -(10**400)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(
        [
            "",
            "1",
            "1.0",
            "²",
            "١",
            "\x00",
            "10H\x00",
            "10h",
            "10H ",
            "\u202e10H",
            "ＡＳ",
            "play",
            "knock",
            HAND_FORMAT,
            GAME_FORMAT,
            "championship",
            "__proto__",
            "constructor",
            "<script>alert(1)</script>",
            "'; DROP TABLE x; --",
        ]
    ),
)
JSON = st.recursive(
    ODD_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(
            st.one_of(st.text(max_size=8), st.sampled_from(["1", "2", "4", "9"])),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=20,
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (the root too)."""
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            out += _paths(value, (*prefix, index))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    """A valid document with a few places replaced, removed or added to."""
    doc: Any = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        how = draw(st.sampled_from(["replace", "delete", "add", "grow"]))
        value = draw(JSON)
        if not path:
            doc = value if how == "replace" else doc
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if how == "replace":
            parent[last] = value
        elif how == "delete":
            del parent[last]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = value
        elif how == "add":
            parent.insert(last, value)
        elif isinstance(parent[last], list):
            parent[last] = parent[last] * draw(st.integers(2, 4))
    return doc


def _read_and_replay(reader: Callable[[Any], Any], value: Any) -> None:
    """Read with one reader and replay what it read; only the engine's own
    errors may stop either."""
    try:
        record = reader(value)
    except CLEAN:
        return
    with contextlib.suppress(CLEAN):
        record.replay()


def _read(data: Any) -> None:
    """Read the document as every reader would, and replay it."""
    for reader in (read_record, HandRecord.from_json, GameRecord.from_json):
        _read_and_replay(reader, data)


def _dumps(data: Any) -> str:
    """The document as text; a structure too deep for json.dumps becomes the
    same depth of brackets."""
    try:
        return json.dumps(data)
    except RecursionError:
        return "[" * 50_000 + "]" * 50_000


def _read_text(text: Any) -> None:
    for reader in (HandRecord.from_text, GameRecord.from_text):
        _read_and_replay(reader, text)


def test_the_base_documents_are_valid() -> None:
    assert HandRecord.from_json(HAND).to_json() == HAND
    assert GameRecord.from_json(GAME).replay().outcome() is not None
    assert GameRecord.from_json(SHEET_GAME).replay().outcome() is not None


@HOSTILE
@given(JSON)
@example([])
@example({"format": GAME_FORMAT})
@example({"format": HAND_FORMAT})
@example({"format": GAME_FORMAT, "seats": [1, 2, 3], "hands": {}})
@example({"format": GAME_FORMAT, "seats": [1, 2, 3], "hands": [[]]})
@example({"format": GAME_FORMAT, "seats": True, "hands": []})
@example({"format": GAME_FORMAT, "seats": [True, 2, 3], "hands": []})
@example({"format": GAME_FORMAT, "seats": [1.0, 2.0, 3.0], "hands": []})
@example({"format": GAME_FORMAT, "seats": list(range(1, 10**4)), "hands": []})
@example({1: 2})
@example({"format": ["x"]})
def test_random_json_is_read_cleanly(data: Any) -> None:
    _read(data)


@HOSTILE
@given(mutated(HAND))
@example({**HAND, "dealer": 10**100})
@example({**HAND, "dealer": True})
@example({**HAND, "dealer": "4"})
@example({**HAND, "dealer": None})
@example({**HAND, "dealer": []})
@example({**HAND, "dealer": {"seat": 4}})
@example({**HAND, "dealer": -1})
@example({**HAND, "marks": {"1": 7, "2": 7, "3": 7, "4": 7, "+5": 7}})
@example({**HAND, "marks": {"01": 7, "2": 7, "3": 7, "4": 7}})
@example({**HAND, "marks": {" 1": 7, "2": 7, "3": 7, "4": 7}})
@example({**HAND, "marks": {"１": 7, "2": 7, "3": 7, "4": 7}})
@example({**HAND, "marks": {}, "cards": {}})
@example({**HAND, "actions": [{"seat": 2, "act": "play", "card": ["10H"]}]})
@example({**HAND, "actions": [{"seat": 2, "act": {"x": 1}}]})
@example({**HAND, "actions": [{"seat": [2], "act": "knock"}]})
@example({**HAND, "actions": [{"seat": 2**70, "act": "knock"}]})
@example({**HAND, "actions": [{"seat": 2, "act": "knock", "card": None}]})
@example({**HAND, "actions": [[2, "knock"]]})
@example({**HAND, "actions": ["knock"]})
@example({**HAND, "actions": [None]})
@example({**HAND, "rules": ["championship"]})
@example({**HAND, "rules": {"name": "championship"}})
def test_mutated_hand_records_are_read_cleanly(data: Any) -> None:
    _read(data)
    _read_text(_dumps(data))


@HOSTILE
@given(mutated(GAME))
@example({**GAME, "start_marks": 10**100})
@example({**GAME, "start_marks": True})
@example({**GAME, "first_dealer": 2**64})
@example({**GAME, "hands": [{"sheet": {"value": 10**100, "winner": 1}}]})
@example({**GAME, "hands": [{"sheet": {"value": 2, "winner": 10**100}}]})
@example({**GAME, "hands": [{"sheet": {"value": -(10**100), "winner": 1}}]})
@example({**GAME, "hands": [{"sheet": {"value": 2, "winner": 1, "folded": []}}]})
@example(
    {**GAME, "hands": [{"sheet": {"value": 2, "winner": 1, "folded": {"2": 10**99}}}]}
)
@example(
    {**GAME, "hands": [{"sheet": {"value": 2, "winner": 1, "penalty": {"2": -5}}}]}
)
@example({**GAME, "hands": [{"sheet": {"value": 3, "winner": 1, "folded": {"1": 1}}}]})
@example({**GAME, "hands": [{"sheet": None}]})
@example({**GAME, "hands": [{"sheet": {"value": 2, "winner": 1}, "cards": {}}]})
@example({**GAME, "hands": [{"cards": {}, "actions": [], "marks": 7}]})
@example({**GAME, "hands": [{"cards": {}, "actions": [], "dealer": 1.0}]})
@example({**GAME, "hands": [{"cards": {}, "actions": [], "format": None}]})
@example({**GAME, "hands": [{"cards": {}, "actions": [], "rules": "schroem"}]})
@example({**GAME, "hands": [{"sheet": {"value": 1, "winner": 1}}] * 200})
def test_mutated_game_records_are_read_cleanly(data: Any) -> None:
    _read(data)
    _read_text(_dumps(data))


@HOSTILE
@given(mutated(SHEET_GAME))
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 7, "winner": 1}}] * 3})
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 2, "winner": 1}}] * 100})
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 2, "winner": 0}}]})
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 2, "winner": -1}}]})
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 2, "winner": 2**64}}]})
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 2**64, "winner": 1}}]})
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 0, "winner": 1}}]})
@example(
    {
        **SHEET_GAME,
        "hands": [{"sheet": {"value": 3, "winner": 1, "folded": {"2": 2**64}}}],
    }
)
@example(
    {
        **SHEET_GAME,
        "hands": [{"sheet": {"value": 3, "winner": 1, "penalty": {"2": 2**64}}}],
    }
)
@example(
    {
        **SHEET_GAME,
        "hands": [{"sheet": {"value": 3, "winner": 1, "penalty": {"1": 1}}}],
    }
)
@example({**SHEET_GAME, "hands": [{"sheet": {"value": 3, "winner": 1, "x": 1}}]})
def test_mutated_sheet_games_are_read_cleanly(data: Any) -> None:
    _read(data)
    _read_text(_dumps(data))


@HOSTILE
@given(
    st.one_of(
        st.text(max_size=200),
        st.binary(max_size=200),
        st.builds(json.dumps, JSON),
        st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "[1,]", "{'a': 1}"]),
    )
)
@example('"\ud800"')
@example("\x00")
@example("")
@example("   ")
@example(json.dumps(HAND) + " x")
@example(json.dumps(HAND).encode())
@example(None)
@example(7)
def test_record_text_is_read_cleanly(text: Any) -> None:
    _read_text(text)


# Nesting deeper than the interpreter's recursion limit: as data (a digital
# table's move decoded elsewhere) and as text. Plain parameters, not
# hypothesis examples: hypothesis cannot print such a value.
DEEP_DATA = {
    "root": lambda: DEEP,
    "format": lambda: {"format": DEEP},
    "game rules": lambda: {**GAME, "rules": DEEP},
    "game seats": lambda: {**GAME, "seats": DEEP},
    "game hands": lambda: {**GAME, "hands": DEEP},
    "hand rules": lambda: {**HAND, "rules": DEEP},
    "marks": lambda: {**HAND, "marks": {"1": DEEP, "2": 7, "3": 7, "4": 7}},
    "card": lambda: {**HAND, "cards": {**HAND["cards"], "2": ["8H", "7S", DEEP]}},
    "seat": lambda: {**HAND, "actions": [{"seat": DEEP, "act": "knock"}]},
    "act": lambda: {**HAND, "actions": [{"seat": 2, "act": DEEP}]},
    "played card": lambda: {
        **HAND,
        "actions": [{"seat": 2, "act": "play", "card": DEEP}],
    },
    "sheet winner": lambda: {
        **SHEET_GAME,
        "hands": [{"sheet": {"value": 3, "winner": DEEP}}],
    },
    "sheet fold": lambda: {
        **SHEET_GAME,
        "hands": [{"sheet": {"value": 3, "winner": 1, "folded": {"2": DEEP}}}],
    },
}
DEEP_TEXT = {
    "array": "[" * 100_000 + "]" * 100_000,
    "object": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "unclosed": "[" * 100_000,
    "rules": '{"format": "siebenschraem.hand/1", "rules": '
    + "[" * 990
    + "]" * 990
    + "}",
}


@pytest.mark.parametrize("name", DEEP_DATA)
def test_deeply_nested_data_is_read_cleanly(name: str) -> None:
    _read(DEEP_DATA[name]())


@pytest.mark.parametrize("name", DEEP_TEXT)
def test_deeply_nested_text_is_read_cleanly(name: str) -> None:
    _read_text(DEEP_TEXT[name])
