"""A game: hands in sequence, marks, elimination, dealer, winner, points."""

from __future__ import annotations

import json
from random import Random

import pytest
from scoring_testkit import acts

from scoring import GameState, IllegalAction, SheetLine, get_rules, parse_card


def cards(spec: dict[int, str]) -> dict[int, list[int]]:
    return {seat: [parse_card(c) for c in text.split()] for seat, text in spec.items()}


FOUR = {1: "10C 10S 10H 10D", 2: "7C 7S 7H 7D", 3: "8C 8S 8H 8D", 4: "9C 9S 9H 9D"}


def test_highest_seat_deals_first_and_the_winner_deals_next() -> None:
    game = GameState()
    assert game.dealer == 4 and game.first_dealer == 4
    hand = game.start_hand(cards(FOUR))
    assert hand.forehand == 1
    for a in acts("2 knock; 3 fold; 4 fold; 1 fold"):
        game.apply(a)
    assert hand.finished and not game.in_progress
    assert game.dealer == 2
    assert game.marks == {1: 6, 2: 7, 3: 6, 4: 6}
    assert len(game.detail) == 1


def test_seats_out_get_no_cards_and_are_skipped() -> None:
    game = GameState(seats=3)
    game.apply_sheet(SheetLine(value=7, winner=1, folded={3: 1}))
    assert game.marks == {1: 7, 2: 0, 3: 6}
    hand = game.start_hand(cards({1: FOUR[1], 3: FOUR[3]}))
    assert hand.forehand == 3  # dealer 1; seat 2 is out
    with pytest.raises(IllegalAction) as caught:
        game.start_hand(cards({1: FOUR[1], 3: FOUR[3]}))
    assert caught.value.code == "hand_in_progress"


def test_game_ends_with_one_player_holding_marks() -> None:
    game = GameState(seats=3)
    game.apply_sheet(SheetLine(value=7, winner=2))
    outcome = game.outcome()
    assert outcome is not None and game.finished
    assert outcome.winner == 2
    assert outcome.points == {1: 0, 2: 14, 3: 0}
    assert outcome.to_json() == {
        "winner": 2,
        "marks": {"1": 0, "2": 7, "3": 0},
        "points": {"1": 0, "2": 14, "3": 0},
        "hands": 1,
    }


def test_game_view_is_json_and_hides_cards() -> None:
    game = GameState()
    game.start_hand(cards(FOUR))
    view = game.view(2)
    json.dumps(view)
    assert view["marks"] == {"1": 7, "2": 7, "3": 7, "4": 7}
    assert view["winner"] is None and view["points"] is None
    assert view["hand"]["cards"] is None  # seat 2 has not looked
    assert "10C" not in json.dumps(view)


def test_clone_of_a_game_is_independent() -> None:
    game = GameState()
    game.start_hand(cards(FOUR))
    copy = game.clone()
    for a in acts("1 knock; 2 fold; 3 fold; 4 fold"):
        copy.apply(a)
    assert copy.marks == {1: 7, 2: 6, 3: 6, 4: 6}
    assert game.marks == {1: 7, 2: 7, 3: 7, 4: 7}
    assert game.in_progress and not copy.in_progress


def test_random_game_with_a_regional_rule_set() -> None:
    rules = get_rules("marienheide")
    game = GameState(seats=5, rules=rules)
    rng = Random(5)
    while game.outcome() is None:
        hand = game.deal(rng)
        while actions := hand.legal_actions():
            game.apply(actions[rng.randrange(len(actions))])
    outcome = game.outcome()
    assert outcome is not None
    assert 1 + 7 <= outcome.points[outcome.winner] <= 5 + 7
    assert sum(1 for m in outcome.marks.values() if m) == 1


def test_seat_count_follows_the_rules() -> None:
    with pytest.raises(ValueError):
        GameState(seats=5)
    with pytest.raises(ValueError):
        GameState(seats=4, first_dealer=5)
    GameState(seats=2, rules=get_rules("schroem"))


def test_sheet_line_waits_for_a_hand_in_progress() -> None:
    game = GameState()
    game.start_hand(cards(FOUR))
    with pytest.raises(IllegalAction) as caught:
        game.apply_sheet(SheetLine(value=1, winner=1))
    assert caught.value.code == "hand_in_progress"


def test_no_action_between_hands() -> None:
    game = GameState()
    game.start_hand(cards(FOUR))
    for a in acts("1 knock; 2 fold; 3 fold; 4 fold"):
        game.apply(a)
    with pytest.raises(IllegalAction) as caught:
        game.apply(acts("1 look")[0])
    assert caught.value.code == "hand_finished"
