"""Actions a seat can take in a hand, and interned tables of them.

``Action`` is a frozen value; any equal instance is accepted by
``HandState.apply``.  The engine hands out interned instances from the tables
below so that listing legal actions allocates no new objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .cards import Card, card_str, parse_card

Act = Literal["look", "knock", "hold", "fold", "play"]
ACTS: tuple[Act, ...] = ("look", "knock", "hold", "fold", "play")

#: Seat numbers the tables cover (Schröm allows 8 players).
MAX_SEATS = 8


@dataclass(frozen=True, slots=True)
class Action:
    """One action: ``seat`` (1-based) does ``act``; ``card`` only for "play"."""

    seat: int
    act: Act
    card: Card | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the action as in docs/FORMATS.md § Hand record (``{"seat": 1,
        "act": "play", "card": "10H"}``)."""
        if self.card is None:
            return {"seat": self.seat, "act": self.act}
        return {"seat": self.seat, "act": self.act, "card": card_str(self.card)}

    def __str__(self) -> str:
        if self.card is None:
            return f"seat {self.seat} {self.act}"
        return f"seat {self.seat} {self.act} {card_str(self.card)}"


def _table(act: Act) -> tuple[Action, ...]:
    # Index 0 is seat 1: the engine works with 0-based seat indices inside.
    return tuple(Action(i + 1, act) for i in range(MAX_SEATS))


LOOK = _table("look")
KNOCK = _table("knock")
HOLD = _table("hold")
FOLD = _table("fold")
#: PLAY[seat_index][card]
PLAY: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(i + 1, "play", Card(c)) for c in range(32)) for i in range(MAX_SEATS)
)


def _byte_table(seat: int, suit: int) -> tuple[tuple[Action, ...], ...]:
    plays = PLAY[seat]
    return tuple(
        tuple(plays[suit * 8 + r] for r in range(8) if byte >> r & 1)
        for byte in range(256)
    )


#: PLAYS_BY_BYTE[seat_index][suit][mask byte of that suit] -> the play actions;
#: turns a seat's card mask into its play actions with one lookup per suit.
PLAYS_BY_BYTE: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(_byte_table(i, s) for s in range(4)) for i in range(MAX_SEATS)
)

_SIMPLE = {"look": LOOK, "knock": KNOCK, "hold": HOLD, "fold": FOLD}


def action(seat: int, act: str, card: Card | None = None) -> Action:
    """Return the interned action; raise ValueError for an unknown act/seat.

    "play" needs a card and the other acts must not have one.
    """
    if act == "play":
        if card is None:
            raise ValueError("a play needs a card")
        if 1 <= seat <= MAX_SEATS and 0 <= card < 32:
            return PLAY[seat - 1][card]
        raise ValueError(f"no such play: seat {seat}, card {card}")
    table = _SIMPLE.get(act)
    if table is None:
        raise ValueError(f"unknown act {act!r} (expected one of {', '.join(ACTS)})")
    if card is not None:
        raise ValueError(f"only a play carries a card, not {act!r}")
    if not 1 <= seat <= MAX_SEATS:
        raise ValueError(f"no such seat: {seat}")
    return table[seat - 1]


def action_from_json(data: dict[str, Any]) -> Action:
    """Build an action from its JSON form (``{"seat": 1, "act": "play",
    "card": "10H"}``); raise ValueError, KeyError or TypeError if it is not one.

    Lenient, for trusted documents: the golden tests read their expected
    actions with it.  Records are read strictly by ``scoring.records``.
    """
    card = data.get("card")
    return action(
        int(data["seat"]), data["act"], None if card is None else parse_card(card)
    )
