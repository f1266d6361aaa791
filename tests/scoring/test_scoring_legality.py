"""One test per way an action can be illegal; each names its rule code."""

from __future__ import annotations

from random import Random

import pytest
from scoring_testkit import act, deal

from scoring import (
    CHAMPIONSHIP,
    Action,
    GameState,
    HandState,
    IllegalAction,
    get_rules,
)
from scoring.errors import RULE_OF


def rejects(hand: HandState, text: str | Action, code: str) -> IllegalAction:
    """Assert ``hand`` refuses the action with ``code`` and stays unchanged."""
    a = act(text) if isinstance(text, str) else text
    before = (hand.history, hand.legal_actions(), hand.view(None))
    assert a not in hand.legal_actions()
    with pytest.raises(IllegalAction) as caught:
        hand.apply(a)
    err = caught.value
    assert err.code == code
    assert err.rule == RULE_OF[code]
    assert code in str(err) and err.rule in str(err)
    assert (hand.history, hand.legal_actions(), hand.view(None)) == before
    return err


# -- any action ---------------------------------------------------------------


def test_no_action_after_the_hand_is_over() -> None:
    hand = deal(script="1 knock; 2 fold; 3 fold; 4 fold")
    assert hand.finished
    rejects(hand, "1 play 10H", "hand_finished")
    rejects(hand, "2 look", "hand_finished")


def test_seat_must_exist_at_the_table() -> None:
    rejects(deal(), "5 knock", "unknown_seat")
    rejects(deal("777"), "4 look", "unknown_seat")
    rejects(deal(), Action(0, "look"), "unknown_seat")


def test_seat_without_marks_takes_no_part() -> None:
    hand = deal("7077", dealer=4)
    rejects(hand, "2 look", "seat_out_of_game")
    rejects(hand, "2 knock", "seat_out_of_game")


def test_folded_seat_takes_no_further_part() -> None:
    hand = deal(script="1 knock; 2 fold; 3 hold; 4 hold")
    rejects(hand, "2 knock", "seat_folded")
    rejects(hand, "2 look", "seat_folded")
    rejects(hand, "2 play 8H", "seat_folded")


def test_hammer_knock_comes_before_anything_else() -> None:
    hand = deal("7717", dealer=4)
    assert hand.legal_actions() == (act("3 knock"),)
    rejects(hand, "1 look", "hammer_must_knock")
    rejects(hand, "1 knock", "hammer_must_knock")
    rejects(hand, "3 look", "hammer_must_knock")
    rejects(hand, "1 play 10H", "hammer_must_knock")


def test_malformed_actions_are_refused() -> None:
    hand = deal()
    rejects(hand, Action(1, "play"), "bad_action")
    rejects(hand, Action(1, "knock", hand.unplayed(1)[0]), "bad_action")
    rejects(hand, Action(1, "dance"), "bad_action")  # type: ignore[arg-type]


# -- look ----------------------------------------------------------------------


def test_look_only_once() -> None:
    rejects(deal(script="1 look"), "1 look", "already_looked")


def test_playing_a_card_counts_as_looking() -> None:
    rejects(deal(script="1 play 10H"), "1 look", "already_looked")


# -- knock (docs/RULES.md §4 rules 1-5, §5) --------------------------------------------


def test_no_knock_twice_in_a_row() -> None:
    hand = deal(script="1 knock; 2 hold; 3 hold; 4 hold")
    rejects(hand, "1 knock", "knock_twice_in_a_row")


def test_finished_trick_does_not_lift_the_bar() -> None:
    hand = deal(
        script="1 knock; 2 hold; 3 hold; 4 hold;"
        "1 play 10H; 2 play 8H; 3 play 10C; 4 play AH"
    )
    rejects(hand, "1 knock", "knock_twice_in_a_row")
    hand.apply(act("2 knock"))
    for seat in (3, 4, 1):
        hand.apply(act(f"{seat} hold"))
    assert act("1 knock") in hand.legal_actions()


def test_value_never_exceeds_seven() -> None:
    hand = deal(script="1 look; 2 look")
    for knocker in (1, 2, 1, 2, 1, 2):
        hand.apply(act(f"{knocker} knock"))
        for k in range(1, 4):
            hand.apply(act(f"{(knocker + k - 1) % 4 + 1} hold"))
    assert hand.value == 7
    rejects(hand, "3 knock", "knock_above_max_value")


def test_knock_within_own_marks() -> None:
    hand = deal("7377", script="1 knock; 2 hold; 3 hold; 4 hold")
    assert act("2 knock") in hand.legal_actions()  # to 3 with 3 marks
    hand = deal(
        "7377", script="1 knock; 2 hold; 3 hold; 4 hold; 3 knock; 4 hold;1 hold; 2 hold"
    )
    err = rejects(hand, "2 knock", "knock_above_marks")
    assert "3 marks" in err.message


def test_two_marks_may_knock_to_three_but_not_four() -> None:
    hand = deal("7277", script="1 knock; 2 hold; 3 hold; 4 hold")
    assert act("2 knock") in hand.legal_actions()
    hand = deal(
        "7277", script="1 knock; 2 hold; 3 hold; 4 hold; 3 knock; 4 hold;1 hold; 2 hold"
    )
    rejects(hand, "2 knock", "knock_above_marks")


def test_one_mark_may_not_knock_voluntarily() -> None:
    # Seat 2 is a second hammer: it only answers (§6).
    hand = deal("7117", dealer=1, script="2 knock; 3 hold; 4 hold; 1 hold")
    rejects(hand, "3 knock", "knock_above_marks")


def test_no_knock_while_a_knock_waits_for_answers() -> None:
    hand = deal(script="1 knock; 2 hold")
    rejects(hand, "2 knock", "knock_during_answers")
    rejects(hand, "4 knock", "knock_during_answers")


def test_at_most_three_blind_knocks() -> None:
    hand = deal(
        script="1 knock; 2 hold; 3 hold; 4 hold; 2 knock; 3 hold; 4 hold; 1 hold;"
        "3 knock; 4 hold; 1 hold; 2 hold"
    )
    rejects(hand, "4 knock", "blind_knock_limit")
    hand.apply(act("4 look"))
    assert act("4 knock") in hand.legal_actions()


def test_no_blind_knock_when_the_rules_forbid_them() -> None:
    from dataclasses import replace

    rules = replace(CHAMPIONSHIP, name="no_blind", max_blind_knocks=0)
    hand = deal(rules=rules)
    rejects(hand, "1 knock", "blind_knock_limit")


# -- answers -------------------------------------------------------------------


def test_no_answer_without_a_knock() -> None:
    rejects(deal(), "2 hold", "no_knock_to_answer")
    rejects(deal(), "2 fold", "no_knock_to_answer")


def test_answers_come_in_order_from_the_knockers_left() -> None:
    hand = deal(script="2 knock")
    rejects(hand, "4 hold", "answer_out_of_turn")
    rejects(hand, "1 fold", "answer_out_of_turn")
    hand.apply(act("3 hold"))
    rejects(hand, "1 hold", "answer_out_of_turn")


def test_knocker_does_not_answer_its_own_knock() -> None:
    rejects(deal(script="2 knock"), "2 hold", "answer_out_of_turn")


# -- play ----------------------------------------------------------------------


def test_no_play_while_a_knock_waits_for_answers() -> None:
    rejects(deal(script="2 knock"), "1 play 10H", "play_during_answers")


def test_play_in_turn() -> None:
    rejects(deal(), "2 play 8H", "play_out_of_turn")
    rejects(deal(script="1 play 10H"), "3 play 10C", "play_out_of_turn")


def test_play_only_own_cards() -> None:
    rejects(deal(), "1 play 8H", "card_not_in_hand")
    rejects(
        deal(script="1 play 10H; 2 play 8H; 3 play 10C; 4 play AH"),
        "1 play 10H",
        "card_not_in_hand",
    )


def test_follow_suit_when_able() -> None:
    hand = deal(script="1 play 9H")
    rejects(hand, "2 play 7S", "must_follow_suit")
    hand.apply(act("2 play 8H"))
    # Seat 3 has no heart: any card.
    assert {a.card for a in hand.legal_actions(3) if a.act == "play"} == set(
        hand.unplayed(3)
    )


# -- game ----------------------------------------------------------------------


def test_game_needs_a_dealt_hand() -> None:
    game = GameState()
    with pytest.raises(IllegalAction) as caught:
        game.apply(act("1 look"))
    assert caught.value.code == "no_hand_dealt"


def test_game_over_refuses_more_hands() -> None:
    game = GameState(seats=3, rules=get_rules("championship"))
    rng = Random(3)
    while game.outcome() is None:
        hand = game.deal(rng)
        while not hand.finished:
            game.apply(hand.legal_actions()[0])
    with pytest.raises(IllegalAction) as caught:
        game.deal(rng)
    assert caught.value.code == "game_over"
    with pytest.raises(IllegalAction) as caught:
        game.apply(act("1 look"))
    assert caught.value.code == "game_over"


def test_every_rule_code_names_a_paragraph() -> None:
    assert all(
        rule.startswith(("docs/RULES.md §", "docs/FORMATS.md §"))
        for rule in RULE_OF.values()
    )
