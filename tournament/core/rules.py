"""The rules the whole site shares, in one place: which rule set a
tournament (or a digital table) plays, and what a game is worth. The rules
themselves are `scoring`'s; this only hands it the tournament's settings."""

import dataclasses
from collections.abc import Mapping
from functools import lru_cache

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.rules import RuleSet, get_rules, points_for_game
from tournament.models import Tournament
from tournament.models.results import StoredGame


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


def seat_points(game: StoredGame, seat: int, tournament: Tournament) -> int:
    """What a stored game (its `winner` seat and the `marks` he kept) gives
    the player at `seat`: the winner his game points, everybody else 0."""
    return game_points(game["marks"], tournament) if game["winner"] == seat else 0


# What each preset a tournament may choose plays differently, in the words
# of docs/RULES.md §9 (shown on the tournament's page). A preset the engine has
# no rule set for is not offered.
PRESET_NOTES: dict[str, Promise] = {
    Tournament.RulePreset.CHAMPIONSHIP: _(
        "Klopfen bis zu den eigenen Schräm (mit 2 Schräm auf 3), höchstens drei "
        "blinde Klopfer pro Einzelspiel, wer nur noch einen Schräm hat, klopft "
        "blind auf 2."
    ),
    Tournament.RulePreset.SCHROEM: _(
        "Wie die Meisterschaft, aber klopfen bis zu den eigenen Schräm plus eins."
    ),
    Tournament.RulePreset.SIWWE_STROEM: _(
        "Die Striche werden hochgezählt (raus bei 7); wer bei 6 steht, macht das "
        "Einzelspiel von selbst 2 wert, das zählt nicht als blinder Klopfer."
    ),
    Tournament.RulePreset.MARIENHEIDE: _(
        "Wie die Meisterschaft, aber gewöhnlich mit 5 Schräm zu Beginn."
    ),
}


def preset_note(tournament: Tournament) -> str:
    """What the tournament's rule preset plays differently, in words."""
    return str(PRESET_NOTES.get(tournament.rule_preset, ""))


# The bots of `scoring.bots` by what a player at the table sees of them.
BOT_LABELS: Mapping[str, Promise] = {
    "greedy": _("Bot (überlegt)"),
    "random": _("Bot (zufällig)"),
}


def bot_label(name: str) -> str:
    """A bot named in words ("Bot (überlegt)"), never by its key."""
    label = BOT_LABELS.get(name)
    return str(label) if label is not None else str(_("Bot"))
