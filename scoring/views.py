"""What one seat may see of a hand (docs/CONTRIBUTING.md § Engines).

``hand_view`` is the only place hidden information is turned into something
a player gets.  Of the cards it reads only the viewer's own, and only once
the viewer has looked (its unplayed cards, ``HandState.unplayed(seat)``, and
its legal plays, ``legal_actions(seat)``), and the cards played face up
(``tricks``, ``trick``); everything else it reads is public.  Before its
look a seat's cards lie face down (docs/RULES.md §5): its view names none of
them, not even as a card it may play.  It uses ``HandState``'s public read
API only (``HandReader``).  Keys of the returned dict:

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
  the acts other than "play" and the cards it may play -- none before it has
  looked: a seat due to play that has not looked is offered the look
- ``due``: whether the hand is waiting for the viewer (if not, any legal act
  is an interrupt: a knock or a look)
- ``outcome``: the hand outcome (docs/FORMATS.md § Hand outcome) once the
  hand is over, else None

Compact on purpose: it is serialised on every move of a digital table.

``check_choosable`` is its counterpart for what a seat sends: a play by a
seat that has not looked is refused before the rules look at the card.
"""

from __future__ import annotations

from typing import Any, Protocol

from .actions import Action
from .cards import CARD_NAMES, Card
from .errors import IllegalAction
from .outcomes import HandOutcome
from .rules import RuleSet


class HandReader(Protocol):
    """What a view reads of a hand: ``HandState``'s public read API, of which
    only ``unplayed(seat)`` and ``legal_actions(seat)`` hold a seat's secret
    (the view asks them for the viewer only, once it has looked).  Named
    here, not imported from ``hand`` (which renders its views through this
    module), so the two modules do not import each other."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def seats(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def forehand(self) -> int: ...
    @property
    def value(self) -> int: ...
    @property
    def in_hand(self) -> tuple[int, ...]: ...
    @property
    def looked(self) -> tuple[int, ...]: ...
    @property
    def folded(self) -> dict[int, int]: ...
    @property
    def last_knocker(self) -> int | None: ...
    @property
    def blind_knocks(self) -> int: ...
    @property
    def tricks(self) -> tuple[tuple[tuple[int, ...], tuple[Card, ...], int], ...]: ...
    @property
    def trick(self) -> tuple[tuple[int, ...], tuple[Card, ...]]: ...
    @property
    def history(self) -> tuple[Action, ...]: ...
    @property
    def start_marks_json(self) -> dict[str, int]: ...
    def unplayed(self, seat: int) -> list[Card]: ...
    def to_move(self) -> tuple[int, str] | None: ...
    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]: ...
    def legal_without_plays(self) -> tuple[tuple[Action, ...], ...]: ...
    def outcome(self) -> HandOutcome | None: ...


_SEAT_KEYS = tuple(str(s) for s in range(1, 10))


def hand_view(hand: HandReader, seat: int | None) -> dict[str, Any]:
    """Return ``seat``'s view of ``hand`` (see the module docstring)."""
    if seat is not None and not 1 <= seat <= hand.seats:
        raise ValueError(f"no seat {seat} at this table")
    keys = _SEAT_KEYS
    names = CARD_NAMES

    tricks = [
        {"seats": list(seats), "cards": [names[c] for c in cards], "winner": winner}
        for seats, cards, winner in hand.tricks
    ]
    seats_now, cards_now = hand.trick
    if seats_now:
        tricks.append(
            {
                "seats": list(seats_now),
                "cards": [names[c] for c in cards_now],
                "winner": None,
            }
        )

    knocks: list[dict[str, Any]] = []
    last = hand.last_knocker
    if last is not None:
        answers: dict[str, str] = {}
        seen = 0
        value = 1
        for action in hand.history:
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

    looked = hand.looked
    acts: list[str] = []
    playable: list[str] = []
    if seat is not None:
        if seat in looked:
            for a in hand.legal_actions(seat):
                if a.card is None:
                    acts.append(a.act)
                else:
                    playable.append(names[a.card])
        else:
            # Face down: its plays would name its cards.  The rest of its
            # legal actions (the look among them) names none.
            acts = [a.act for a in hand.legal_without_plays()[seat]]
    move = hand.to_move()  # None once the hand is over
    if move is None:
        to_move = None
        outcome = hand.outcome()
    else:
        to_move = {"seat": move[0], "act": move[1]}
        outcome = None
    folded = hand.folded
    return {
        "seat": seat,
        "rules": hand.rules.name,
        "dealer": hand.dealer,
        "forehand": hand.forehand,
        "marks": hand.start_marks_json,
        "value": hand.value,
        "last_knocker": last,
        "blind_knocks": hand.blind_knocks,
        "looked": list(looked),
        "in_hand": list(hand.in_hand),
        "folded": {keys[s - 1]: paid for s, paid in folded.items()} if folded else {},
        "cards": (
            [names[c] for c in hand.unplayed(seat)]
            if seat is not None and seat in looked
            else None
        ),
        "tricks": tricks,
        "knocks": knocks,
        "to_move": to_move,
        "legal": {"acts": acts, "cards": playable},
        "due": to_move is not None and to_move["seat"] == seat,
        "outcome": None if outcome is None else outcome.to_json(),
    }


def check_choosable(hand: HandReader, action: Action) -> None:
    """Raise IllegalAction ("look_first") if ``action`` is a play by the seat
    due to play that has not looked; else return (the rules judge it when
    applied).

    A person chooses a card from the cards his view shows, and before his
    look it shows none (docs/RULES.md §5: playing implies looking, so he looks
    first).  A play he could not have chosen is refused here, alike for
    every card: the rules' own refusals ("card_not_in_hand",
    "must_follow_suit") would tell him what he holds.  A play when the
    seat is not due to play is left to the rules, whose refusal ("play out
    of turn", "answer the knock first", ...) reads no card and helps more.
    Bots do not choose from a view but from the legal actions they are
    handed, where a play is their look (``scoring.bots``); they are not
    checked.
    """
    if (
        action.act == "play"
        and action.seat not in hand.looked
        and hand.to_move() == (action.seat, "play")
    ):
        raise IllegalAction(
            "look_first", "look at the cards before playing one", action
        )
