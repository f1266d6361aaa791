"""Sheet lines: a hand known only by its paper result (docs/FORMATS.md § Sheet line)."""

from __future__ import annotations

import pytest
from scoring_testkit import marks_of

from scoring import (
    CHAMPIONSHIP,
    GameState,
    HandOutcome,
    SheetError,
    SheetLine,
    game_from_sheet,
    get_rules,
    settle_sheet_line,
)
from scoring.errors import RULE_OF


def settle(line: SheetLine, marks: str = "7777", dealer: int = 4) -> HandOutcome:
    return settle_sheet_line(line, marks_of(marks), dealer, CHAMPIONSHIP)


def refused(line: SheetLine, code: str, marks: str = "7777", dealer: int = 4) -> None:
    with pytest.raises(SheetError) as caught:
        settle(line, marks, dealer)
    assert caught.value.code == code
    assert caught.value.rule == RULE_OF[code]


def test_formats_example_line() -> None:
    line = SheetLine(value=3, folded={2: 1, 4: 2}, winner=1, penalty={3: 1})
    outcome = settle(line)
    assert outcome.loss == {1: 0, 2: 1, 3: 1, 4: 2}
    assert outcome.marks == {1: 7, 2: 6, 3: 6, 4: 5}
    assert outcome.next_dealer == 1


def test_played_out_hand_costs_everyone_else_the_value() -> None:
    outcome = settle(SheetLine(value=2, winner=3))
    assert outcome.loss == {1: 2, 2: 2, 3: 0, 4: 2}


def test_everyone_folds() -> None:
    outcome = settle(SheetLine(value=2, winner=1, folded={2: 1, 3: 1, 4: 1}))
    assert outcome.loss == {1: 0, 2: 1, 3: 1, 4: 1}


def test_penalty_counts_like_a_fold_of_the_given_marks() -> None:
    outcome = settle(SheetLine(value=3, winner=1, penalty={2: 1}))
    assert outcome.loss == {1: 0, 2: 1, 3: 3, 4: 3}


def test_losses_are_capped_by_marks() -> None:
    outcome = settle(SheetLine(value=3, winner=1, folded={3: 2}), marks="7721")
    assert outcome.loss == {1: 0, 2: 3, 3: 2, 4: 1}
    assert outcome.out == (3, 4)


def test_unknown_seat() -> None:
    refused(SheetLine(value=2, winner=5), "sheet_unknown_seat")
    refused(SheetLine(value=2, winner=1, folded={5: 1}), "sheet_unknown_seat")
    refused(SheetLine(value=2, winner=1, folded={4: 1}), "sheet_unknown_seat", "777", 3)


def test_seat_already_out() -> None:
    refused(SheetLine(value=2, winner=1, folded={2: 1}), "sheet_seat_out", "7077")
    refused(SheetLine(value=2, winner=2), "sheet_seat_out", "7077")


@pytest.mark.parametrize("value", [0, 8, -1])
def test_value_out_of_range(value: int) -> None:
    refused(SheetLine(value=value, winner=1), "sheet_value_range")


def test_winner_did_not_fold() -> None:
    refused(SheetLine(value=2, winner=1, folded={1: 1}), "sheet_winner_folded")


def test_winner_was_not_penalised() -> None:
    refused(SheetLine(value=2, winner=1, penalty={1: 1}), "sheet_winner_penalised")


@pytest.mark.parametrize("paid", [0, 3, 4])
def test_fold_pays_the_value_before_a_knock(paid: int) -> None:
    refused(SheetLine(value=3, winner=1, folded={2: paid}), "sheet_fold_range")


@pytest.mark.parametrize("paid", [0, 4])
def test_penalty_in_range(paid: int) -> None:
    refused(SheetLine(value=3, winner=1, penalty={2: paid}), "sheet_penalty_range")


def test_fold_and_penalty_exclude_each_other() -> None:
    line = SheetLine(value=3, winner=1, folded={2: 1}, penalty={2: 1})
    refused(line, "sheet_fold_and_penalty")


def test_hammer_at_the_table_means_value_two() -> None:
    refused(SheetLine(value=1, winner=1), "sheet_hammer_value", "7771")
    assert settle(SheetLine(value=2, winner=1), "7771").loss[4] == 1


def test_everyone_folded_ends_the_hand_at_that_knock() -> None:
    line = SheetLine(value=3, winner=1, folded={2: 1, 3: 1, 4: 1})
    refused(line, "sheet_everyone_folded")


def test_knocks_must_have_a_legal_order() -> None:
    # Only seat 1 may knock to 4 and to 5: it would knock twice in a row.
    refused(SheetLine(value=5, winner=1), "sheet_no_knock_order", "7222")
    assert settle(SheetLine(value=4, winner=1), "7222").loss[2] == 2
    # The hammer makes the knock to 2, so it cannot fold to it.
    line = SheetLine(value=2, winner=1, folded={4: 1})
    refused(line, "sheet_no_knock_order", "7771")
    # Nobody with 3 marks or fewer knocks to 4 (and 2 marks only to 3).
    refused(SheetLine(value=4, winner=1), "sheet_no_knock_order", "3333")


def test_game_from_sheet_lines_with_line_numbers_in_errors() -> None:
    lines = [
        SheetLine(value=2, winner=1),
        SheetLine(value=3, winner=1, folded={2: 2}),
        SheetLine(value=9, winner=1),
    ]
    with pytest.raises(SheetError) as caught:
        game_from_sheet(lines)
    assert caught.value.line == 3
    assert "hand 3" in str(caught.value)
    assert "sheet_value_range" in str(caught.value)


def test_three_seat_game_from_sheet_lines() -> None:
    game = game_from_sheet([SheetLine(value=7, winner=2)], seats=3)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 2
    assert outcome.marks == {1: 0, 2: 7, 3: 0}
    assert outcome.points == {1: 0, 2: 14, 3: 0}


def test_no_line_after_the_game_is_over() -> None:
    lines = [SheetLine(value=7, winner=2), SheetLine(value=1, winner=2)]
    with pytest.raises(SheetError) as caught:
        game_from_sheet(lines, seats=3)
    assert caught.value.code == "game_over" and caught.value.line == 2


def test_unfinished_game_has_no_outcome_yet() -> None:
    game = game_from_sheet([SheetLine(value=2, winner=1)])
    assert game.outcome() is None
    assert game.marks == {1: 7, 2: 5, 3: 5, 4: 5}
    assert game.dealer == 1


def test_later_lines_follow_the_dealer_and_marks() -> None:
    # Hand 2: seat 4 is on the hammer, the dealer is seat 3 (hand 1's winner),
    # so seat 4 must open with the knock to 2 and cannot fold to it.
    game = GameState(seats=4, rules=get_rules("championship"))
    game.apply_sheet(SheetLine(value=6, winner=3, folded={1: 5, 2: 5}))
    assert game.marks == {1: 2, 2: 2, 3: 7, 4: 1}
    with pytest.raises(SheetError) as caught:
        game.apply_sheet(SheetLine(value=2, winner=3, folded={4: 1}))
    assert caught.value.line == 2 and caught.value.code == "sheet_no_knock_order"


def test_sheet_line_json() -> None:
    line = SheetLine(value=3, folded={2: 1, 4: 2}, winner=1, penalty={3: 1})
    assert line.to_json() == {
        "sheet": {
            "value": 3,
            "folded": {"2": 1, "4": 2},
            "winner": 1,
            "penalty": {"3": 1},
        }
    }
