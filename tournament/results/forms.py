"""The referee's result form: five games, quick or as sheet lines.

Quick: per game the winner's seat and the marks they kept. Sheet: per game
one hand per line in a short notation copied from the paper score sheet:

    <value> W<seat> [F<seat>:<paid>]… [P<seat>:<marks>]…

e.g. ``3 W1 F2:1 F4:2`` – value 3, seat 1 won, seat 2 folded paying 1, seat 4
folded paying 2. ``P3:1`` records a penalty of 1 mark for seat 3.
"""

import re
from typing import Any

from django import forms
from django.forms import BoundField
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.models import ResultVersion
from tournament.results.services import GameInput

# Numbers of at most 9 digits: a value or seat beyond that is nonsense, and
# int() refuses thousands of digits.
TOKEN = re.compile(r"^(?:(\d{1,9})|([WwFfPp])(\d{1,9})(?::(\d{1,9}))?)$")


def parse_sheet_line(text: str, *, game: int, hand: int) -> dict[str, Any]:
    """One hand in the short notation → a FORMATS.md sheet line."""
    value = None
    winner = None
    folded: dict[str, int] = {}
    penalty: dict[str, int] = {}
    for token in text.split():
        match = TOKEN.match(token)
        if not match:
            raise forms.ValidationError(
                _("Spiel %(g)d, Zeile %(h)d: „%(t)s“ ist unverständlich.")
                % {"g": game, "h": hand, "t": token}
            )
        number, letter, seat, amount = match.groups()
        if number is not None:
            if value is not None:
                raise forms.ValidationError(
                    _("Spiel %(g)d, Zeile %(h)d: zwei Werte angegeben.")
                    % {"g": game, "h": hand}
                )
            value = int(number)
        elif letter.upper() == "W":
            if winner is not None:
                raise forms.ValidationError(
                    _("Spiel %(g)d, Zeile %(h)d: zwei Gewinner angegeben.")
                    % {"g": game, "h": hand}
                )
            winner = int(seat)
        else:
            if amount is None:
                raise forms.ValidationError(
                    _(
                        "Spiel %(g)d, Zeile %(h)d: bei %(t)s fehlt der Betrag, z. B. "
                        "%(t)s:1."
                    )
                    % {"g": game, "h": hand, "t": token}
                )
            target = folded if letter.upper() == "F" else penalty
            target[str(int(seat))] = int(amount)
    if value is None:
        value = 1
    if winner is None:
        raise forms.ValidationError(
            _("Spiel %(g)d, Zeile %(h)d: der Gewinner fehlt (z. B. W1).")
            % {"g": game, "h": hand}
        )
    sheet: dict[str, Any] = {"value": value, "folded": folded, "winner": winner}
    if penalty:
        sheet["penalty"] = penalty
    return {"sheet": sheet}


def sheet_line_text(line: dict[str, Any]) -> str:
    """The short notation of a stored sheet line (to prefill a correction)."""
    sheet = line["sheet"]
    parts = [str(sheet["value"]), f"W{sheet['winner']}"]
    parts += [f"F{s}:{m}" for s, m in sorted(sheet.get("folded", {}).items())]
    parts += [f"P{s}:{m}" for s, m in sorted(sheet.get("penalty", {}).items())]
    return " ".join(parts)


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
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.games = games
        self.seat_numbers = [number for number, _ in seats]
        seat_choices = [(str(n), f"{n}: {name}") for n, name in seats]
        for g in range(1, games + 1):
            self.fields[f"g{g}_winner"] = forms.TypedChoiceField(
                label=_("Gewinner Spiel %(g)d") % {"g": g},
                choices=seat_choices,
                coerce=int,
                required=False,
                widget=forms.RadioSelect,
            )
            # Big tap targets 1..7 instead of a number field: one thumb.
            self.fields[f"g{g}_marks"] = forms.TypedChoiceField(
                label=_("Schräm übrig beim Gewinner"),
                choices=[(str(m), str(m)) for m in range(1, start_marks + 1)],
                coerce=int,
                required=False,
                widget=forms.RadioSelect,
                error_messages={
                    "invalid_choice": _(
                        "Spiel %(g)d: der Gewinner hat 1 bis %(m)d Schräm übrig."
                    )
                    % {"g": g, "m": start_marks}
                },
            )
            self.fields[f"g{g}_hands"] = forms.CharField(
                label=_("Einzelspiele Spiel %(g)d") % {"g": g},
                required=False,
                widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
            )

    def game_fields(self) -> list[tuple[int, BoundField, BoundField, BoundField]]:
        return [
            (g, self[f"g{g}_winner"], self[f"g{g}_marks"], self[f"g{g}_hands"])
            for g in range(1, self.games + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # Bound to a request's POST (unbound: Django's empty MultiValueDict).
        if self.data and isinstance(self.data, MultiValueDict):
            for g in range(1, self.games + 1):
                if len(self.data.getlist(f"g{g}_winner")) > 1:
                    self.add_error(
                        None,
                        _("Spiel %(g)d: zwei Gewinner angegeben – es gibt genau einen.")
                        % {"g": g},
                    )
        return data

    def game_inputs(self) -> list[GameInput]:
        """The games as service input (call after is_valid)."""
        d = self.cleaned_data
        games = []
        for g in range(1, self.games + 1):
            if d["mode"] == ResultVersion.Mode.SHEET:
                lines = [
                    ln for ln in (d[f"g{g}_hands"] or "").splitlines() if ln.strip()
                ]
                if not lines:
                    raise forms.ValidationError(
                        _("Spiel %(g)d: bitte die Einzelspiele eintragen.") % {"g": g}
                    )
                hands = tuple(
                    parse_sheet_line(line, game=g, hand=h)
                    for h, line in enumerate(lines, 1)
                )
                games.append(GameInput(hands=hands))
            else:
                games.append(
                    GameInput(winner=d[f"g{g}_winner"] or None, marks=d[f"g{g}_marks"])
                )
        return games
