"""The desk's forms: entries, withdrawals, teams, the player import.
Forms validate and translate input; services decide and write."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.core.forms import IdsChoiceField, NameField
from tournament.models import Entry, Player, Tournament
from tournament.registration.selectors import WithdrawalMoment
from tournament.registration.services import PlayerData


class EntryForm(forms.Form):
    """The desk's keyboard-first registration form."""

    start_number = forms.IntegerField(
        label=_("Startnummer"),
        min_value=1,
        max_value=Entry.MAX_START_NUMBER,
        required=False,
        help_text=_("Leer lassen: nächste freie Nummer."),
    )
    first_name = NameField(label=_("Vorname"), max_length=100)
    last_name = NameField(label=_("Nachname"), max_length=100)
    club = NameField(label=_("Verein"), max_length=150, required=False)
    town = NameField(label=_("Ort"), max_length=150, required=False)
    category = forms.ChoiceField(
        label=_("Kategorie"), choices=Player.Category.choices, initial="open"
    )
    confirm_duplicate = forms.BooleanField(
        label=_("Trotzdem anlegen (gleichnamiger Spieler ist schon gemeldet)"),
        required=False,
        widget=forms.HiddenInput,
    )

    def player_data(self) -> PlayerData:
        d = self.cleaned_data
        return PlayerData(
            first_name=d["first_name"],
            last_name=d["last_name"],
            club=d["club"],
            town=d["town"],
            category=d["category"],
            start_number=d["start_number"],
        )

    @classmethod
    def for_entry(cls, entry: Entry) -> "EntryForm":
        p = entry.player
        return cls(
            initial={
                "start_number": entry.start_number,
                "first_name": p.first_name,
                "last_name": p.last_name,
                "club": p.club,
                "town": p.town,
                "category": p.category,
            }
        )


class WithdrawForm(forms.Form):
    """The reason, and in a series he is seated in, after which of its
    games he left (`moment`: his series and table; see
    `selectors.withdrawal_moment`)."""

    reason = forms.CharField(
        label=_("Grund der Abmeldung"), max_length=200, initial=_("abgemeldet")
    )
    series = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, moment: WithdrawalMoment | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.moment = moment or WithdrawalMoment()
        if not self.moment.running:
            return
        n, games = self.moment.series, self.moment.games
        if self.moment.result_entered:
            # His table's result names him in every game: he played them.
            after = [games]
        elif self.moment.released:
            after = list(range(games + 1))
        else:
            after = [0]  # drawn, not begun: he misses all of it
        choices = [(str(g), _after_text(g, n, games)) for g in after]
        self.fields["after_game"] = forms.TypedChoiceField(
            label=_("Wann ist er gegangen? (Serie %(s)d, Tisch %(t)d)")
            % {"s": n, "t": self.moment.table},
            choices=choices,
            coerce=int,
            widget=forms.RadioSelect,
            error_messages={"required": _("Bitte wählen, nach welchem Spiel.")},
        )
        self.fields["series"].initial = n


def _after_text(game: int, series: int, games: int) -> str:
    if game == 0:
        return str(_("vor Spiel 1 – er spielt Serie %(s)d nicht mit") % {"s": series})
    if game == games:
        return str(_("nach der Serie – alle %(n)d Spiele zählen") % {"n": games})
    return str(_("nach Spiel %(g)d") % {"g": game})


class TeamForm(forms.Form):
    name = NameField(label=_("Mannschaftsname"), max_length=150)
    members = IdsChoiceField(
        label=_("Spieler (höchstens 4)"),
        queryset=Entry.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = self.fields["members"]
        assert isinstance(members, IdsChoiceField)
        members.queryset = (
            Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
            .select_related("player")
            .order_by("player__last_name", "player__first_name")
        )

    def clean_members(self) -> list[Entry]:
        members = list(self.cleaned_data["members"])
        if len(members) > 4:
            raise forms.ValidationError(_("Eine Mannschaft hat höchstens 4 Spieler."))
        return members


class PlayerImportForm(forms.Form):
    file = forms.FileField(
        label=_("Spielerliste (Excel, LibreOffice oder CSV)"),
        help_text=_(
            "Eine Zeile pro Spieler, darüber eine Zeile mit Überschriften (z. B. "
            "Vorname, Nachname, Verein). Welche Spalte wohin gehört, zeigt und "
            "ändert die Vorschau."
        ),
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ".xlsx,.xls,.ods,.csv,.txt,application/vnd.openxmlformats-"
                "officedocument.spreadsheetml.sheet,application/vnd.ms-excel,"
                "application/vnd.oasis.opendocument.spreadsheet,text/csv"
            }
        ),
    )
