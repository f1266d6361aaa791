"""Bots play from views only; the greedy bot is a sensible player."""

from __future__ import annotations

from typing import Any

from scoring_testkit import act, deal

from scoring.bots import GreedyBot, RandomBot, make_bots
from scoring.simulate import play_hand, simulate


def test_greedy_beats_random_clearly() -> None:
    # One greedy seat against three random ones; chance alone gives 25 %.
    result = simulate(400, seed=11, bots=["greedy", "random", "random", "random"])
    rate = result.wins[1] / result.games
    assert rate > 0.45, rate
    result = simulate(200, seed=12, bots=["random", "random", "greedy"], seats=3)
    assert result.wins[3] / result.games > 0.55


def test_bots_only_receive_views() -> None:
    hand = deal()
    calls = 0

    class Spy:
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def choose(self, view: dict[str, Any]) -> Any:
            nonlocal calls
            calls += 1
            assert view == hand.view(view["seat"])
            return self.bot.choose(view)

    bots = {seat: Spy(bot) for seat, bot in make_bots(["greedy"], 4, seed=1).items()}
    play_hand(hand, bots)
    assert hand.finished and calls > 0


def test_greedy_looks_before_anything_else() -> None:
    hand = deal()
    assert GreedyBot().choose(hand.view(1)) == act("1 look")


def test_greedy_makes_the_hammers_knock() -> None:
    hand = deal("7717", dealer=4)
    assert GreedyBot().choose(hand.view(3)) == act("3 knock")
    assert GreedyBot().choose(hand.view(1)) is None


def test_greedy_knocks_with_a_sure_winner() -> None:
    cards = {1: "10C 10S 10H 10D", 2: "7C 7S 7H 7D", 3: "8C 8S 8H 8D", 4: "9C 9S 9H 9D"}
    hand = deal(cards=cards, script="1 look")
    assert GreedyBot().choose(hand.view(1)) == act("1 knock")


def test_greedy_folds_a_weak_hand_against_a_light_knock() -> None:
    cards = {1: "10C 10S 10H 10D", 2: "JC QS JH QD", 3: "8C 8S 8H 8D", 4: "9C 9S 9H 9D"}
    hand = deal(cards=cards, script="1 look; 1 knock; 2 look")
    assert GreedyBot().choose(hand.view(2)) == act("2 fold")


def test_greedy_keeps_its_best_card_for_the_last_trick() -> None:
    cards = {1: "10H 7C 8C KS", 2: "7S KD QC AC", 3: "10C 9D 7D JS", 4: "AD 8S JD 10S"}
    # Seat 1 knocked last, so it can only play: which card does it keep?
    start = "1 look; 1 knock; 2 hold; 3 hold; 4 hold; "
    hand = deal(cards=cards, script=start)
    assert GreedyBot().choose(hand.view(1)) == act("1 play KS")  # the weakest
    script = (
        "1 play KS; 2 play 7S; 3 play JS; 4 play 10S; 4 play AD; 1 play 7C;"
        "2 play KD; 3 play 9D; 3 play 7D; 4 play JD"
    )
    hand = deal(cards=cards, script=start + script)
    assert hand.to_move() == (1, "play")
    assert GreedyBot().choose(hand.view(1)) == act("1 play 8C")  # not the 10H


def test_random_bot_passes_or_acts_only_legally() -> None:
    hand = deal(script="1 play 10H")
    bot = RandomBot(__import__("random").Random(1))
    legal = set(hand.legal_actions(3))
    for _ in range(50):
        chosen = bot.choose(hand.view(3))
        assert chosen is None or chosen in legal
