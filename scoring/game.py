"""A game: hands in sequence until one player is left with marks (§7).

``GameState`` keeps the marks, passes the deal to each hand's winner (§2),
and accepts each hand either card by card (``deal``/``start_hand`` then
``apply``) or as a sheet line (``apply_sheet``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from .actions import Action
from .cards import Card
from .errors import IllegalAction, SheetError
from .hand import HandState
from .jsonio import encode
from .outcomes import GameOutcome, HandOutcome
from .rules import CHAMPIONSHIP, RuleSet
from .sheet import SheetLine, settle_sheet_line


class GameState:
    """One game at a table of ``seats`` players (seats 1..seats).

    ``first_dealer`` defaults to the highest seat (docs/RULES.md §2: seat 4 deals
    first; later games are dealt first by the previous game's winner).
    """

    __slots__ = (
        "_dealer",
        "_detail",
        "_first_dealer",
        "_hand",
        "_marks",
        "_n",
        "_played",
        "_rules",
    )

    def __init__(
        self,
        seats: int = 4,
        rules: RuleSet = CHAMPIONSHIP,
        first_dealer: int | None = None,
    ) -> None:
        if not rules.min_seats <= seats <= rules.max_seats:
            raise ValueError(
                f"{rules.name} is played by {rules.min_seats}-{rules.max_seats} "
                f"players, not {seats}"
            )
        dealer = seats if first_dealer is None else first_dealer
        if not 1 <= dealer <= seats:
            raise ValueError(f"no seat {dealer} to deal")
        self._rules = rules
        self._n = seats
        self._marks = {seat: rules.start_marks for seat in range(1, seats + 1)}
        self._dealer = dealer
        self._first_dealer = dealer
        self._hand: HandState | None = None
        self._played: list[HandState | SheetLine] = []
        self._detail: list[HandOutcome] = []

    def clone(self) -> GameState:
        """Return an independent copy (the current hand is cloned, finished
        hands are shared: they no longer change)."""
        c = GameState.__new__(GameState)
        c._rules = self._rules
        c._n = self._n
        c._marks = self._marks.copy()
        c._dealer = self._dealer
        c._first_dealer = self._first_dealer
        c._hand = None if self._hand is None else self._hand.clone()
        c._played = self._played.copy()
        c._detail = self._detail.copy()
        return c

    # -- reading ------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def seats(self) -> int:
        return self._n

    @property
    def marks(self) -> dict[int, int]:
        """Marks per seat before the current hand (after the last finished)."""
        return self._marks.copy()

    @property
    def dealer(self) -> int:
        """Who deals the current hand, or the next one once it is over."""
        return self._dealer

    @property
    def first_dealer(self) -> int:
        """Who dealt the game's first hand."""
        return self._first_dealer

    @property
    def hand(self) -> HandState | None:
        """The hand in progress, or the last hand played card by card if it
        is over and the next one is not dealt yet; else None."""
        return self._hand

    @property
    def played(self) -> tuple[HandState | SheetLine, ...]:
        """Every finished hand, as played or as a sheet line."""
        return tuple(self._played)

    @property
    def detail(self) -> tuple[HandOutcome, ...]:
        """The outcome of every finished hand, in order."""
        return tuple(self._detail)

    @property
    def finished(self) -> bool:
        """Whether one seat alone has marks left (the game's winner)."""
        return [*self._marks.values()].count(0) == self._n - 1

    @property
    def in_progress(self) -> bool:
        """Whether a hand has been dealt and is not over yet."""
        return self._hand is not None and not self._hand.finished

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The current hand's legal actions; () between hands."""
        if self._hand is None:
            return ()
        return self._hand.legal_actions(seat)

    def outcome(self) -> GameOutcome | None:
        """Return winner, marks, points and hands once the game is over."""
        if not self.finished:
            return None
        return GameOutcome.settle(self._marks, tuple(self._detail), self._rules)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may see (None: a spectator), JSON-serialisable:
        the game's ``marks``, ``dealer``, ``hands`` played, ``winner`` and
        ``points`` (None until the game is over), and ``hand``: the current or
        last card-by-card hand's view (see ``scoring.views``) or None."""
        if seat is not None and not 1 <= seat <= self._n:
            raise ValueError(f"no seat {seat} at this table")
        outcome = self.outcome()
        return {
            "seat": seat,
            "rules": self._rules.name,
            "seats": list(range(1, self._n + 1)),
            "marks": {str(s): m for s, m in self._marks.items()},
            "dealer": self._dealer,
            "hands": len(self._detail),
            "winner": None if outcome is None else outcome.winner,
            "points": None
            if outcome is None
            else {str(s): p for s, p in outcome.points.items()},
            "hand": None if self._hand is None else self._hand.view(seat),
        }

    def view_json(self, seat: int | None) -> str:
        """Return ``view(seat)`` as JSON text, as ``json.dumps`` writes it."""
        return encode(self.view(seat))

    # -- acting -------------------------------------------------------------

    def _check_can_deal(self) -> None:
        if self.finished:
            raise IllegalAction("game_over", "the game is over")
        if self.in_progress:
            raise IllegalAction(
                "hand_in_progress", "the current hand must be played to its end first"
            )

    def deal(self, rng: Random) -> HandState:
        """Deal the next hand with ``rng`` (the current dealer deals)."""
        self._check_can_deal()
        self._hand = HandState.deal(self._marks, self._dealer, rng, self._rules)
        return self._hand

    def start_hand(self, cards: Mapping[int, Sequence[Card]]) -> HandState:
        """Start the next hand with an explicit deal (seats with marks only)."""
        self._check_can_deal()
        self._hand = HandState.start(self._marks, self._dealer, cards, self._rules)
        return self._hand

    def apply(self, action: Action) -> None:
        """Apply ``action`` to the current hand; settle the game's marks and
        dealer when the hand ends.  Raises IllegalAction."""
        hand = self._hand
        if hand is None:
            raise self._refusal(action)
        try:
            hand.apply(action)  # refuses any action once the hand is over
        except IllegalAction:
            if hand.finished:
                raise self._refusal(action) from None
            raise
        outcome = hand.outcome()
        if outcome is not None:
            self._settle(hand, outcome)

    def _refusal(self, action: Action) -> IllegalAction:
        """Why an action between hands is refused: the game's reason, not
        the hand's."""
        if self.finished:
            return IllegalAction("game_over", "the game is over", action)
        if self._hand is not None:
            return IllegalAction(
                "hand_finished", "the hand is over; deal the next", action
            )
        return IllegalAction("no_hand_dealt", "deal the next hand first", action)

    def apply_sheet(self, line: SheetLine) -> HandOutcome:
        """Record the next hand from its sheet line; raise SheetError with the
        1-based hand number as ``line``."""
        number = len(self._detail) + 1
        if self.finished:
            raise SheetError("game_over", "the game is already over", number)
        self._check_can_deal()  # a hand dealt card by card must end first
        try:
            outcome = settle_sheet_line(line, self._marks, self._dealer, self._rules)
        except SheetError as err:
            err.line = number
            raise
        self._hand = None
        self._settle(line, outcome)
        return outcome

    def _settle(self, hand: HandState | SheetLine, outcome: HandOutcome) -> None:
        self._played.append(hand)
        self._detail.append(outcome)
        self._marks = dict(outcome.marks)
        # The winner of a hand deals the next (§2); a winner never loses marks.
        self._dealer = outcome.next_dealer


def game_from_sheet(
    lines: Sequence[SheetLine],
    seats: int = 4,
    rules: RuleSet = CHAMPIONSHIP,
    first_dealer: int | None = None,
) -> GameState:
    """Play a whole game from its sheet lines (referee entry).

    Raises SheetError whose ``line`` is the 1-based hand number; check
    ``outcome()`` of the result for a finished game.
    """
    game = GameState(seats, rules, first_dealer)
    for line in lines:
        game.apply_sheet(line)
    return game
