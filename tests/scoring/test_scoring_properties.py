"""Property tests over random legal playouts (hypothesis)."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import (
    DECK,
    PRESETS,
    Action,
    GameRecord,
    GameState,
    HandRecord,
    HandState,
    IllegalAction,
    RuleSet,
    SheetLine,
    action,
    card_str,
    settle_sheet_line,
)
from scoring.records import HandEntry
from scoring.rules import CHAMPIONSHIP
from tests.support.hostile import examples

FAST = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

Setup = tuple[RuleSet, dict[int, int], int, int]


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """A rule set, start marks (at least two seats in), a dealer, a seed."""
    rules = draw(st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.name)))
    n = draw(st.integers(rules.min_seats, min(rules.max_seats, 6)))
    marks = draw(
        st.lists(st.integers(0, rules.start_marks), min_size=n, max_size=n).filter(
            lambda ms: sum(1 for m in ms if m) >= 2
        )
    )
    dealer = draw(st.sampled_from([i + 1 for i, m in enumerate(marks) if m]))
    seed = draw(st.integers(0, 2**32 - 1))
    return rules, {i + 1: m for i, m in enumerate(marks)}, dealer, seed


def playout(setup: Setup) -> HandState:
    rules, marks, dealer, seed = setup
    rng = Random(seed)
    hand = HandState.deal(marks, dealer, rng, rules)
    while actions := hand.legal_actions():
        hand.apply(actions[rng.randrange(len(actions))])
        assert 1 <= hand.value <= rules.max_value <= 7
    return hand


def every_action(seats: int) -> list[Action]:
    out = [action(s, a) for s in range(1, seats + 1) for a in ("look", "knock")]
    out += [action(s, a) for s in range(1, seats + 1) for a in ("hold", "fold")]
    out += [action(s, "play", c) for s in range(1, seats + 1) for c in DECK]
    return out


def sheet_of(hand: HandState) -> SheetLine:
    """The line a scorekeeper would write for ``hand``."""
    value, folded = 1, {}
    for a in hand.history:
        if a.act == "knock":
            value += 1
        elif a.act == "fold":
            folded[a.seat] = value - 1
    outcome = hand.outcome()
    assert outcome is not None
    return SheetLine(value=hand.value, winner=outcome.winner, folded=folded)


@FAST
@given(setups())
def test_legal_actions_are_exactly_what_apply_accepts(setup: Setup) -> None:
    rules, marks, dealer, seed = setup
    rng = Random(seed)
    hand = HandState.deal(marks, dealer, rng, rules)
    candidates = every_action(len(marks))
    while True:
        legal = set(hand.legal_actions())
        for a in rng.sample(candidates, 40):
            trial = hand.clone()
            try:
                trial.apply(a)
            except IllegalAction:
                assert a not in legal, a
            else:
                assert a in legal, a
        for a in legal:
            hand.clone().apply(a)
        if not legal:
            break
        hand.apply(rng.choice(sorted(legal, key=str)))
    assert hand.finished


@FAST
@given(setups())
def test_legal_actions_split_by_seat_and_into_plays(setup: Setup) -> None:
    rules, marks, dealer, seed = setup
    rng = Random(seed)
    hand = HandState.deal(marks, dealer, rng, rules)
    n = len(marks)
    while True:
        every = hand.legal_actions()
        plays = hand.legal_plays()
        others = hand.legal_without_plays()
        assert len(others) == n + 1 and others[0] == ()
        # legal_actions() is the plays, then the rest clockwise from seat 1.
        assert every[: len(plays)] == plays
        assert all(a.act == "play" for a in plays)
        if plays:  # all of the seat due to play
            assert hand.to_move() == (plays[0].seat, "play")
            assert {a.seat for a in plays} == {plays[0].seat}
        rest = every[len(plays) :]
        assert sorted(rest, key=lambda a: a.seat) == [a for o in others for a in o]
        for seat in range(1, n + 1):
            mine = hand.legal_actions(seat)
            assert mine == tuple(a for a in every if a.seat == seat)
            assert all(a.seat == seat and a.act != "play" for a in others[seat])
            assert mine == tuple(a for a in plays if a.seat == seat) + others[seat]
        assert hand.legal_actions(0) == hand.legal_actions(n + 1) == ()
        if not every:
            break
        hand.apply(rng.choice(every))
    assert hand.finished and not hand.legal_plays()


@FAST
@given(setups())
def test_random_hand_invariants(setup: Setup) -> None:
    rules, marks, _, _ = setup
    hand = playout(setup)
    outcome = hand.outcome()
    assert outcome is not None
    # Exactly one winner: the only seat in the game that loses nothing.
    in_game = {s for s, m in marks.items() if m}
    assert {s for s in in_game if outcome.loss[s] == 0} == {outcome.winner}
    assert outcome.next_dealer == outcome.winner
    assert all(m >= 0 for m in outcome.marks.values())
    assert all(outcome.marks[s] == marks[s] - outcome.loss[s] for s in marks)
    assert outcome.out == tuple(s for s in sorted(marks) if outcome.marks[s] == 0)
    assert 1 <= outcome.value <= rules.max_value
    # Knocks: never twice in a row by one seat, blind ones limited.
    knocks = [a.seat for a in hand.history if a.act == "knock"]
    assert all(a != b for a, b in itertools.pairwise(knocks))
    assert len(knocks) == outcome.value - 1
    looked: set[int] = set()
    blind = 0
    for a in hand.history:
        if a.act in ("look", "play"):
            looked.add(a.seat)
        elif a.act == "knock" and a.seat not in looked:
            blind += 1
    hammer = 1 if rules.hammer_knocks and 1 in marks.values() else 0
    extra = 0 if rules.hammer_knock_is_blind else hammer
    assert blind <= rules.max_blind_knocks + extra
    assert blind <= 3 + extra


@FAST
@given(setups())
def test_replaying_the_record_gives_the_same_outcome(setup: Setup) -> None:
    hand = playout(setup)
    doc = HandRecord.of(hand).to_json()
    text = json.dumps(doc)
    again = HandRecord.from_json(json.loads(text))
    assert json.dumps(again.to_json()) == text  # write -> read -> write
    assert again.replay().outcome() == hand.outcome()


@FAST
@given(setups())
def test_the_sheet_line_of_a_played_hand_is_accepted(setup: Setup) -> None:
    rules, marks, dealer, _ = setup
    hand = playout(setup)
    assert settle_sheet_line(sheet_of(hand), marks, dealer, rules) == hand.outcome()


@FAST
@given(setups(), st.randoms(use_true_random=False), st.floats(0, 1))
def test_view_ignores_other_seats_unplayed_cards(
    setup: Setup, rng: Random, where: float
) -> None:
    rules, marks, dealer, _ = setup
    full = playout(setup)
    stop = int(where * len(full.history))
    seats = [s for s, m in marks.items() if m]
    viewer = rng.choice(seats)
    before = HandState.start(marks, dealer, full.dealt, rules)
    for a in full.history[:stop]:
        before.apply(a)
    # Swap other seats' unplayed cards with each other and with the unused
    # pack, within a suit, so that every past play stays legal.
    dealt = {s: list(cards) for s, cards in full.dealt.items()}
    stock = [c for c in DECK if all(c not in cards for cards in dealt.values())]
    places = [(s, i) for s in seats if s != viewer for i in range(4)]
    places = [(s, i) for s, i in places if dealt[s][i] in before.unplayed(s)]
    places += [(0, i) for i in range(len(stock))]
    dealt[0] = stock
    for _ in range(20):
        (s1, i1), (s2, i2) = rng.sample(places, 2)
        if dealt[s1][i1] >> 3 == dealt[s2][i2] >> 3:
            dealt[s1][i1], dealt[s2][i2] = dealt[s2][i2], dealt[s1][i1]
    del dealt[0]
    after = HandState.start(marks, dealer, dealt, rules)  # type: ignore[arg-type]
    for a in full.history[:stop]:
        after.apply(a)
    assert after.view(viewer) == before.view(viewer)
    assert after.view(None) == before.view(None)
    text = json.dumps(before.view(viewer))
    for seat in seats:
        if seat != viewer:
            for card in before.unplayed(seat):
                assert f'"{card_str(card)}"' not in text


GAME_RULES = [CHAMPIONSHIP, PRESETS["siwwe_stroem"], PRESETS["marienheide"]]


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from(GAME_RULES),
    st.integers(3, 4),
    st.integers(0, 2**32 - 1),
    st.floats(0, 1),
)
def test_random_game_invariants(
    rules: RuleSet, seats: int, seed: int, sheet_share: float
) -> None:
    rng = Random(seed)
    first = rng.randint(1, seats)
    game = GameState(seats, rules, first_dealer=first)
    entries: list[HandEntry | SheetLine] = []
    while game.outcome() is None:
        before = game.marks
        dealer = game.dealer
        hand = game.deal(rng)
        while actions := game.legal_actions():
            game.apply(actions[rng.randrange(len(actions))])
        outcome = hand.outcome()
        assert outcome is not None
        assert game.dealer == outcome.winner  # the winner deals next
        assert game.marks == dict(outcome.marks)
        assert all(0 <= game.marks[s] <= before[s] for s in before)
        assert sum(game.marks.values()) < sum(before.values())
        assert hand.dealer == dealer
        # Write some hands as the sheet line a referee would copy.
        entries.append(
            sheet_of(hand) if rng.random() < sheet_share else HandEntry.of(hand)
        )
    result = game.outcome()
    assert result is not None
    holders = [s for s, m in result.marks.items() if m > 0]
    assert holders == [result.winner]
    low = 1 + rules.winner_bonus
    assert low <= result.points[result.winner] <= rules.start_marks + rules.winner_bonus
    assert all(p == 0 for s, p in result.points.items() if s != result.winner)
    # The record, mixing played hands and sheet lines, replays to the same.
    record = GameRecord(seats, tuple(entries), first, rules)
    doc = json.loads(json.dumps(record.to_json()))
    again = GameRecord.from_json(doc)
    assert again.to_json() == doc
    assert again.replay().outcome() == result
    played = GameRecord.of(game)
    assert played.replay().outcome() == result
    assert replace(played, hands=played.hands[:-1]).replay().outcome() is None
