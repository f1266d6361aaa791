"""The adapter between a table's entered games and `scoring`: quick
games are checked, sheet lines replayed through the rules."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import SheetError
from scoring.game import game_from_sheet
from scoring.sheet import SheetLine
from tournament.core.errors import UserError
from tournament.core.rules import game_points, tournament_rules
from tournament.models import Tournament


@dataclass(frozen=True)
class GameInput:
    """One game as entered: the quick way (winner seat and marks kept) or
    the sheet way (the hands as sheet lines, from which both follow)."""

    winner: int | None = None
    marks: int | None = None
    hands: tuple[dict[str, Any], ...] | None = None


def _quick_game(
    number: int, game: GameInput, table_size: int, start_marks: int
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
    *, games: Sequence[GameInput], table_size: int, tournament: Tournament
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
        out[-1]["points"] = game_points(out[-1]["marks"], tournament)
    return {"games": out}


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
    tournament: Tournament,
    first_dealer: int | None = None,
) -> dict[str, Any]:
    """Replay one game's sheet lines through the rules; return the game's
    winner and marks (and the lines), or raise UserError naming game, hand
    and rule."""
    try:
        game = game_from_sheet(
            [_sheet_line(h) for h in hands],
            seats=table_size,
            rules=tournament_rules(tournament),
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
