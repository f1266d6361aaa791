"""What one seat may see of a hand (STYLE.md item 4).

``hand_view`` is the only place hidden information is turned into something
a player gets.  It reads the hand's private fields; nothing else outside
``hand.py`` does.  Keys of the returned dict:

- ``seat``: the viewer (None: a spectator); ``rules``; ``dealer``; ``forehand``
- ``marks``: every seat's marks at the start of the hand
- ``value``, ``last_knocker`` (None before the first knock), ``blind_knocks``
- ``looked``: seats that have looked at their cards (looking is public)
- ``in_hand``: seats still in; ``folded``: seat -> marks paid on folding
- ``cards``: the viewer's own unplayed cards once it has looked, else None
- ``card_counts``: unplayed (or dead, face-down) cards per seat in the game
- ``tricks``: ``{"leader", "cards": [{"seat", "card"}], "winner"}`` in order;
  the trick in progress comes last with ``winner`` None
- ``knocks``: ``{"seat", "value", "blind", "answers": {seat: "hold"|"fold"}}``
- ``to_move``: ``{"seat", "act"}`` with act "knock" (the hammer), "answer" or
  "play", or None when the hand is over
- ``legal``: the viewer's legal actions (``{"act"}`` or ``{"act", "card"}``);
  ``due``: whether the hand is waiting for the viewer
- ``outcome``: the hand outcome of FORMATS.md once the hand is over, else None
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARD_NAMES

if TYPE_CHECKING:
    from .hand import HandState

_SEAT_KEYS = tuple(str(s) for s in range(1, 10))


def _trick_json(seats: tuple[int, ...], cards: tuple[int, ...], winner: int) -> Any:
    return {
        "leader": seats[0] + 1,
        "cards": [
            {"seat": seat + 1, "card": CARD_NAMES[card]}
            for seat, card in zip(seats, cards, strict=True)
        ],
        "winner": winner + 1 if winner >= 0 else None,
    }


def hand_view(hand: HandState, seat: int | None) -> dict[str, Any]:
    """Return ``seat``'s view of ``hand`` (see the module docstring)."""
    n = hand._n
    if seat is not None and not 1 <= seat <= n:
        raise ValueError(f"no seat {seat} at this table")
    me = -1 if seat is None else seat - 1
    keys = _SEAT_KEYS
    marks = hand._marks
    in_hand = hand._in_hand
    looked = hand._looked
    loss = hand._loss

    tricks = [_trick_json(*trick) for trick in hand._tricks]
    if hand._trick_seats:
        tricks.append(_trick_json(hand._trick_seats, hand._trick_cards, -1))

    knocks: list[dict[str, Any]] = []
    answers: dict[str, str] = {}
    seen = 0
    value = 1
    for action in hand._history:
        act = action.act
        if act == "knock":
            value += 1
            answers = {}
            knocks.append(
                {
                    "seat": action.seat,
                    "value": value,
                    "blind": not seen >> (action.seat - 1) & 1,
                    "answers": answers,
                }
            )
        elif act == "hold" or act == "fold":
            answers[keys[action.seat - 1]] = act
        else:
            seen |= 1 << (action.seat - 1)

    legal: list[dict[str, Any]] = []
    if me >= 0:
        for a in hand.legal_actions(seat):
            if a.card is None:
                legal.append({"act": a.act})
            else:
                legal.append({"act": a.act, "card": CARD_NAMES[a.card]})
    to_move = hand.to_move()
    cards = None
    if me >= 0 and looked >> me & 1:
        mask = hand._hands[me]
        cards = [CARD_NAMES[c] for c in range(32) if mask >> c & 1]
    outcome = hand.outcome()
    last = hand._last_knocker
    return {
        "seat": seat,
        "rules": hand._rules.name,
        "dealer": hand._dealer + 1,
        "forehand": hand._forehand + 1,
        "marks": {keys[s]: marks[s] for s in range(n)},
        "value": hand._value,
        "last_knocker": last + 1 if last >= 0 else None,
        "blind_knocks": hand._blind_knocks,
        "looked": [s + 1 for s in range(n) if looked >> s & 1],
        "in_hand": [s + 1 for s in range(n) if in_hand >> s & 1],
        "folded": {
            keys[s]: loss[s] for s in range(n) if marks[s] and not in_hand >> s & 1
        },
        "cards": cards,
        "card_counts": {
            keys[s]: hand._hands[s].bit_count() for s in range(n) if marks[s]
        },
        "tricks": tricks,
        "knocks": knocks,
        "to_move": None if to_move is None else {"seat": to_move[0], "act": to_move[1]},
        "legal": legal,
        "due": to_move is not None and to_move[0] == seat,
        "outcome": None if outcome is None else outcome.to_json(),
    }
