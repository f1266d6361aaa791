"""Errors the engine raises, with stable codes the web layer can translate.

``IllegalAction`` and ``SheetError`` break a rule: ``.code`` is a stable
snake-case identifier and ``.rule`` the paragraph of docs/RULES.md it breaks (both
are listed in ``RULE_OF``).  ``RecordError`` is a malformed document: ``.path``
points into the JSON (``hands[2].cards.3[1]``).  All are ``ValueError``s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import Action

#: Every rule code and the paragraph of docs/RULES.md (or docs/FORMATS.md) behind it.
RULE_OF: dict[str, str] = {
    # Any action
    "hand_finished": "docs/RULES.md §3",
    "unknown_seat": "docs/RULES.md §2",
    "seat_out_of_game": "docs/RULES.md §7",
    "seat_folded": "docs/RULES.md §4",
    "hammer_must_knock": "docs/RULES.md §6",
    "bad_action": "docs/FORMATS.md § Hand record",
    "no_hand_dealt": "docs/RULES.md §2",
    "hand_in_progress": "docs/RULES.md §3",
    "game_over": "docs/RULES.md §7",
    # Look
    "already_looked": "docs/RULES.md §5",
    # Knock
    "knock_twice_in_a_row": "docs/RULES.md §4.2",
    "knock_above_max_value": "docs/RULES.md §4.3",
    "knock_above_marks": "docs/RULES.md §4.4",
    "knock_during_answers": "docs/RULES.md §4.5",
    "blind_knock_limit": "docs/RULES.md §5",
    # Answers
    "no_knock_to_answer": "docs/RULES.md §4 (answers)",
    "answer_out_of_turn": "docs/RULES.md §4 (answers)",
    # Play
    "look_first": "docs/RULES.md §5",
    "play_during_answers": "docs/RULES.md §4 (answers)",
    "play_out_of_turn": "docs/RULES.md §3",
    "card_not_in_hand": "docs/RULES.md §3",
    "must_follow_suit": "docs/RULES.md §3",
    # Sheet lines
    "sheet_unknown_seat": "docs/FORMATS.md § Sheet line",
    "sheet_seat_out": "docs/RULES.md §7",
    "sheet_value_range": "docs/RULES.md §4.3",
    "sheet_winner_folded": "docs/RULES.md §4",
    "sheet_winner_penalised": "docs/RULES.md §8",
    "sheet_fold_range": "docs/RULES.md §4",
    "sheet_penalty_range": "docs/RULES.md §8",
    "sheet_fold_and_penalty": "docs/RULES.md §8",
    "sheet_hammer_value": "docs/RULES.md §6",
    "sheet_everyone_folded": "docs/RULES.md §4",
    "sheet_no_knock_order": "docs/RULES.md §4",
}


class RuleError(ValueError):
    """Something the rules forbid.  ``code``/``rule``/``message`` as above."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.rule = RULE_OF[code]
        self.message = message

    def where(self) -> str:
        """Return where the error happened, or "" when unknown."""
        return ""

    def __str__(self) -> str:
        where = self.where()
        prefix = f"{where}: " if where else ""
        return f"{prefix}{self.message} [{self.code}, {self.rule}]"


class IllegalAction(RuleError):
    """An action the rules forbid in this state.

    Replaying a record fills in ``hand_index`` and ``action_index`` (0-based
    positions in ``hands`` and ``actions``).
    """

    def __init__(self, code: str, message: str, action: Action | None = None) -> None:
        super().__init__(code, message)
        self.action = action
        self.hand_index: int | None = None
        self.action_index: int | None = None

    def where(self) -> str:
        parts = []
        if self.hand_index is not None:
            parts.append(f"hands[{self.hand_index}]")
        if self.action_index is not None:
            parts.append(f"actions[{self.action_index}]")
        where = ".".join(parts)
        if self.action is not None:
            where = f"{where} ({self.action})" if where else f"{self.action}"
        return where


class SheetError(RuleError):
    """A sheet line that no legal hand can produce; ``line`` is the 1-based
    hand number within its game, once known."""

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(code, message)
        self.line = line

    def where(self) -> str:
        return "" if self.line is None else f"hand {self.line} (sheet line)"


class RecordError(ValueError):
    """A malformed record; ``path`` locates the offending JSON value."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message
