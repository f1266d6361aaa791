"""Hand and game records: read strictly, write canonically (docs/FORMATS.md).

``from_json`` rejects unknown keys, bad cards and impossible marks with a
RecordError whose ``path`` points into the document; ``to_json`` writes the
canonical form, so write -> read -> write gives the identical document.
``replay()`` turns a record into a HandState/GameState; an illegal action
raises IllegalAction with ``hand_index``/``action_index`` set, an impossible
sheet line raises SheetError with its 1-based ``line``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from . import fields, jsonio
from .actions import Action
from .cards import CARD_NAMES, Card
from .errors import IllegalAction, RecordError
from .game import GameState
from .hand import HandState
from .rules import CHAMPIONSHIP, RuleSet
from .sheet import SheetLine

HAND_FORMAT = "siebenschraem.hand/1"
GAME_FORMAT = "siebenschraem.game/1"

_HAND_KEYS = frozenset({"format", "rules", "marks", "dealer", "cards", "actions"})
_HAND_REQUIRED = _HAND_KEYS - {"rules"}
_ENTRY_KEYS = frozenset({"cards", "actions"})
_GAME_KEYS = frozenset(
    {"format", "rules", "seats", "start_marks", "first_dealer", "hands"}
)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand played card by card: the start, the deal and the actions."""

    marks: Mapping[int, int]
    dealer: int
    cards: Mapping[int, tuple[Card, ...]]
    actions: tuple[Action, ...] = ()
    rules: RuleSet = CHAMPIONSHIP
    # The validated start of the hand, kept by ``from_json`` (which makes
    # marks and cards read-only) so that ``replay`` need not check it again:
    # a web move reads and replays a record every time.
    # Not an init field, so ``dataclasses.replace`` never carries it over.
    _start: HandState | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, hand: HandState) -> HandRecord:
        """Return the record of ``hand`` so far."""
        return cls(hand.start_marks, hand.dealer, hand.dealt, hand.history, hand.rules)

    @classmethod
    def from_json(cls, data: Any) -> HandRecord:
        """Read a ``siebenschraem.hand/1`` document; raise RecordError."""
        if (
            type(data) is not dict
            or not data.keys() <= _HAND_KEYS
            or not data.keys() >= _HAND_REQUIRED
        ):
            fields.check_keys(data, "", _HAND_KEYS, _HAND_REQUIRED)
        if data["format"] != HAND_FORMAT:
            raise RecordError("format", f"expected {HAND_FORMAT!r}")
        rules = fields.rule_set(data.get("rules", "championship"), "rules")
        marks = fields.marks_of(data["marks"], "marks", rules)
        dealer = data["dealer"]
        cards = fields.cards_of(data["cards"], "cards", len(marks))
        start = HandState.start(marks, dealer, cards, rules)  # impossible deal?
        actions = fields.actions_of(data["actions"], "actions")
        record = cls(
            MappingProxyType(marks), dealer, MappingProxyType(cards), actions, rules
        )
        object.__setattr__(record, "_start", start)
        return record

    @classmethod
    def from_text(cls, text: str) -> HandRecord:
        """Read a hand record from JSON text; raise RecordError."""
        return cls.from_json(jsonio.decode(text))

    def to_text(self) -> str:
        """Return the canonical document as JSON text (``json.dumps`` style)."""
        return jsonio.encode(self.to_json())

    def to_json(self) -> dict[str, Any]:
        """Return the canonical ``siebenschraem.hand/1`` document."""
        return {
            "format": HAND_FORMAT,
            "rules": self.rules.name,
            "marks": {str(s): m for s, m in sorted(self.marks.items())},
            "dealer": self.dealer,
            **_entry_json(self.cards, self.actions),
        }

    def replay(self) -> HandState:
        """Play the actions from the deal; raise IllegalAction with
        ``action_index`` set at the first illegal one."""
        if self._start is not None:
            hand = self._start.clone()
        else:
            hand = HandState.start(self.marks, self.dealer, self.cards, self.rules)
        _apply_all(hand, self.actions, None)
        return hand


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A card-by-card hand inside a game record: marks, dealer and rules
    follow from the game.  ``marks``/``dealer`` are what the document claimed,
    if anything; replay checks them and writing drops them."""

    cards: Mapping[int, tuple[Card, ...]]
    actions: tuple[Action, ...] = ()
    marks: Mapping[int, int] | None = None
    dealer: int | None = None

    @classmethod
    def of(cls, hand: HandState) -> HandEntry:
        return cls(hand.dealt, hand.history)

    def to_json(self) -> dict[str, Any]:
        return _entry_json(self.cards, self.actions)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: the table and its hands in order (played or sheet)."""

    seats: int
    hands: tuple[HandEntry | SheetLine, ...]
    first_dealer: int
    rules: RuleSet = CHAMPIONSHIP

    @classmethod
    def of(cls, game: GameState) -> GameRecord:
        """Return the record of ``game`` so far (with a hand in progress)."""
        hands: list[HandEntry | SheetLine] = [
            h if isinstance(h, SheetLine) else HandEntry.of(h) for h in game.played
        ]
        if game.in_progress and game.hand is not None:
            hands.append(HandEntry.of(game.hand))
        return cls(game.seats, tuple(hands), game.first_dealer, game.rules)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a ``siebenschraem.game/1`` document; raise RecordError."""
        fields.check_keys(
            data, "", _GAME_KEYS, required=frozenset({"format", "seats", "hands"})
        )
        if data["format"] != GAME_FORMAT:
            raise RecordError("format", f"expected {GAME_FORMAT!r}")
        rules = fields.rule_set(data.get("rules", "championship"), "rules")
        seats = data["seats"]
        if (
            type(seats) is not list
            or not rules.min_seats <= len(seats) <= rules.max_seats
            or seats != list(range(1, len(seats) + 1))
        ):
            raise RecordError(
                "seats",
                f"expected [1, ..., n] with n from {rules.min_seats} to "
                f"{rules.max_seats}",
            )
        n = len(seats)
        start = data.get("start_marks", rules.start_marks)
        if type(start) is not int or not 1 <= start <= 99:
            raise RecordError("start_marks", "expected a number of marks, 1-99")
        rules = fields.with_start_marks(rules, start)
        first = data.get("first_dealer", n)
        if type(first) is not int or not 1 <= first <= n:
            raise RecordError("first_dealer", f"expected a seat from 1 to {n}")
        if type(data["hands"]) is not list:
            raise RecordError("hands", "expected a list")
        hands = tuple(
            _game_entry(entry, f"hands[{i}]", rules, n)
            for i, entry in enumerate(data["hands"])
        )
        return cls(n, hands, first, rules)

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read a game record from JSON text; raise RecordError."""
        return cls.from_json(jsonio.decode(text))

    def to_text(self) -> str:
        """Return the canonical document as JSON text (``json.dumps`` style)."""
        return jsonio.encode(self.to_json())

    def to_json(self) -> dict[str, Any]:
        """Return the canonical ``siebenschraem.game/1`` document."""
        return {
            "format": GAME_FORMAT,
            "rules": self.rules.name,
            "seats": list(range(1, self.seats + 1)),
            "start_marks": self.rules.start_marks,
            "first_dealer": self.first_dealer,
            "hands": [entry.to_json() for entry in self.hands],
        }

    def replay(self) -> GameState:
        """Replay every hand in order.  Raises IllegalAction (``hand_index``,
        ``action_index``), SheetError (``line``) or RecordError."""
        game = GameState(self.seats, self.rules, self.first_dealer)
        last = len(self.hands) - 1
        for i, entry in enumerate(self.hands):
            if isinstance(entry, SheetLine):
                game.apply_sheet(entry)
                continue
            if game.finished:
                err = IllegalAction("game_over", "the game is over")
                err.hand_index = i
                raise err
            if entry.marks is not None and dict(entry.marks) != game.marks:
                raise RecordError(f"hands[{i}].marks", f"the game says {game.marks}")
            if entry.dealer is not None and entry.dealer != game.dealer:
                raise RecordError(f"hands[{i}].dealer", f"the game says {game.dealer}")
            try:
                hand = game.start_hand(entry.cards)
            except RecordError as err:
                raise RecordError(f"hands[{i}].{err.path}", err.message) from None
            _apply_all(game, entry.actions, i)
            if not hand.finished and i < last:
                raise RecordError(
                    f"hands[{i}].actions", "the hand is unfinished but not the last"
                )
        return game


def read_record(data: Any) -> HandRecord | GameRecord:
    """Read a hand or game record, by its ``format``."""
    if type(data) is dict and data.get("format") == GAME_FORMAT:
        return GameRecord.from_json(data)
    return HandRecord.from_json(data)


def hand_result_json(hand: HandState) -> dict[str, Any]:
    """The hand outcome (docs/FORMATS.md § Hand outcome); for a hand still in
    progress the same keys with ``winner``/``next_dealer`` None and losses so
    far."""
    outcome = hand.outcome()
    if outcome is not None:
        return outcome.to_json()
    loss = hand.loss_so_far()
    marks = {s: m - loss[s] for s, m in hand.start_marks.items()}
    return {
        "winner": None,
        "value": hand.value,
        "loss": {str(s): v for s, v in loss.items()},
        "marks": {str(s): m for s, m in marks.items()},
        "out": [s for s, m in marks.items() if not m],
        "next_dealer": None,
    }


def game_result_json(game: GameState, detail: bool = False) -> dict[str, Any]:
    """The game outcome (docs/FORMATS.md § Game outcome); for a game still in
    progress the same keys with ``winner`` and ``points`` None and the marks
    so far."""
    outcome = game.outcome()
    if outcome is not None:
        return outcome.to_json(detail)
    data: dict[str, Any] = {
        "winner": None,
        "marks": {str(s): m for s, m in game.marks.items()},
        "points": None,
        "hands": len(game.detail),
    }
    if detail:
        data["detail"] = [h.to_json() for h in game.detail]
    return data


# -- reading helpers ----------------------------------------------------------


def _apply_all(
    target: HandState | GameState, actions: tuple[Action, ...], hand_index: int | None
) -> None:
    apply = target.apply
    for j, action in enumerate(actions):
        try:
            apply(action)
        except IllegalAction as err:
            err.hand_index = hand_index
            err.action_index = j
            raise


def _entry_json(
    cards: Mapping[int, tuple[Card, ...]], actions: tuple[Action, ...]
) -> dict[str, Any]:
    return {
        "cards": {
            str(s): [CARD_NAMES[c] for c in hand] for s, hand in sorted(cards.items())
        },
        "actions": [a.to_json() for a in actions],
    }


def _game_entry(data: Any, path: str, rules: RuleSet, n: int) -> HandEntry | SheetLine:
    if type(data) is dict and "sheet" in data:
        fields.check_keys(data, path, frozenset({"sheet"}), frozenset({"sheet"}))
        return fields.sheet_line(data["sheet"], f"{path}.sheet", n)
    allowed = _ENTRY_KEYS | {"format", "rules", "marks", "dealer"}
    fields.check_keys(data, path, allowed, _ENTRY_KEYS)
    if "format" in data and data["format"] != HAND_FORMAT:
        raise RecordError(f"{path}.format", f"expected {HAND_FORMAT!r}")
    if (
        "rules" in data
        and fields.rule_set(data["rules"], f"{path}.rules").name != rules.name
    ):
        raise RecordError(f"{path}.rules", f"the game is played by {rules.name}")
    marks = None
    if "marks" in data:
        marks = fields.marks_of(data["marks"], f"{path}.marks", rules)
        if len(marks) != n:
            raise RecordError(f"{path}.marks", f"expected all {n} seats")
    dealer = data.get("dealer")
    if dealer is not None and (type(dealer) is not int or not 1 <= dealer <= n):
        raise RecordError(f"{path}.dealer", f"expected a seat from 1 to {n}")
    cards = fields.cards_of(data["cards"], f"{path}.cards", n)
    return HandEntry(
        cards, fields.actions_of(data["actions"], f"{path}.actions"), marks, dealer
    )
