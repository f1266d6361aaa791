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
- ``tricks``: ``{"seats": [...], "cards": [...], "winner"}`` in play order
  (the first seat led); the trick in progress comes last with ``winner`` None
- ``knocks``: ``{"seat", "value", "blind", "answers": {seat: "hold"|"fold"}}``
- ``to_move``: ``{"seat", "act"}`` with act "knock" (the hammer), "answer" or
  "play", or None when the hand is over
- ``legal``: the viewer's legal actions: ``{"acts": [...], "cards": [...]}``,
  the acts other than "play" and the cards it may play
- ``due``: whether the hand is waiting for the viewer (if not, any legal act
  is an interrupt: a knock or a look)
- ``outcome``: the hand outcome of FORMATS.md once the hand is over, else None

Compact on purpose: it is serialised on every move of a digital table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARD_NAMES

if TYPE_CHECKING:
    from .hand import HandState

_SEAT_KEYS = tuple(str(s) for s in range(1, 10))
#: _NAMES_BY_BYTE[suit][mask byte] -> the names of those cards, weakest first.
_NAMES_BY_BYTE = tuple(
    tuple(
        tuple(CARD_NAMES[suit * 8 + r] for r in range(8) if byte >> r & 1)
        for byte in range(256)
    )
    for suit in range(4)
)


def _names(mask: int) -> list[str]:
    by = _NAMES_BY_BYTE
    return [
        *by[0][mask & 255],
        *by[1][mask >> 8 & 255],
        *by[2][mask >> 16 & 255],
        *by[3][mask >> 24],
    ]


#: _SEATS_IN[mask]: the seat numbers whose bits are set, ascending.
_SEATS_IN = tuple(
    tuple(s + 1 for s in range(8) if mask >> s & 1) for mask in range(256)
)


def hand_view(hand: HandState, seat: int | None) -> dict[str, Any]:
    """Return ``seat``'s view of ``hand`` (see the module docstring)."""
    n = hand._n
    if seat is not None and not 1 <= seat <= n:
        raise ValueError(f"no seat {seat} at this table")
    me = -1 if seat is None else seat - 1
    keys = _SEAT_KEYS
    names = CARD_NAMES
    table = hand._table
    in_hand = hand._in_hand
    looked = hand._looked

    tricks = [
        {
            "seats": [s + 1 for s in trick_seats],
            "cards": [names[c] for c in trick_cards],
            "winner": winner + 1,
        }
        for trick_seats, trick_cards, winner in hand._tricks
    ]
    if hand._trick_seats:
        tricks.append(
            {
                "seats": [s + 1 for s in hand._trick_seats],
                "cards": [names[c] for c in hand._trick_cards],
                "winner": None,
            }
        )

    knocks: list[dict[str, Any]] = []
    if hand._last_knocker >= 0:
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
            else:  # a look, or a play (which implies looking)
                seen |= 1 << (action.seat - 1)

    folded = {}
    if in_hand != table.in_hand:
        loss = hand._loss
        for s in table.playing:
            if not in_hand >> s & 1:
                folded[keys[s]] = loss[s]

    acts: list[str] = []
    playable: list[str] = []
    if me >= 0:
        for a in hand.legal_actions(seat):
            if a.card is None:
                acts.append(a.act)
            else:
                playable.append(names[a.card])
    last = hand._last_knocker
    winner = hand._winner
    if winner >= 0:
        to_move = None
        outcome = hand.outcome()
    else:
        outcome = None
        move = hand.to_move()
        to_move = {"seat": move[0], "act": move[1]} if move else None
    return {
        "seat": seat,
        "rules": table.rules.name,
        "dealer": table.dealer + 1,
        "forehand": table.forehand + 1,
        "marks": dict(table.marks_json),
        "value": hand._value,
        "last_knocker": last + 1 if last >= 0 else None,
        "blind_knocks": hand._blind_knocks,
        "looked": list(_SEATS_IN[looked]),
        "in_hand": list(_SEATS_IN[in_hand]),
        "folded": folded,
        "cards": _names(hand._hands[me]) if me >= 0 and looked >> me & 1 else None,
        "tricks": tricks,
        "knocks": knocks,
        "to_move": to_move,
        "legal": {"acts": acts, "cards": playable},
        "due": to_move is not None and to_move["seat"] == seat,
        "outcome": None if outcome is None else outcome.to_json(),
    }
