"""The adapter between a table's entered games and `scoring`: quick
games are checked, sheet lines replayed through the rules.

Every game is checked, whatever the others hold, and every mistake is
reported at once (`GameErrors`), each naming its game and, for sheets, its
hand: a referee corrects the whole table in one go. The rules are named in
words; the engine's codes and paragraphs stay inside."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.errors import SheetError
from scoring.game import GameState, game_from_sheet
from scoring.sheet import SheetLine
from tournament.core.errors import UserError
from tournament.core.rules import game_points, tournament_rules
from tournament.models import Tournament
from tournament.models.results import StoredGame, StoredResult


@dataclass(frozen=True)
class GameInput:
    """One game as entered: the quick way (winner seat and marks kept) or
    the sheet way (the hands as sheet lines, from which both follow).

    `partial`: the hands are only those before a line the form could not
    read; they are checked, but the game cannot be decided from them."""

    winner: int | None = None
    marks: int | None = None
    hands: tuple[dict[str, Any], ...] | None = None
    partial: bool = False


@dataclass(frozen=True)
class GameError:
    """One mistake in one game: `text` says what is wrong (no game number,
    no final stop: the form shows it inside the game's box), `field` which
    part of the game ("winner", "marks" or "hands"), `hand` the 1-based hand
    (non-empty sheet line) it is in, if any."""

    game: int
    text: str
    field: str
    hand: int | None = None
    code: str = "invalid"

    @property
    def message(self) -> str:
        """The whole sentence, for a list outside the form (an import)."""
        if self.hand is not None:
            return _("Spiel %(g)d, Einzelspiel %(h)d: %(text)s.") % {
                "g": self.game,
                "h": self.hand,
                "text": self.text,
            }
        return _("Spiel %(g)d: %(text)s.") % {"g": self.game, "text": self.text}


class GameErrors(UserError):
    """Mistakes in the games of one entry, in game (and hand) order."""

    def __init__(self, errors: Sequence[GameError]) -> None:
        ordered = sorted(errors, key=lambda e: (e.game, e.hand or 0))
        super().__init__(
            " ".join(e.message for e in ordered),
            code=ordered[0].code if ordered else "invalid",
        )
        self.errors = ordered


def seats_text(seats: Sequence[int]) -> str:
    """1 / 1 und 2 / 1, 2 und 3."""
    names = [str(s) for s in seats]
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s und %(last)s") % {
        "first": ", ".join(names[:-1]),
        "last": names[-1],
    }


def withdrawn_seat_text(seat: int) -> str:
    """A seat whose player withdrew before this game, named in a game."""
    return _("Sitz %(s)d ist abgemeldet und spielt dieses Spiel nicht mehr mit") % {
        "s": seat
    }


def present_seats(table_size: int, left: Mapping[int, int], game: int) -> list[int]:
    """The seats that play game `game`: all but those whose player withdrew
    before it (`left`: seat → the number of games he plays)."""
    return [s for s in range(1, table_size + 1) if left.get(s, game) >= game]


def playable_games(
    *, table_size: int, left: Mapping[int, int], games: int, min_seats: int
) -> int:
    """How many of the series' games the table plays: each game with at
    least `min_seats` players still at it (the rule set's smallest table).
    A table left with fewer does not play its later games."""
    return sum(
        1
        for g in range(1, games + 1)
        if len(present_seats(table_size, left, g)) >= min_seats
    )


def _quick_game(
    number: int,
    game: GameInput,
    table_size: int,
    start_marks: int,
    present: Sequence[int],
) -> StoredGame:
    winner, marks = game.winner, game.marks
    errors = []
    if winner is None:
        errors.append(
            GameError(
                number, _("bitte den Gewinner wählen"), "winner", code="no_winner"
            )
        )
    elif 1 <= winner <= table_size and winner not in present:
        errors.append(
            GameError(
                number, withdrawn_seat_text(winner), "winner", code="withdrawn_seat"
            )
        )
    elif not 1 <= winner <= table_size:
        errors.append(
            GameError(
                number,
                _("Sitz %(s)d gibt es an diesem Tisch nicht") % {"s": winner},
                "winner",
                code="unknown_seat",
            )
        )
    if marks is None:
        errors.append(
            GameError(
                number,
                _("bitte wählen, wie viele Schräm der Gewinner übrig hat"),
                "marks",
                code="no_marks",
            )
        )
    elif marks < 1:
        errors.append(
            GameError(
                number,
                _("der Gewinner hat mindestens 1 Schräm übrig"),
                "marks",
                code="winner_without_marks",
            )
        )
    elif marks > start_marks:
        errors.append(
            GameError(
                number,
                _("höchstens %(m)d Schräm (so viele hat jeder zu Beginn)")
                % {"m": start_marks},
                "marks",
                code="too_many_marks",
            )
        )
    if errors or winner is None or marks is None:
        raise GameErrors(errors)
    return {"winner": winner, "marks": marks}


def table_result_data(
    *,
    games: Sequence[GameInput | None],
    table_size: int,
    tournament: Tournament,
    left: Mapping[int, int] | None = None,
) -> StoredResult:
    """Validate a table's games (quick or sheet) and return the version data.

    `left`: the seats whose player withdrew during the series, each with the
    number of games he plays; the later games are played without him, and
    only those the players still at the table can play are entered
    (`playable_games`). A game given as None was refused before (the form
    could not read it); the others are still checked. Raises GameErrors with
    every mistake of every game, or UserError when the games do not fit the
    tournament."""
    left = left or {}
    expected = playable_games(
        table_size=table_size,
        left=left,
        games=tournament.games_per_series,
        min_seats=tournament_rules(tournament).min_seats,
    )
    if len(games) != expected:
        raise UserError(
            ngettext(
                "Bitte %(n)d Spiel eingeben (eingegeben: %(k)d).",
                "Bitte alle %(n)d Spiele eingeben (eingegeben: %(k)d).",
                expected,
            )
            % {"n": expected, "k": len(games)},
            code="game_count",
        )
    out: list[StoredGame] = []
    errors: list[GameError] = []
    # The highest seat deals the series' first hand; then the winner of each
    # game deals the first hand of the next (docs/RULES.md §2). None: unknown,
    # as the game before has a mistake.
    dealer: int | None = table_size
    for number, game in enumerate(games, 1):
        present = present_seats(table_size, left, number)
        try:
            if game is None:
                raise GameErrors([])
            if game.hands is not None:
                result = sheet_game(
                    number=number,
                    game=game,
                    table_size=table_size,
                    tournament=tournament,
                    first_dealer=dealer,
                    present=present,
                )
            else:
                result = _quick_game(
                    number, game, table_size, tournament.start_marks, present
                )
        except GameErrors as error:
            errors += error.errors
            dealer = None
            continue
        dealer = result["winner"]
        result["points"] = game_points(result["marks"], tournament)
        out.append(result)
    if errors or len(out) != expected:
        raise GameErrors(errors)
    return {"games": out}


# The rules in words, for referees (codes from scoring.errors.RULE_OF). A
# message may use %(value)d (the line's value), %(fold_max)d (value − 1),
# %(seats)d (seats at the table) and %(max_value)d.
SHEET_RULE_MESSAGES: dict[str, Promise] = {
    "sheet_unknown_seat": gettext_lazy(
        "einen solchen Sitz gibt es an diesem Tisch nicht (Sitze 1 bis %(seats)d)"
    ),
    "sheet_seat_out": gettext_lazy(
        "ein hier genannter Spieler ist schon ausgeschieden (0 Schräm)"
    ),
    "sheet_value_range": gettext_lazy(
        "der Wert eines Einzelspiels liegt zwischen 1 und %(max_value)d"
    ),
    "sheet_winner_folded": gettext_lazy("der Gewinner kann nicht gepasst haben"),
    "sheet_winner_penalised": gettext_lazy(
        "der Gewinner kann keine Strafe bekommen haben"
    ),
    "sheet_fold_range": gettext_lazy(
        "wer passt, zahlt den Wert vor dem Klopfen: mindestens 1 und weniger als "
        "der Endwert, hier also 1 bis %(fold_max)d"
    ),
    "sheet_penalty_range": gettext_lazy(
        "eine Strafe beträgt mindestens 1 Schräm und höchstens den Wert, hier "
        "also 1 bis %(value)d"
    ),
    "sheet_fold_and_penalty": gettext_lazy(
        "ein Spieler kann nicht zugleich passen und bestraft werden"
    ),
    "sheet_hammer_value": gettext_lazy(
        "mit einem Spieler auf dem Hammer (1 Schräm) ist das Einzelspiel "
        "mindestens 2 wert"
    ),
    "sheet_everyone_folded": gettext_lazy(
        "wenn alle anderen passen, gewinnt der, der zuletzt geklopft hat, und "
        "das Einzelspiel ist 1 mehr wert als der höchste bezahlte Betrag"
    ),
    "game_over": gettext_lazy(
        "das Spiel war da schon entschieden – zu viele Zeilen eingetragen"
    ),
    "sheet_no_knock_order": gettext_lazy(
        "so kann nicht geklopft worden sein (ein Klopfen je Passwert, niemand "
        "klopft zweimal hintereinander, höchstens bis zu den eigenen Schräm)"
    ),
}
# A fold at value 1: nobody knocked, so nobody can have folded.
FOLD_WITHOUT_KNOCK = gettext_lazy(
    "bei Wert 1 wurde nicht geklopft, also kann niemand gepasst haben"
)
UNKNOWN_RULE = gettext_lazy("so kann das Einzelspiel nach den Regeln nicht enden")


def sheet_rule_text(
    error: SheetError, hand: dict[str, Any] | None, *, seats: int, max_value: int
) -> str:
    """What a sheet line broke, in words, with the line's numbers."""
    value = 1
    if hand is not None:
        try:
            value = int(hand["sheet"]["value"])
        except (KeyError, TypeError, ValueError):
            value = 1
    if error.code == "sheet_fold_range" and value <= 1:
        return str(FOLD_WITHOUT_KNOCK)
    message = SHEET_RULE_MESSAGES.get(error.code, UNKNOWN_RULE)
    return str(message) % {
        "value": value,
        "fold_max": value - 1,
        "seats": seats,
        "max_value": max_value,
    }


def _sheet_line(line: dict[str, Any]) -> SheetLine:
    sheet = line["sheet"]
    return SheetLine(
        value=int(sheet["value"]),
        winner=int(sheet["winner"]),
        folded={int(s): int(v) for s, v in sheet.get("folded", {}).items()},
        penalty={int(s): int(v) for s, v in sheet.get("penalty", {}).items()},
    )


def _absent_refusal(
    number: int, hands: Sequence[dict[str, Any]], present: Sequence[int], size: int
) -> GameErrors | None:
    """The first sheet line naming a seat that does not play this game."""
    for h, hand in enumerate(hands, 1):
        line = _sheet_line(hand)
        for seat in (line.winner, *line.folded, *line.penalty):
            if seat in present:
                continue
            text = (
                withdrawn_seat_text(seat)
                if 1 <= seat <= size
                else str(SHEET_RULE_MESSAGES["sheet_unknown_seat"]) % {"seats": size}
            )
            code = "withdrawn_seat" if 1 <= seat <= size else "sheet_unknown_seat"
            return GameErrors([GameError(number, text, "hands", hand=h, code=code)])
    return None


def _renumbered(line: SheetLine, to: Mapping[int, int]) -> SheetLine:
    """The line in the engine's numbers; a seat the table does not have
    stays as it is, for the engine to refuse."""
    return SheetLine(
        value=line.value,
        winner=to.get(line.winner, line.winner),
        folded={to.get(s, s): v for s, v in line.folded.items()},
        penalty={to.get(s, s): v for s, v in line.penalty.items()},
    )


def sheet_game(
    *,
    number: int,
    game: GameInput,
    table_size: int,
    tournament: Tournament,
    first_dealer: int | None = None,
    present: Sequence[int] | None = None,
) -> StoredGame:
    """Replay one game's sheet lines through the rules; return the game's
    winner and marks (and the lines), or raise GameErrors naming the hand
    and the rule.

    `first_dealer` None: the dealer is unknown (the game before has a
    mistake). The lines are then tried with every seat dealing and refused
    only if no dealer makes them legal: the dealer decides only which of
    two hammers knocks, and the whole table is checked again when saved.

    `present`: the seats that play this game (all by default). The others'
    players withdrew: the game is played by those left, in the same order
    around the table, and a withdrawn dealer's deal passes clockwise to the
    next of them."""
    hands = list(game.hands or ())
    seats = list(present) if present is not None else list(range(1, table_size + 1))
    if len(seats) < table_size:
        absent = _absent_refusal(number, hands, seats, table_size)
        if absent is not None:
            raise absent
    # The engine numbers the players who play 1..n, in the same order.
    to_engine = {seat: i for i, seat in enumerate(seats, 1)}
    if first_dealer is not None and first_dealer not in to_engine:
        clockwise = [*range(first_dealer, table_size + 1), *seats]
        first_dealer = next(s for s in clockwise if s in to_engine)
    if not hands and not game.partial:
        raise GameErrors(
            [
                GameError(
                    number,
                    _("bitte die Einzelspiele eintragen"),
                    "hands",
                    code="no_hands",
                )
            ]
        )
    rules = tournament_rules(tournament)
    lines = [_sheet_line(h) for h in hands]
    played = [_renumbered(line, to_engine) for line in lines]
    dealers: Sequence[int] = (
        [to_engine[first_dealer]]
        if first_dealer is not None
        else range(len(seats), 0, -1)
    )
    refused: list[SheetError] = []
    state: GameState | None = None
    for dealer in dealers:
        try:
            state = game_from_sheet(
                played, seats=len(seats), rules=rules, first_dealer=dealer
            )
        except SheetError as error:
            refused.append(error)
        else:
            break
    if state is None:
        # The dealer that got furthest is the likeliest.
        refusal = max(refused, key=lambda e: e.line or 0)
        at = refusal.line if refusal.line and refusal.line <= len(hands) else None
        raise GameErrors(
            [
                GameError(
                    number,
                    sheet_rule_text(
                        refusal,
                        hands[at - 1] if at else None,
                        seats=table_size,
                        max_value=rules.max_value,
                    ),
                    "hands",
                    hand=refusal.line,
                    code=refusal.code,
                )
            ]
        )
    if game.partial:
        raise GameErrors([])
    outcome = state.outcome()
    if outcome is None:
        left = sorted(seats[s - 1] for s, m in state.marks.items() if m > 0)
        raise GameErrors(
            [
                GameError(
                    number,
                    ngettext(
                        "nach %(h)d Einzelspiel ist das Spiel noch nicht "
                        "entschieden: Sitze %(seats)s haben noch Schräm",
                        "nach %(h)d Einzelspielen ist das Spiel noch nicht "
                        "entschieden: Sitze %(seats)s haben noch Schräm",
                        len(hands),
                    )
                    % {"h": len(hands), "seats": seats_text(left)},
                    "hands",
                    code="game_unfinished",
                )
            ]
        )
    return {
        "winner": seats[outcome.winner - 1],
        "marks": outcome.marks[outcome.winner],
        "hands": [line.to_json() for line in lines],
    }
