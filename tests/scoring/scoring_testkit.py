"""Helpers for the scoring tests: short notation for deals and actions."""

from __future__ import annotations

from collections.abc import Mapping

from scoring import CHAMPIONSHIP, Action, HandState, RuleSet, action, parse_card

#: A fixed deal that covers every case where the cards do not matter.
DEFAULT_CARDS = {
    1: "10H 9H AS JC",
    2: "8H 7S KD QC",
    3: "10C 9D 7D KS",
    4: "AH 8S JD 10S",
    5: "7C 8C 9C KC",
    6: "QH JH KH 7H",
    7: "8D 9S 10D AC",
    8: "AD QD QS JS",
}


def act(text: str) -> Action:
    """``"2 knock"`` or ``"1 play 10H"`` -> the Action."""
    parts = text.split()
    card = parse_card(parts[2]) if len(parts) > 2 else None
    return action(int(parts[0]), parts[1], card)


def acts(script: str) -> list[Action]:
    """``"2 knock; 3 hold"`` -> the Actions."""
    return [act(item) for item in script.split(";") if item.strip()]


def marks_of(marks: str | Mapping[int, int]) -> dict[int, int]:
    """``"7717"`` -> {1: 7, 2: 7, 3: 1, 4: 7}."""
    if isinstance(marks, str):
        return {i + 1: int(m) for i, m in enumerate(marks)}
    return dict(marks)


def deal(
    marks: str | Mapping[int, int] = "7777",
    dealer: int | None = None,
    cards: Mapping[int, str] | None = None,
    rules: RuleSet = CHAMPIONSHIP,
    script: str = "",
) -> HandState:
    """Start a hand (default: seat n deals, the fixed deal) and run ``script``."""
    start = marks_of(marks)
    given = dict(DEFAULT_CARDS) if cards is None else dict(cards)
    dealt = {
        seat: [parse_card(c) for c in given[seat].split()]
        for seat, m in start.items()
        if m
    }
    hand = HandState.start(start, dealer or len(start), dealt, rules)
    for a in acts(script):
        hand.apply(a)
    return hand
