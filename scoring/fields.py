"""Strict readers for the JSON values of docs/FORMATS.md records.

Each reader takes the value and its path in the document and returns engine
values, or raises RecordError naming the path.  Unknown keys are errors,
never ignored.  The common cases take fast paths: a record is read on every
move of a digital table.
"""

from __future__ import annotations

import reprlib
from dataclasses import replace
from typing import Any, NoReturn

from .actions import FOLD, HOLD, KNOCK, LOOK, MAX_SEATS, PLAY, Action
from .cards import CARD_BY_NAME, CARD_NAMES, Card
from .errors import RecordError
from .rules import PRESETS, RuleSet
from .sheet import SheetLine

SHEET_KEYS = frozenset({"value", "folded", "winner", "penalty"})

# Error messages quote the offending value, shortened: a hostile document may
# put a megabyte of text or lists nested deeper than ``repr`` can go there.
_QUOTE = reprlib.Repr()
_QUOTE.maxstring = _QUOTE.maxother = 60


def quoted(value: Any) -> str:
    """``repr(value)``, at most a line long and a few levels deep."""
    return _QUOTE.repr(value)


def check_keys(
    data: Any, path: str, allowed: frozenset[str], required: frozenset[str]
) -> None:
    """Require an object with only ``allowed`` keys and all ``required``."""
    if type(data) is not dict:
        raise RecordError(path, "expected an object")
    for key in data:
        if key not in allowed:
            raise RecordError(_join(path, str(key)), "unknown key")
    for key in required:
        if key not in data:
            raise RecordError(_join(path, key), "missing")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def rule_set(name: Any, path: str) -> RuleSet:
    """Return the preset called ``name``."""
    if type(name) is not str or name not in PRESETS:
        raise RecordError(path, f"unknown rule set {quoted(name)}")
    return PRESETS[name]


_SEAT_OF = {str(seat): seat for seat in range(1, MAX_SEATS + 1)}


_VARIANTS: dict[tuple[str, int], RuleSet] = {}


def with_start_marks(rules: RuleSet, start: int) -> RuleSet:
    """The preset with another number of start marks (a tournament may play
    with fewer); one instance per variant so that caches keyed by rule set
    identity keep working."""
    if start == rules.start_marks:
        return rules
    key = (rules.name, start)
    if key not in _VARIANTS:
        _VARIANTS[key] = replace(rules, start_marks=start)
    return _VARIANTS[key]


def seat_number(key: Any, path: str, n: int) -> int:
    """Return the seat that object key ``key`` ("1".."n") names.  ``path`` is
    the parent's: the key is appended only on error."""
    seat = _SEAT_OF.get(key) if type(key) is str else None
    if seat is None or seat > n:
        raise RecordError(f"{path}.{key}", f"not a seat of this table (1-{n})")
    return seat


def marks_of(data: Any, path: str, rules: RuleSet) -> dict[int, int]:
    """Return seat -> marks (0 to the rules' start marks), ordered by seat."""
    if type(data) is not dict:
        raise RecordError(path, "expected an object of seat -> marks")
    n = min(len(data), MAX_SEATS)
    top = rules.start_marks
    seat_of = _SEAT_OF.get
    marks: dict[int, int] = {}
    last = 0  # JSON object keys are str; seats usually come in order
    ordered = True
    for key, m in data.items():
        seat = seat_of(key)
        if seat is None or seat > n:
            seat = seat_number(key, path, n)  # raises, naming the key
        if type(m) is not int or not 0 <= m <= top:
            raise RecordError(
                f"{path}.{key}", f"impossible marks {quoted(m)} (0-{top})"
            )
        marks[seat] = m
        ordered = ordered and seat > last
        last = seat
    return marks if ordered else dict(sorted(marks.items()))


def cards_of(data: Any, path: str, n: int) -> dict[int, tuple[Card, ...]]:
    """Return seat -> its 4 cards, ordered by seat (the deal itself is
    checked against the marks by ``setup.check_deal``)."""
    if type(data) is not dict:
        raise RecordError(path, "expected an object of seat -> cards")
    cards: dict[int, tuple[Card, ...]] = {}
    by_name = CARD_BY_NAME
    seat_of = _SEAT_OF.get
    last = 0
    ordered = True
    for key, hand in data.items():
        seat = seat_of(key)
        if seat is None or seat > n:
            seat = seat_number(key, path, n)  # raises, naming the key
        try:
            if type(hand) is not list:
                raise TypeError
            a, b, c, d = hand
            cards[seat] = (by_name[a], by_name[b], by_name[c], by_name[d])
        except (KeyError, TypeError, ValueError):
            _bad_cards(hand, f"{path}.{key}")
        ordered = ordered and seat > last
        last = seat
    return cards if ordered else dict(sorted(cards.items()))


def _bad_cards(hand: Any, path: str) -> NoReturn:
    if type(hand) is not list or len(hand) != 4:
        raise RecordError(path, "expected a list of 4 cards")
    for i, name in enumerate(hand):
        if type(name) is not str or name not in CARD_BY_NAME:
            raise RecordError(f"{path}[{i}]", f"not a card: {quoted(name)}")
    raise RecordError(path, "expected a list of 4 cards")  # not reached


#: Every action by its JSON fields (seat, act, card name or None).
_ACTION_OF: dict[tuple[int, str, str | None], Action] = {
    (a.seat, a.act, None if a.card is None else CARD_NAMES[a.card]): a
    for table in (LOOK, KNOCK, HOLD, FOLD, *PLAY)
    for a in table
}


def actions_of(data: Any, path: str) -> tuple[Action, ...]:
    """Return the (interned) actions of a record's action list."""
    if type(data) is not list:
        raise RecordError(path, "expected a list of actions")
    out = []
    get = _ACTION_OF.get
    for i, item in enumerate(data):
        # One lookup per action: records are read on every web move.  The
        # type check keeps True and 1.0 from passing for seat 1.
        try:
            seat = item["seat"]
            found = (
                get((seat, item["act"], item.get("card")))
                if type(seat) is int
                else None
            )
        except (TypeError, KeyError, AttributeError):
            found = None
        if found is None or len(item) != (2 if found.card is None else 3):
            _action_slow(item, f"{path}[{i}]")
        out.append(found)
    return tuple(out)


def _action_slow(item: Any, path: str) -> NoReturn:
    """Explain why ``item`` is not an action."""
    act = item.get("act") if type(item) is dict else None
    required = frozenset({"seat", "act", "card"} if act == "play" else {"seat", "act"})
    check_keys(item, path, required, required)
    seat = item["seat"]
    if type(seat) is not int or not 1 <= seat <= MAX_SEATS:
        raise RecordError(f"{path}.seat", f"not a seat: {quoted(seat)}")
    if act == "play":
        raise RecordError(f"{path}.card", f"not a card: {quoted(item['card'])}")
    raise RecordError(f"{path}.act", f"unknown act {quoted(act)}")


def sheet_line(data: Any, path: str, n: int) -> SheetLine:
    """Return the sheet line of the object under ``"sheet"``; its rules are
    checked when it is settled, not here."""
    check_keys(data, path, SHEET_KEYS, frozenset({"value", "winner"}))
    value, winner = data["value"], data["winner"]
    if type(value) is not int:
        raise RecordError(f"{path}.value", "expected an integer")
    if type(winner) is not int:
        raise RecordError(f"{path}.winner", "expected a seat number")
    charged: list[dict[int, int]] = []
    for key in ("folded", "penalty"):
        raw = data.get(key, {})
        if type(raw) is not dict:
            raise RecordError(f"{path}.{key}", "expected an object of seat -> marks")
        parsed: dict[int, int] = {}
        for seat_key, paid in raw.items():
            seat = seat_number(seat_key, f"{path}.{key}", n)
            if type(paid) is not int:
                raise RecordError(f"{path}.{key}.{seat_key}", "expected an integer")
            parsed[seat] = paid
        charged.append(parsed)
    return SheetLine(value, winner, charged[0], charged[1])
