"""The rules the whole site shares, in one place: which rule set a
tournament (or a digital table) plays, and what a game is worth. The rules
themselves are `scoring`'s; this only hands it the tournament's settings."""

import dataclasses
from functools import lru_cache

from scoring.rules import RuleSet, get_rules, points_for_game
from tournament.models import Tournament


@lru_cache(maxsize=64)
def rule_set(*, preset: str, start_marks: int, win_bonus: int) -> RuleSet:
    """The preset `preset` with the tournament's own start marks and win
    bonus."""
    return dataclasses.replace(
        get_rules(preset), start_marks=start_marks, winner_bonus=win_bonus
    )


def tournament_rules(tournament: Tournament) -> RuleSet:
    """The rule set a tournament plays."""
    return rule_set(
        preset=tournament.rule_preset,
        start_marks=tournament.start_marks,
        win_bonus=tournament.win_bonus,
    )


def game_points(marks: int, tournament: Tournament) -> int:
    """What a game gives a player who kept `marks`: the winner (the only one
    with marks left) the marks plus the win bonus, everybody else 0."""
    return points_for_game(marks, tournament_rules(tournament))
