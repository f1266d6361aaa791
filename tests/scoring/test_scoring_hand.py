"""How a hand runs: turns, answers, dead cards, losses, views, clone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from random import Random

from scoring_testkit import act, deal

from scoring import DECK, HandState, parse_card


def test_forehand_is_left_of_the_dealer_and_leads() -> None:
    hand = deal(dealer=2)
    assert hand.forehand == 3
    assert hand.to_move() == (3, "play")


def test_forehand_skips_seats_that_are_out() -> None:
    hand = deal("7707", dealer=2)
    assert hand.forehand == 4


def test_knock_is_an_interrupt_any_eligible_seat_may_knock() -> None:
    hand = deal(script="1 play 10H")
    knockers = {a.seat for a in hand.legal_actions() if a.act == "knock"}
    assert knockers == {1, 2, 3, 4}


def test_answers_run_clockwise_from_the_knockers_left_skipping_folders() -> None:
    hand = deal(script="3 knock; 4 fold; 1 hold; 2 hold; 1 knock")
    assert hand.to_move() == (2, "answer")
    hand.apply(act("2 hold"))
    assert hand.to_move() == (3, "answer")


def test_fold_costs_the_value_before_the_knock_at_once() -> None:
    hand = deal(script="1 knock; 2 hold; 3 hold; 4 hold; 2 knock; 3 fold")
    assert hand.loss_so_far()[3] == 2
    assert hand.view(1)["folded"] == {"3": 2}


def test_everyone_folds_the_knocker_wins_at_once() -> None:
    hand = deal(script="1 play 10H; 3 knock; 4 fold; 1 fold; 2 fold")
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.winner == 3 and outcome.next_dealer == 3
    assert outcome.loss == {1: 1, 2: 1, 3: 0, 4: 1}


def test_play_resumes_where_it_stopped_and_skips_a_folded_seat() -> None:
    hand = deal(script="1 play 10H; 1 knock; 2 fold; 3 hold; 4 hold")
    assert hand.to_move() == (3, "play")


def test_folded_leader_still_fixes_the_suit() -> None:
    hand = deal(script="1 play 9H; 2 knock; 3 hold; 4 hold; 1 fold")
    # Seat 2 holds 8H: it must follow hearts although the 9H is dead.
    assert [a.card for a in hand.legal_actions(2) if a.act == "play"] == [
        parse_card("8H")
    ]
    for text in ("2 play 8H", "3 play 10C", "4 play AH"):
        hand.apply(act(text))
    # 9H is dead; 8H is the highest heart of a player still in (AH is lower).
    assert hand.view(None)["tricks"][0]["winner"] == 2


def test_trick_goes_to_earliest_live_card_when_nobody_in_followed() -> None:
    cards = {1: "10H 9H AS JC", 2: "7S KD QC 7C", 3: "10C 9D 7D KS", 4: "AH 8S JD 10S"}
    hand = deal(cards=cards, script="1 play 10H; 2 knock; 3 hold; 4 hold; 1 fold")
    for text in ("2 play 7S", "3 play 10C", "4 play AH"):
        hand.apply(act(text))
    # Seat 4 followed hearts, so it wins; without it, seat 2 (earliest) would.
    assert hand.view(None)["tricks"][0]["winner"] == 4
    hand = deal(cards=cards, script="1 play 10H; 2 knock; 3 hold; 4 fold; 1 fold")
    for text in ("2 play 7S", "3 play 10C"):
        hand.apply(act(text))
    assert hand.view(None)["tricks"][0]["winner"] == 2


def test_loss_is_capped_by_marks() -> None:
    hand = deal(
        "7277",
        cards={
            1: "10C 10S 10H 10D",
            2: "7C 7S 7H 7D",
            3: "8C 8S 8H 8D",
            4: "9C 9S 9H 9D",
        },
        script="1 look; 1 knock; 2 hold; 3 hold; 4 hold; 3 knock; 4 hold; 1 hold;"
        "2 hold",
    )
    while not hand.finished:
        hand.apply(next(a for a in hand.legal_actions() if a.act == "play"))
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.loss[2] == 2 and outcome.marks[2] == 0 and outcome.out == (2,)


def test_three_seat_table() -> None:
    hand = deal("777", script="1 knock; 2 hold; 3 fold")
    assert hand.forehand == 1
    assert hand.to_move() == (1, "play")
    outcome_keys = set(hand.view(1)["marks"])
    assert outcome_keys == {"1", "2", "3"}


def test_seat_out_of_the_game_is_skipped_everywhere() -> None:
    hand = deal("7707", dealer=4, script="1 knock")
    assert hand.to_move() == (2, "answer")
    hand.apply(act("2 hold"))
    assert hand.to_move() == (4, "answer")


def test_view_shows_own_cards_only_after_looking() -> None:
    hand = deal()
    assert hand.view(1)["cards"] is None
    hand.apply(act("1 look"))
    assert hand.view(1)["cards"] == sorted(
        ["10H", "9H", "AS", "JC"], key=lambda c: parse_card(c)
    )
    assert hand.view(2)["cards"] is None


def test_view_is_json_and_lists_only_own_legal_actions() -> None:
    hand = deal(script="1 play 10H")
    view = hand.view(2)
    json.dumps(view)
    assert view["due"] is True
    # Face down, seat 2 may look (or knock blind); the card it may play
    # names one of its cards: only once it has looked (issue 15).
    assert view["legal"] == {"acts": ["look", "knock"], "cards": []}
    assert hand.view(3)["due"] is False
    assert hand.view(3)["legal"] == {"acts": ["look", "knock"], "cards": []}
    assert hand.view(None)["legal"] == {"acts": [], "cards": []}
    hand.apply(act("2 look"))
    assert hand.view(2)["legal"] == {"acts": ["knock"], "cards": ["8H"]}


def test_view_shows_played_cards_and_public_answers() -> None:
    hand = deal(script="1 play 10H; 2 play 8H; 3 knock; 4 hold; 1 hold; 2 fold")
    view = hand.view(4)
    assert view["tricks"] == [{"seats": [1, 2], "cards": ["10H", "8H"], "winner": None}]
    assert view["knocks"] == [
        {
            "seat": 3,
            "value": 2,
            "blind": True,
            "answers": {"4": "hold", "1": "hold", "2": "fold"},
        }
    ]
    text = json.dumps(view)
    for card in ("KD", "QC", "7S", "9D", "7D", "KS", "9H", "AS", "JC"):
        assert f'"{card}"' not in text  # other seats' unplayed cards


def test_clone_is_independent() -> None:
    hand = deal(script="1 play 10H")
    copy = hand.clone()
    copy.apply(act("2 play 8H"))
    assert hand.history == (act("1 play 10H"),)
    assert len(copy.history) == 2
    assert hand.view(None) != copy.view(None)
    assert isinstance(copy, HandState)


def test_legal_actions_of_one_seat() -> None:
    hand = deal()
    assert {a.seat for a in hand.legal_actions(3)} == {3}
    assert set(hand.legal_actions(3)) <= set(hand.legal_actions())


def test_public_read_api_of_a_hand_in_progress() -> None:
    hand = deal(
        script="1 look; 1 knock; 2 hold; 3 hold; 4 hold; 3 knock; 4 fold; 1 hold; "
        "2 hold; 1 play 10H; 2 play 8H; 3 play 10C; 1 play 9H"
    )
    assert hand.start_marks == {1: 7, 2: 7, 3: 7, 4: 7}
    assert hand.start_marks_json == {"1": 7, "2": 7, "3": 7, "4": 7}
    assert hand.value == 3 and hand.last_knocker == 3 and hand.blind_knocks == 1
    assert hand.in_hand == (1, 2, 3) and hand.folded == {4: 2}
    assert hand.looked == (1, 2, 3)  # playing a card counts as looking
    cards = tuple(parse_card(c) for c in ("10H", "8H", "10C"))
    assert hand.tricks == (((1, 2, 3), cards, 1),)
    assert hand.trick == ((1,), (parse_card("9H"),))
    assert not hand.finished and hand.to_move() == (2, "play")


def test_nothing_outside_hand_py_reads_a_private_field_of_a_hand() -> None:
    root = Path(__file__).resolve().parents[2] / "scoring"
    for path in root.glob("*.py"):
        if path.name != "hand.py":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"\bhand\._[a-z]", text), path.name


class _OwnRandom(Random):
    """A Random of another kind: dealt through its own ``sample``."""


def test_deal_draws_as_random_sample() -> None:
    # ``HandState.deal`` draws the cards itself for a plain ``Random``: the
    # same cards as ``rng.sample`` and the generator left in the same state,
    # so seeded deals stay what they were (fails if Python draws otherwise).
    for seed in range(300):
        for marks in ({1: 7, 2: 7, 3: 7, 4: 7}, {1: 7, 2: 0, 3: 3}, {1: 1, 2: 2, 3: 5}):
            for rng_type in (Random, _OwnRandom):
                rng, same = rng_type(seed), Random(seed)
                hand = HandState.deal(marks, 1, rng)
                drawn = iter(same.sample(DECK, 4 * len(hand.dealt)))
                assert hand.dealt == {
                    seat: tuple(next(drawn) for _ in range(4))
                    for seat, m in marks.items()
                    if m
                }
                assert rng.random() == same.random()
