"""A seat's cards lie face down until it looks (docs/RULES.md §5): nothing a seat
is shown names one of its cards before it has looked, not even the cards it
may play (issue 15), and a play it could not have chosen from its view is
refused without a word about the card."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoring_testkit import act, deal

from scoring import PRESETS, GameState, HandState, IllegalAction, RuleSet, card_str
from scoring import views as scoring_views
from tests.support.cards import card_names
from tests.support.hostile import examples

FAST = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
RULE_SETS = sorted(PRESETS.values(), key=lambda r: r.name)


def hidden_from(hand: HandState, seat: int) -> set[str]:
    """The names of the cards `seat` holds and has not looked at (none once
    it has looked; a seat that has not looked has played nothing)."""
    if seat in hand.looked:
        return set()
    return {card_str(c) for c in hand.unplayed(seat)}


def assert_nothing_before_the_look(hand: HandState) -> None:
    for seat in range(1, hand.seats + 1):
        hidden = hidden_from(hand, seat)
        view = hand.view(seat)
        assert not card_names(hand.view_json(seat)) & hidden, (seat, view)
        if seat not in hand.looked:
            assert view["cards"] is None
            assert view["legal"]["cards"] == []
            if view["due"] and view["to_move"]["act"] == "play":
                # Due to play, face down: the look is offered, no card.
                assert "look" in view["legal"]["acts"]
        elif hand.to_move() == (seat, "play"):
            plays = [card_str(a.card) for a in hand.legal_plays()]
            assert view["legal"]["cards"] == plays and plays


@st.composite
def hands(draw: st.DrawFn) -> tuple[RuleSet, dict[int, int], int, int]:
    """A rule set, start marks (hammers too), a dealer and a seed."""
    rules = draw(st.sampled_from(RULE_SETS))
    n = draw(st.integers(rules.min_seats, min(rules.max_seats, 6)))
    marks = draw(
        st.lists(st.integers(0, rules.start_marks), min_size=n, max_size=n).filter(
            lambda ms: sum(1 for m in ms if m) >= 2
        )
    )
    dealer = draw(st.sampled_from([i + 1 for i, m in enumerate(marks) if m]))
    return rules, {i + 1: m for i, m in enumerate(marks)}, dealer, draw(st.integers())


@FAST
@given(hands(), st.floats(0, 1))
def test_no_view_names_a_card_of_a_seat_that_has_not_looked(
    setup: tuple[RuleSet, dict[int, int], int, int], look_share: float
) -> None:
    rules, marks, dealer, seed = setup
    rng = Random(seed)
    hand = HandState.deal(marks, dealer, rng, rules)
    while True:
        assert_nothing_before_the_look(hand)
        actions = hand.legal_actions()
        if not actions:
            break
        # Looks are rarer than a uniform choice would make them: seats stay
        # face down longer, and play (a play implies looking) or knock blind.
        chosen = rng.choice(actions)
        if chosen.act == "look" and rng.random() > look_share:
            chosen = rng.choice([a for a in actions if a.act != "look"] or actions)
        hand.apply(chosen)
    assert_nothing_before_the_look(hand)


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(3, 4), st.integers())
def test_no_game_view_names_a_card_of_a_seat_that_has_not_looked(
    rules: RuleSet, seats: int, seed: int
) -> None:
    seats = max(rules.min_seats, min(seats, rules.max_seats))
    rng = Random(seed)
    game = GameState(seats, rules, first_dealer=rng.randint(1, seats))
    while game.outcome() is None:
        hand = game.deal(rng)
        while True:
            for seat in range(1, seats + 1):
                hidden = hidden_from(hand, seat)
                assert not card_names(game.view_json(seat)) & hidden
            actions = game.legal_actions()
            if not actions:
                break
            game.apply(rng.choice(actions))


def test_a_seat_due_to_play_is_offered_the_look_and_no_card() -> None:
    hand = deal(script="1 play 10H")
    view = hand.view(2)
    assert view["due"] and view["to_move"] == {"seat": 2, "act": "play"}
    assert view["cards"] is None
    assert view["legal"] == {"acts": ["look", "knock"], "cards": []}
    assert not card_names(view) & {"8H", "7S", "KD", "QC"}
    hand.apply(act("2 look"))
    assert hand.view(2)["legal"] == {"acts": ["knock"], "cards": ["8H"]}


def test_the_engine_still_takes_a_play_as_the_look() -> None:
    # docs/RULES.md §5: playing a card implies looking. Bots choose from the
    # legal actions they are handed and may play at once.
    hand = deal(script="1 play 10H")
    assert act("2 play 8H") in hand.legal_actions(2)
    hand.apply(act("2 play 8H"))
    assert 2 in hand.looked


@pytest.mark.parametrize("card", ["8H", "7S", "KD", "QC", "10C", "AS", "7H"])
def test_a_play_before_the_look_is_refused_the_same_for_every_card(card: str) -> None:
    # 8H follows suit, 7S/KD/QC are held but may not be played, 10C/AS/7H
    # are not held: the answer must not tell them apart.
    hand = deal(script="1 play 10H")
    before = hand.view_json(2)
    with pytest.raises(IllegalAction) as refused:
        scoring_views.check_choosable(hand, act(f"2 play {card}"))
    assert refused.value.code == "look_first"
    assert refused.value.rule == "docs/RULES.md §5"
    assert not card_names(str(refused.value)) - {card}
    assert hand.view_json(2) == before


def test_the_check_leaves_to_the_rules_what_reads_no_card() -> None:
    # Seat 2 has looked: the rules judge its plays when applied.
    hand = deal(script="1 play 10H; 2 look")
    for chosen in (act("2 play 8H"), act("2 play 7S"), act("3 knock")):
        scoring_views.check_choosable(hand, chosen)
    for other in ("look", "knock"):
        scoring_views.check_choosable(deal(), act(f"1 {other}"))
    # Seat 3 has not looked and is not due: "out of turn" reads no card.
    hand = deal(script="1 play 10H")
    scoring_views.check_choosable(hand, act("3 play 10C"))
    with pytest.raises(IllegalAction) as refused:
        hand.apply(act("3 play 10C"))
    assert refused.value.code == "play_out_of_turn"
