"""Cards, rule sets, presets and game points."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from scoring_testkit import act, deal

from scoring import (
    CHAMPIONSHIP,
    DECK,
    PRESETS,
    RuleSet,
    card_str,
    get_rules,
    parse_card,
    points_for_game,
)
from scoring.cards import strength, suit_of


def test_card_notation_round_trips() -> None:
    assert [card_str(c) for c in DECK][:8] == [
        "JC", "QC", "KC", "AC", "7C", "8C", "9C", "10C"
    ]  # fmt: skip
    for card in DECK:
        assert parse_card(card_str(card)) == card


@pytest.mark.parametrize("text", ["10h", "1H", "11C", "T S", "", "AX", "10HH"])
def test_bad_card_notation_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_card(text)


def test_rank_order_is_ten_high_jack_low() -> None:
    order = ["10", "9", "8", "7", "A", "K", "Q", "J"]
    strengths = [strength(parse_card(rank + "S")) for rank in order]
    assert strengths == sorted(strengths, reverse=True)
    assert {suit_of(parse_card("7" + s)) for s in "CSHD"} == {0, 1, 2, 3}


def test_championship_is_the_default_preset() -> None:
    assert get_rules() is CHAMPIONSHIP
    assert CHAMPIONSHIP.start_marks == 7 and CHAMPIONSHIP.max_value == 7
    assert CHAMPIONSHIP.max_blind_knocks == 3


def test_presets_include_regional_variants() -> None:
    assert {"championship", "schroem", "siwwe_stroem"} <= set(PRESETS)
    for name, rules in PRESETS.items():
        assert rules.name == name


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="championship"):
        get_rules("skat")


def test_rule_sets_are_frozen_and_every_rule_is_documented() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        CHAMPIONSHIP.max_value = 8  # type: ignore[misc]
    lines = inspect.getsource(RuleSet).splitlines()
    for field in dataclasses.fields(RuleSet):
        (i,) = [
            i for i, line in enumerate(lines) if line.startswith(f"    {field.name}:")
        ]
        assert lines[i + 1].strip().startswith('"""'), field.name


def test_knock_cap() -> None:
    assert CHAMPIONSHIP.knock_cap(7) == 7
    assert CHAMPIONSHIP.knock_cap(3) == 3
    assert CHAMPIONSHIP.knock_cap(2) == 3  # the 2-marks exception
    assert CHAMPIONSHIP.knock_cap(1) == 1
    schroem = get_rules("schroem")
    assert schroem.knock_cap(3) == 4 and schroem.knock_cap(7) == 7


def test_schroem_knocks_to_marks_plus_one() -> None:
    rules = get_rules("schroem")
    script = "1 knock; 2 hold; 3 hold; 4 hold; 2 knock; 3 hold; 4 hold; 1 hold"
    hand = deal("7737", rules=rules, script=script)
    assert act("3 knock") in hand.legal_actions()  # to 4 with 3 marks
    hand = deal("7737", script=script)
    assert act("3 knock") not in hand.legal_actions()


def test_schroem_allows_two_player_tables() -> None:
    hand = deal("77", rules=get_rules("schroem"), script="1 knock; 2 fold")
    assert hand.outcome() is not None


def test_siwwe_stroem_counts_marks_up_and_hammer_knock_is_not_blind() -> None:
    rules = get_rules("siwwe_stroem")
    assert rules.tally(7) == 0 and rules.tally(1) == 6
    assert CHAMPIONSHIP.tally(5) == 5
    # After the automatic 2, three blind knocks are still allowed.
    hand = deal(
        "7717",
        dealer=4,
        rules=rules,
        script="3 knock; 4 hold; 1 hold; 2 hold; 1 knock; 2 hold; 3 hold; 4 hold",
    )
    assert hand.view(None)["blind_knocks"] == 1
    champ = deal(
        "7717",
        dealer=4,
        script="3 knock; 4 hold; 1 hold; 2 hold; 1 knock; 2 hold; 3 hold; 4 hold",
    )
    assert champ.view(None)["blind_knocks"] == 2


def test_marienheide_plays_with_five_marks() -> None:
    assert get_rules("marienheide").start_marks == 5


@pytest.mark.parametrize(("marks", "points"), [(1, 8), (5, 12), (7, 14), (0, 0)])
def test_game_points_are_marks_left_plus_seven(marks: int, points: int) -> None:
    assert points_for_game(marks, CHAMPIONSHIP) == points


def test_rule_set_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        RuleSet(name="x", max_seats=9)
    with pytest.raises(ValueError):
        RuleSet(name="x", max_value=0)
