"""Results of a hand and of a game, and their JSON form (docs/FORMATS.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .rules import RuleSet, points_for_game


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """A finished hand.  ``loss`` and ``marks`` name every seat of the table
    (1-based); a seat already out has loss 0 and marks 0."""

    winner: int
    value: int
    loss: Mapping[int, int]
    marks: Mapping[int, int]
    out: tuple[int, ...]
    next_dealer: int

    @classmethod
    def settle(
        cls, winner: int, value: int, start: Mapping[int, int], loss: Mapping[int, int]
    ) -> HandOutcome:
        """Build the outcome from the marks at the start and each seat's loss."""
        marks = {seat: start[seat] - loss[seat] for seat in start}
        out = tuple(seat for seat in sorted(marks) if marks[seat] == 0)
        return cls(winner, value, dict(loss), marks, out, winner)

    def to_json(self) -> dict[str, Any]:
        """Return the hand outcome of docs/FORMATS.md § Hand outcome."""
        return {
            "winner": self.winner,
            "value": self.value,
            "loss": {str(s): v for s, v in self.loss.items()},
            "marks": {str(s): v for s, v in self.marks.items()},
            "out": list(self.out),
            "next_dealer": self.next_dealer,
        }


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A finished game: the winner, final marks, points, and every hand."""

    winner: int
    marks: Mapping[int, int]
    points: Mapping[int, int]
    hands: int
    detail: tuple[HandOutcome, ...]

    @classmethod
    def settle(
        cls, marks: Mapping[int, int], detail: tuple[HandOutcome, ...], rules: RuleSet
    ) -> GameOutcome:
        """Build the outcome of a game whose only seat with marks has won."""
        (winner,) = (seat for seat, m in marks.items() if m > 0)
        points = {seat: points_for_game(m, rules) for seat, m in marks.items()}
        return cls(winner, dict(marks), points, len(detail), detail)

    def to_json(self, detail: bool = False) -> dict[str, Any]:
        """Return the game outcome of docs/FORMATS.md § Game outcome (with
        ``detail``: the per-hand outcomes too)."""
        data: dict[str, Any] = {
            "winner": self.winner,
            "marks": {str(s): v for s, v in self.marks.items()},
            "points": {str(s): v for s, v in self.points.items()},
            "hands": self.hands,
        }
        if detail:
            data["detail"] = [hand.to_json() for hand in self.detail]
        return data
