"""Sheet lines: a hand known only by its paper result (docs/FORMATS.md § Sheet line).

A referee copies ``value``, who folded at what cost, any penalties and the
winner from the score sheet.  ``settle_sheet_line`` checks that some legal
hand (docs/RULES.md §4-§7) ends that way and returns its outcome; it cannot check
the cards, which the sheet does not record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import SheetError
from .outcomes import HandOutcome
from .rules import CHAMPIONSHIP, RuleSet
from .setup import Table, table_for


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One hand as written on a score sheet; seats are 1-based.

    ``folded`` maps a seat to the marks it paid on folding (the value before
    the knock it folded to); ``penalty`` maps a seat to the marks a referee
    charged it (Spielordnung rules 12 and 14), which counts like a fold.
    """

    value: int
    winner: int
    folded: Mapping[int, int] = field(default_factory=dict)
    penalty: Mapping[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"sheet": {...}}`` as in docs/FORMATS.md § Sheet line
        (``penalty`` only when there is one)."""
        sheet: dict[str, Any] = {
            "value": self.value,
            "folded": {str(s): v for s, v in sorted(self.folded.items())},
            "winner": self.winner,
        }
        if self.penalty:
            sheet["penalty"] = {str(s): v for s, v in sorted(self.penalty.items())}
        return {"sheet": sheet}


def settle_sheet_line(
    line: SheetLine,
    marks: Mapping[int, int],
    dealer: int,
    rules: RuleSet = CHAMPIONSHIP,
) -> HandOutcome:
    """Return the outcome of ``line`` for a hand that starts with ``marks``
    (every seat 1..n) and ``dealer``; raise SheetError (``line`` unset) naming
    the rule if no legal hand ends like this.

    Losses: a folder pays its fold value, a penalised seat its penalty, every
    other seat still in but the winner pays ``value``; all capped by marks.
    """
    table = table_for(rules, marks, dealer)
    n = table.n
    value, winner = line.value, line.winner
    folded, penalty = dict(line.folded), dict(line.penalty)

    for what, seats in (("winner", [winner]), ("folded", folded), ("penalty", penalty)):
        for seat in seats:
            if type(seat) is not int or not 1 <= seat <= n:
                raise SheetError("sheet_unknown_seat", f"{what}: no seat {seat}")
            if not marks[seat]:
                raise SheetError(
                    "sheet_seat_out", f"{what}: seat {seat} is out of the game"
                )
    if type(value) is not int or not 1 <= value <= rules.max_value:
        raise SheetError(
            "sheet_value_range", f"value {value} is not in 1-{rules.max_value}"
        )
    if winner in folded:
        raise SheetError("sheet_winner_folded", f"the winner {winner} folded")
    if winner in penalty:
        raise SheetError("sheet_winner_penalised", f"the winner {winner} was penalised")
    for seat, paid in folded.items():
        if type(paid) is not int or not 1 <= paid < value:
            raise SheetError(
                "sheet_fold_range",
                f"seat {seat} folded paying {paid}; a fold pays the value before "
                f"a knock, so 1 to {value - 1}",
            )
        if seat in penalty:
            raise SheetError(
                "sheet_fold_and_penalty", f"seat {seat} both folded and was penalised"
            )
    for seat, paid in penalty.items():
        if type(paid) is not int or not 1 <= paid <= value:
            raise SheetError(
                "sheet_penalty_range", f"seat {seat}: penalty {paid} not in 1-{value}"
            )
    if table.hammer >= 0 and value < 2:
        raise SheetError(
            "sheet_hammer_value",
            f"seat {table.hammer + 1} has 1 mark and must knock to 2",
        )
    in_game = [s + 1 for s in table.playing]
    all_folded = not penalty and all(s == winner or s in folded for s in in_game)
    if all_folded and value != max(folded.values()) + 1:
        raise SheetError(
            "sheet_everyone_folded",
            "everyone but the winner folded, so the hand ended at the knock "
            f"they folded to: value {max(folded.values()) + 1}, not {value}",
        )
    if not _knock_order_exists(line, table, all_folded):
        raise SheetError(
            "sheet_no_knock_order",
            f"no order of legal knocks reaches value {value} with these folds",
        )

    loss = {seat: 0 for seat in range(1, n + 1)}
    for seat in in_game:
        if seat != winner:
            owed = folded.get(seat) or penalty.get(seat) or value
            loss[seat] = min(owed, marks[seat])
    return HandOutcome.settle(winner, value, marks, loss)


def _knock_order_exists(line: SheetLine, table: Table, last_by_winner: bool) -> bool:
    """Is there a sequence of knockers for the knocks 1->2 ... (value-1)->value
    that obeys §4 and §6, given who folded at which value?

    A knock from k is made by a seat still in at k that does not fold to it,
    never by the seat that made the knock before, within its marks (or the
    hammer's opening knock).  A penalised seat may have left at any moment,
    so it may knock and always counts as still in.  At most 7 knocks among at
    most 8 seats: a depth-first search is instant.
    """
    never = 99  # the fold value of a seat that did not fold
    fold_at = {seat - 1: paid for seat, paid in line.folded.items()}
    playing = table.playing
    last = line.value - 1  # number of knocks
    for k in range(1, last + 1):
        # Before the knock from k, at least two seats are still in (else the
        # hand would already be over).
        if sum(1 for s in playing if fold_at.get(s, k) >= k) < 2:
            return False
    candidates: list[list[int]] = []
    for k in range(1, last + 1):
        if k == 1 and table.hammer >= 0:
            knockers = [table.hammer] if fold_at.get(table.hammer, never) > 1 else []
        else:
            knockers = [
                s
                for s in playing
                if fold_at.get(s, never) > k and k + 1 <= table.caps[s]
            ]
        if k == last and last_by_winner:
            knockers = [s for s in knockers if s == line.winner - 1]
        candidates.append(knockers)

    def search(k: int, previous: int) -> bool:
        if k > last:
            return True
        return any(search(k + 1, s) for s in candidates[k - 1] if s != previous)

    return search(1, -1)
