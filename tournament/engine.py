"""The one adapter between rows and the pure engines (seating, scoring).

Nothing else converts: services hand model rows in and get engine results
back as plain data; the engines never see a model.
"""

import dataclasses
import zlib
from collections.abc import Sequence
from random import Random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.bots import make_bots
from scoring.errors import SheetError
from scoring.game import GameState, game_from_sheet
from scoring.rules import RuleSet, get_rules
from scoring.sheet import SheetLine
from scoring.simulate import play_game
from tournament import seating
from tournament.errors import UserError
from tournament.models import Entry, Series
from tournament.seating.errors import SeatingError

# A series as the seating engine sees it: tables of entry ids in seat order.
EngineSeries = list[list[int]]


def seating_error_message(error: SeatingError) -> str:
    """Translate the engine's error codes for the person at the screen."""
    messages = {
        "too_few_players": _(
            "Zu wenige Spieler für eine Serie: mindestens 3 werden gebraucht."
        ),
        "five_players": _(
            "5 Spieler lassen sich nicht an Tische zu 3–4 setzen. "
            "Bitte einen Spieler nachmelden oder abmelden."
        ),
        "unknown_player": _("Eine gespielte Serie enthält einen unbekannten Spieler."),
        "duplicate_player": _("Ein Spieler steht doppelt in der Setzung."),
    }
    return messages.get(
        error.code, _("Die Setzung ist nicht möglich: %(e)s") % {"e": error}
    )


def stored_series(series: Series) -> EngineSeries:
    """The stored seating of a series as engine data (tables by number)."""
    tables: dict[int, list[tuple[int, int]]] = {}
    for table_number, seat_number, entry_id in series.seats.values_list(
        "table__number", "number", "entry_id"
    ):
        tables.setdefault(table_number, []).append((seat_number, entry_id))
    return [[e for _, e in sorted(seats)] for _, seats in sorted(tables.items())]


def plan_seating(
    *,
    entries: Sequence[Entry],
    series_count: int,
    seed: str,
    fixed: Sequence[EngineSeries],
) -> tuple[list[EngineSeries], dict[str, Any]]:
    """All series of the tournament, the `fixed` ones unchanged."""
    clubs = {e.pk: e.player.club for e in entries if e.player.club}
    field = {e.pk for e in entries}
    # Players of the played series who are no longer in the field.
    gone = sorted({p for s in fixed for t in s for p in t} - field)
    try:
        result = seating.seat(
            sorted(field),
            series=series_count,
            seed=seed,
            clubs=clubs,
            fixed=list(fixed),
            withdrawn=gone,
        )
    except SeatingError as error:
        raise UserError(seating_error_message(error), code=error.code) from error
    return [list(map(list, s)) for s in result.series], dict(result.quality)


def seating_quality(
    series: Sequence[EngineSeries], entries: Sequence[Entry]
) -> dict[str, Any]:
    clubs = {e.pk: e.player.club for e in entries if e.player.club}
    return dict(seating.quality([list(s) for s in series], clubs=clubs))


def repeated_pairs(series: Sequence[EngineSeries]) -> list[tuple[int, int, int]]:
    """Pairs of entry ids that meet more than once, with how often."""
    return [tuple(p) for p in seating.repeated_pairs([list(s) for s in series])]


def _quick_game(
    number: int, game: Any, table_size: int, start_marks: int
) -> dict[str, Any]:
    winner, marks = game.winner, game.marks
    if winner is None:
        raise UserError(
            _("Spiel %(g)d: bitte den Gewinner wählen.") % {"g": number},
            code="no_winner",
        )
    if not 1 <= winner <= table_size:
        raise UserError(
            _("Spiel %(g)d: Platz %(s)d gibt es an diesem Tisch nicht.")
            % {"g": number, "s": winner},
            code="unknown_seat",
        )
    if marks is None or marks < 1:
        raise UserError(
            _("Spiel %(g)d: der Gewinner hat mindestens 1 Schräm übrig.")
            % {"g": number},
            code="winner_without_marks",
        )
    if marks > start_marks:
        raise UserError(
            _("Spiel %(g)d: höchstens %(m)d Schräm (so viele hat jeder zu Beginn).")
            % {"g": number, "m": start_marks},
            code="too_many_marks",
        )
    return {"winner": winner, "marks": marks}


def table_result_data(
    *, games: Sequence[Any], table_size: int, tournament: Any
) -> dict[str, Any]:
    """Validate a table's games (quick or sheet) and return the version data.

    Raises UserError naming the game (and, for sheets, the hand and rule)."""
    expected = tournament.games_per_series
    if len(games) != expected:
        raise UserError(
            _("Bitte alle %(n)d Spiele eingeben (eingegeben: %(k)d).")
            % {"n": expected, "k": len(games)},
            code="game_count",
        )
    out: list[dict[str, Any]] = []
    for number, game in enumerate(games, 1):
        if game.hands is not None:
            # The highest seat deals the series' first hand; then the winner
            # of each game deals the first hand of the next (RULES.md §2).
            dealer = out[-1]["winner"] if out else table_size
            out.append(
                sheet_game(
                    number=number,
                    hands=list(game.hands),
                    table_size=table_size,
                    tournament=tournament,
                    first_dealer=dealer,
                )
            )
        else:
            out.append(_quick_game(number, game, table_size, tournament.start_marks))
        out[-1]["points"] = out[-1]["marks"] + tournament.win_bonus
    return {"games": out}


def rules_for(tournament: Any) -> RuleSet:
    """The tournament's rule set: its preset with its marks and bonus."""
    return dataclasses.replace(
        get_rules(tournament.rule_preset),
        start_marks=tournament.start_marks,
        winner_bonus=tournament.win_bonus,
    )


# The rules named in German for referees (codes from scoring.errors.RULE_OF).
SHEET_RULE_MESSAGES = {
    "sheet_unknown_seat": gettext_lazy(
        "einen solchen Platz gibt es an diesem Tisch nicht"
    ),
    "sheet_seat_out": gettext_lazy("dieser Spieler ist schon ausgeschieden (0 Schräm)"),
    "sheet_value_range": gettext_lazy(
        "der Wert eines Einzelspiels liegt zwischen 1 und 7"
    ),
    "sheet_winner_folded": gettext_lazy("der Gewinner kann nicht gepasst haben"),
    "sheet_winner_penalised": gettext_lazy(
        "der Gewinner kann keine Strafe bekommen haben"
    ),
    "sheet_fold_range": gettext_lazy(
        "wer passt, zahlt den Wert vor dem Klopfen: mindestens 1 und weniger als "
        "der Endwert"
    ),
    "sheet_penalty_range": gettext_lazy("eine Strafe beträgt mindestens 1 Schräm"),
    "sheet_fold_and_penalty": gettext_lazy(
        "ein Spieler kann nicht zugleich passen und bestraft werden"
    ),
    "sheet_hammer_value": gettext_lazy(
        "mit einem Spieler auf dem Hammer (1 Schräm) ist das Einzelspiel "
        "mindestens 2 wert"
    ),
    "sheet_everyone_folded": gettext_lazy(
        "wenn alle anderen passen, gewinnt der, der zuletzt geklopft hat"
    ),
    "game_over": gettext_lazy(
        "das Spiel war schon entschieden – zu viele Zeilen eingetragen"
    ),
    "sheet_no_knock_order": gettext_lazy(
        "so kann nicht geklopft worden sein (ein Klopfen je Passwert, niemand "
        "klopft zweimal hintereinander, höchstens bis zu den eigenen Schräm)"
    ),
}


def _sheet_line(line: dict[str, Any]) -> SheetLine:
    sheet = line["sheet"]
    return SheetLine(
        value=int(sheet["value"]),
        winner=int(sheet["winner"]),
        folded={int(s): int(v) for s, v in sheet.get("folded", {}).items()},
        penalty={int(s): int(v) for s, v in sheet.get("penalty", {}).items()},
    )


def sheet_game(
    *,
    number: int,
    hands: list[dict[str, Any]],
    table_size: int,
    tournament: Any,
    first_dealer: int | None = None,
) -> dict[str, Any]:
    """Replay one game's sheet lines through the rules; return the game's
    winner and marks (and the lines), or raise UserError naming game, hand
    and rule."""
    try:
        game = game_from_sheet(
            [_sheet_line(h) for h in hands],
            seats=table_size,
            rules=rules_for(tournament),
            first_dealer=first_dealer,
        )
    except SheetError as error:
        reason = SHEET_RULE_MESSAGES.get(error.code, error.message)
        raise UserError(
            _("Spiel %(g)d, Einzelspiel %(h)s: %(reason)s (Regel: %(rule)s).")
            % {
                "g": number,
                "h": error.line or "?",
                "reason": reason,
                "rule": error.rule,
            },
            code=error.code,
        ) from error
    outcome = game.outcome()
    if outcome is None:
        left = sorted(s for s, m in game.marks.items() if m > 0)
        raise UserError(
            _(
                "Spiel %(g)d ist nach %(h)d Einzelspielen noch nicht entschieden: "
                "Plätze %(seats)s haben noch Schräm."
            )
            % {"g": number, "h": len(hands), "seats": ", ".join(map(str, left))},
            code="game_unfinished",
        )
    return {
        "winner": outcome.winner,
        "marks": outcome.marks[outcome.winner],
        "hands": [_sheet_line(h).to_json() for h in hands],
    }


def bot_games(
    *, table_size: int, tournament: Any, seed: str, bot: str = "greedy"
) -> list[dict[str, int]]:
    """A table's games played by rules-module bots (demo, practice): the
    winner's seat and marks per game. The highest seat deals first, then
    each game's winner deals the next (RULES.md §2)."""
    rules = rules_for(tournament)
    bots = make_bots([bot], table_size, zlib.crc32(seed.encode()))
    rng = Random(f"{seed}:deal")
    out = []
    dealer = table_size
    for _game in range(tournament.games_per_series):
        game = GameState(table_size, rules, first_dealer=dealer)
        dealer = play_game(game, bots, rng)
        outcome = game.outcome()
        assert outcome is not None
        out.append({"winner": outcome.winner, "marks": outcome.marks[outcome.winner]})
    return out
