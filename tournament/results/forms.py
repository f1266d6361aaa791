"""The referee's result form: five games, quick or as sheet lines.

Quick: per game the winner's seat and the marks they kept. Sheet: per game
one hand per line in the short notation of the paper score sheet
(`tournament.results.notation`): ``3 G1 P2:1 P4:2``.

The form reads what it can of every game and keeps what it cannot read as
`GameError`s; the view adds the rules' mistakes (`adapter.GameErrors`) and
shows them all at once, each in its game's box (`add_game_errors`).
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from django import forms
from django.forms import BoundField
from django.http import QueryDict
from django.utils.datastructures import MultiValueDict
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.core.errors import UserError
from tournament.core.forms import first_input_id
from tournament.core.rules import tournament_rules
from tournament.models import ResultVersion, Table
from tournament.models.results import winners_and_marks
from tournament.results.adapter import GameError, GameErrors, GameInput, playable_games
from tournament.results.notation import NotationError, hand_text, parse_hand, quote
from tournament.results.services import result_check, table_left

# Unreadable lines reported per game; the rest are counted.
NOTATION_ERRORS_SHOWN = 5
# A hand quoted beside its mistake.
LINE_QUOTE_MAX = 40


class GameNote(Protocol):
    """What the form shows with a game besides its fields: a picture of it
    (its rows on a photographed sheet) and a word about it; `flagged`: read
    unsure, the person must look."""

    @property
    def text(self) -> str: ...
    @property
    def image_url(self) -> str: ...
    @property
    def image_alt(self) -> str: ...
    @property
    def flagged(self) -> bool: ...


class ResultForm(forms.Form):
    MODES = [
        (ResultVersion.Mode.QUICK, gettext_lazy("Schnelleingabe")),
        (ResultVersion.Mode.SHEET, gettext_lazy("Spielliste (Einzelspiele)")),
    ]
    mode = forms.ChoiceField(
        choices=MODES, initial=ResultVersion.Mode.QUICK, widget=forms.RadioSelect
    )
    revision = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=gettext_lazy("Grund der Korrektur"), max_length=300, required=False
    )

    def __init__(
        self,
        *args: Any,
        seats: list[tuple[int, str]],
        games: int,
        start_marks: int,
        correction: bool = False,
        left: dict[int, int] | None = None,
        series_games: int | None = None,
        notes: Mapping[int, GameNote] | None = None,
        **kwargs: Any,
    ) -> None:
        """`left`: the seats whose player withdrew during the series, each
        with the number of games he plays: the later games offer only the
        players still at the table. `games`: the games the table plays
        (fewer than the series' `series_games` when it is left with too few
        players for the rest). `notes`: shown with their games."""
        super().__init__(*args, **kwargs)
        self.games = games
        self.notes = dict(notes or {})
        self.series_games = series_games or games
        self.correction = correction
        self.left = left or {}
        self.names = dict(seats)
        # What clean() read: per game its input (None: refused already), and
        # the lines it could not read.
        self.entered: list[GameInput | None] | None = None
        self.game_errors: list[GameError] = []
        self._lines: dict[int, list[str]] = {}
        if correction:
            self.fields["reason"].required = True
            self.fields["reason"].error_messages["required"] = _(
                "Für eine Korrektur eines bestätigten Ergebnisses bitte einen "
                "Grund angeben."
            )
        seat_choices = [(str(n), f"{n}: {name}") for n, name in seats]
        for g in range(1, games + 1):
            self.fields[f"g{g}_winner"] = forms.TypedChoiceField(
                label=_("Gewinner Spiel %(g)d") % {"g": g},
                choices=seat_choices,
                coerce=int,
                required=False,
                widget=forms.RadioSelect,
                error_messages={
                    "invalid_choice": _("Diesen Sitz gibt es an diesem Tisch nicht.")
                },
            )
            # Big tap targets 1..7 instead of a number field: one thumb.
            self.fields[f"g{g}_marks"] = forms.TypedChoiceField(
                label=_("Schräm übrig beim Gewinner"),
                choices=[(str(m), str(m)) for m in range(1, start_marks + 1)],
                coerce=int,
                required=False,
                widget=forms.RadioSelect,
                error_messages={
                    "invalid_choice": _("Der Gewinner hat 1 bis %(m)d Schräm übrig.")
                    % {"m": start_marks}
                },
            )
            self.fields[f"g{g}_hands"] = forms.CharField(
                label=_("Einzelspiele Spiel %(g)d") % {"g": g},
                required=False,
                widget=forms.Textarea(
                    attrs={
                        "rows": 4,
                        "spellcheck": "false",
                        "autocapitalize": "characters",
                        "autocomplete": "off",
                        "aria-describedby": "sheet-help",
                        "placeholder": _("z. B. 3 G1 P2:1 P4:2"),
                    }
                ),
            )

    def game_fields(
        self,
    ) -> list[
        tuple[
            int,
            BoundField,
            BoundField,
            BoundField,
            bool,
            list[Any],
            str,
            GameNote | None,
        ]
    ]:
        """Per game: its number, winner, marks and hands fields, whether it
        has a mistake, the winner's choices (the players who play it), who
        no longer plays it ("" if everybody does) and its note (or None)."""
        out = []
        for g in range(1, self.games + 1):
            winner, marks, hands = (
                self[f"g{g}_{p}"] for p in ("winner", "marks", "hands")
            )
            errors = bool(winner.errors or marks.errors or hands.errors)
            gone = [n for n, plays in sorted(self.left.items()) if plays < g]
            radios = [r for r in winner if int(r.data["value"]) not in gone]
            out.append(
                (
                    g,
                    winner,
                    marks,
                    hands,
                    errors,
                    radios,
                    self._gone_text(gone),
                    self.notes.get(g),
                )
            )
        return out

    def _gone_text(self, gone: list[int]) -> str:
        return "; ".join(
            _("ohne Sitz %(s)d: %(name)s ist abgemeldet")
            % {"s": n, "name": self.names.get(n, "?")}
            for n in gone
        )

    def unplayed_text(self) -> str:
        """The games the table no longer plays, in words ("" if none)."""
        if self.games >= self.series_games:
            return ""
        first = self.games + 1
        games = (
            str(first) if first == self.series_games else f"{first}–{self.series_games}"
        )
        return ngettext(
            "Spiel %(games)s wird nicht gespielt: am Tisch sind nur noch %(n)d "
            "Spieler, zu wenige für ein Spiel. Es zählt für niemanden.",
            "Spiele %(games)s werden nicht gespielt: am Tisch sind nur noch "
            "%(n)d Spieler, zu wenige für ein Spiel. Sie zählen für niemanden.",
            self.series_games - self.games,
        ) % {"games": games, "n": len(self.names) - len(self.left)}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # Bound to a request's POST (unbound: Django's empty MultiValueDict).
        if self.data and isinstance(self.data, MultiValueDict):
            for g in range(1, self.games + 1):
                if len(self.data.getlist(f"g{g}_winner")) > 1:
                    self.add_error(
                        f"g{g}_winner",
                        _("Zwei Gewinner angegeben – es gibt genau einen."),
                    )
        mode = data.get("mode")
        if mode == ResultVersion.Mode.SHEET:
            self.entered = [self._sheet_game(g, data) for g in range(1, self.games + 1)]
        elif mode == ResultVersion.Mode.QUICK:
            self.entered = [self._quick_game(g, data) for g in range(1, self.games + 1)]
        return data

    def _quick_game(self, g: int, data: dict[str, Any]) -> GameInput | None:
        if f"g{g}_winner" in self.errors or f"g{g}_marks" in self.errors:
            return None
        return GameInput(
            winner=data.get(f"g{g}_winner") or None,
            marks=data.get(f"g{g}_marks") or None,
        )

    def _sheet_game(self, g: int, data: dict[str, Any]) -> GameInput:
        """The hands of game `g` up to the first line that is not in the
        notation; every such line becomes a GameError."""
        text = data.get(f"g{g}_hands") or ""
        lines = [line for line in text.splitlines() if line.strip()]
        self._lines[g] = lines
        hands: list[dict[str, Any]] = []
        unreadable: list[GameError] = []
        for h, line in enumerate(lines, 1):
            try:
                hand = parse_hand(line)
            except NotationError as error:
                unreadable.append(
                    GameError(g, error.message, "hands", hand=h, code="notation")
                )
            else:
                if not unreadable:
                    hands.append(hand)
        shown = unreadable[:NOTATION_ERRORS_SHOWN]
        if len(unreadable) > len(shown):
            more = len(unreadable) - len(shown)
            shown.append(
                GameError(
                    g,
                    ngettext(
                        "%(n)d weitere Zeile ist unverständlich",
                        "%(n)d weitere Zeilen sind unverständlich",
                        more,
                    )
                    % {"n": more},
                    "hands",
                    hand=unreadable[len(shown)].hand,
                    code="notation",
                )
            )
        self.game_errors += shown
        return GameInput(hands=tuple(hands), partial=bool(unreadable))

    def error_text(self, error: GameError) -> str:
        """A mistake as its game's box shows it (the box names the game)."""
        lines = self._lines.get(error.game, [])
        if error.hand is not None and error.hand <= len(lines):
            return _("Einzelspiel %(h)d („%(line)s“): %(text)s.") % {
                "h": error.hand,
                "line": quote(lines[error.hand - 1], LINE_QUOTE_MAX),
                "text": error.text,
            }
        if error.hand is not None:
            return _("Einzelspiel %(h)d: %(text)s.") % {
                "h": error.hand,
                "text": error.text,
            }
        return _("%(text)s.") % {"text": capfirst(error.text)}

    def add_game_errors(self, errors: Sequence[GameError]) -> None:
        """Show each mistake beside its game, in game and hand order."""
        for error in sorted(errors, key=lambda e: (e.game, e.hand or 0)):
            field = f"g{error.game}_{error.field}"
            self.add_error(
                field if field in self.fields else None, self.error_text(error)
            )

    def add_refusal(self, error: UserError) -> None:
        """A save refused as a whole (a conflict with a newer entry, a
        correction without its reason): said above the form, or beside the
        reason; what was typed stays, next to the newer state."""
        self.add_error(
            "reason" if error.code == "reason_required" else None, error.message
        )

    def error_games(self) -> list[tuple[int, str]]:
        """The games with a mistake, for the list of links above the form:
        each with the id of the input its link leads to, the first of the
        game's fields with a mistake, in the order the chosen mode shows
        them (the sheet's lines first when it is the sheet)."""
        sheet = self["mode"].value() == ResultVersion.Mode.SHEET
        out = []
        for g, winner, marks, hands, errors, radios, _gone, _note in self.game_fields():
            if not errors:
                continue
            order = (hands, winner, marks) if sheet else (winner, marks, hands)
            field = next(f for f in order if f.errors)
            if field is winner and radios:
                target = str(radios[0].id_for_label)
            else:
                target = first_input_id(field)
            out.append((g, target))
        return out

    def error_summary(self) -> str:
        count = sum(len(errors) for errors in self.errors.values())
        return ngettext(
            "%(n)d Fehler – bitte korrigieren und erneut speichern. Alles "
            "Eingegebene steht noch da.",
            "%(n)d Fehler – bitte korrigieren und erneut speichern. Alles "
            "Eingegebene steht noch da.",
            count,
        ) % {"n": count}


def initial_from_games(
    table: Table,
    games: Mapping[int, tuple[int, int]],
    *,
    hands: Mapping[int, str] | None = None,
    mode: str = ResultVersion.Mode.QUICK,
) -> dict[str, Any]:
    """A ResultForm's initial values at the table's current revision: per
    game number its winner's seat and the marks he kept, and its hands as
    sheet lines (`hands`); a game not named stays empty. The one place
    outside the form that knows its fields' names (an entry to correct, a
    photographed sheet's review)."""
    initial: dict[str, Any] = {"revision": table.result_revision, "mode": mode}
    for g, (winner, marks) in games.items():
        initial[f"g{g}_winner"] = str(winner)
        initial[f"g{g}_marks"] = str(marks)
    for g, text in (hands or {}).items():
        if text:
            initial[f"g{g}_hands"] = text
    return initial


def result_initial(table: Table, version: ResultVersion | None) -> dict[str, Any]:
    """A ResultForm's initial values: `version`'s games to correct or check
    (quick or sheet, as it was entered), else empty; at the table's current
    revision."""
    if version is None:
        return initial_from_games(table, {})
    games = dict(enumerate(version.games, 1))
    return initial_from_games(
        table,
        dict(enumerate(winners_and_marks(version.games), 1)),
        hands={
            g: "\n".join(hand_text(h) for h in game.get("hands") or ())
            for g, game in games.items()
        },
        mode=(
            ResultVersion.Mode.SHEET
            if version.mode == ResultVersion.Mode.SHEET
            else ResultVersion.Mode.QUICK
        ),
    )


def table_result_form(
    table: Table,
    data: QueryDict | None = None,
    initial: dict[str, Any] | None = None,
    *,
    correction: bool = False,
    notes: Mapping[int, GameNote] | None = None,
) -> ResultForm:
    """The result form of `table`: its seats' players, the tournament's
    games and start marks (a referee's page and a player's alike); `notes`
    shown with their games (a photographed sheet's)."""
    tournament = table.series.tournament
    left = table_left(table)
    return ResultForm(
        data,
        initial=initial,
        seats=[(s.number, s.entry.player.full_name) for s in table.seats.all()],
        games=playable_games(
            table_size=table.size,
            left=left,
            games=tournament.games_per_series,
            min_seats=tournament_rules(tournament).min_seats,
        ),
        start_marks=tournament.start_marks,
        correction=correction,
        left=left,
        series_games=tournament.games_per_series,
        notes=notes,
    )


_Saved = TypeVar("_Saved")


def save_entered(
    form: ResultForm,
    table: Table,
    save: Callable[[list[GameInput], dict[str, Any]], _Saved],
) -> _Saved | None:
    """What `save` makes of the posted games (given them and the form's
    cleaned data) when neither the form nor the rules have anything
    against them; else None, with every mistake of every game beside it
    (the rules check the games that could be read, too) and all that was
    typed kept. A refusal of the save as a whole (`UserError`, from `save`
    or the rules) is the caller's to show."""
    valid = form.is_valid()
    if form.entered is None:
        return None  # no entry mode: the form says why
    errors = list(form.game_errors)
    games = [game for game in form.entered if game is not None]
    try:
        if valid and not errors and len(games) == len(form.entered):
            return save(games, form.cleaned_data)
        result_check(
            games=form.entered, table=table, tournament=table.series.tournament
        )
    except GameErrors as error:
        errors += error.errors
    except UserError:
        form.add_game_errors(errors)
        raise
    form.add_game_errors(errors)
    return None


def saved_message(version: ResultVersion) -> str:
    """What a referee reads after saving a table's result: whether it
    counts now or waits for a second person."""
    saved = _("Ergebnis von Tisch %(t)d gespeichert.") % {"t": version.table.number}
    if version.status == ResultVersion.Status.PENDING:
        return saved + " " + _("Es zählt, sobald eine zweite Person es bestätigt.")
    return saved + " " + _("Es zählt ab sofort.")
