"""Forms validate and translate input; services decide and write."""

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.models import Entry, Player, Tournament
from tournament.roles import REFEREE
from tournament.services.registration import TOURNAMENT_FIELDS, PlayerData

# The largest id a database integer holds.
MAX_ID = 2**63 - 1


class IdsChoiceField(forms.ModelMultipleChoiceField):
    """Rows chosen by id. An id beyond any database integer is an invalid
    choice before it reaches a query (SQLite raises OverflowError on it)."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            try:
                number = int(str(pk))
            except ValueError:
                continue  # not a number at all: the parent refuses it
            if not -MAX_ID - 1 <= number <= MAX_ID:
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": pk},
                )
        return super()._check_values(value)


class RefereeChoiceField(IdsChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        name = obj.get_full_name()
        return f"{name} ({obj.get_username()})" if name else obj.get_username()


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = TOURNAMENT_FIELDS
        field_classes = {"referees": RefereeChoiceField}
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "referees": forms.CheckboxSelectMultiple,
        }
        help_texts = {
            "slug": _("Für Adressen, z. B. rm-2026 (Kleinbuchstaben, Ziffern, -)."),
            "win_bonus": _("Punkte für den Spielgewinn zusätzlich zu den Schräm."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only people in the referee group; organizers may enter anyway.
        self.fields["referees"].queryset = (  # type: ignore[attr-defined]
            get_user_model()
            .objects.filter(groups__name=REFEREE, is_active=True)
            .distinct()
            .order_by("username")
        )


class EntryForm(forms.Form):
    """The desk's keyboard-first registration form."""

    start_number = forms.IntegerField(
        label=_("Startnummer"),
        min_value=1,
        max_value=Entry.MAX_START_NUMBER,
        required=False,
        help_text=_("Leer lassen: nächste freie Nummer."),
    )
    first_name = forms.CharField(label=_("Vorname"), max_length=100)
    last_name = forms.CharField(label=_("Nachname"), max_length=100)
    club = forms.CharField(label=_("Verein"), max_length=150, required=False)
    town = forms.CharField(label=_("Ort"), max_length=150, required=False)
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
    reason = forms.CharField(
        label=_("Grund der Abmeldung"), max_length=200, initial=_("abgemeldet")
    )


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Mannschaftsname"), max_length=150)
    members = IdsChoiceField(
        label=_("Spieler (höchstens 4)"),
        queryset=Entry.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: object, tournament: Tournament, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["members"].queryset = (  # type: ignore[attr-defined]
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
        label=_("Excel-Datei (.xlsx)"),
        help_text=_(
            "Erste Zeile: Überschriften – Vorname, Nachname, optional "
            "Startnummer, Verein, Ort, Kategorie."
        ),
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ".xlsx,application/vnd.openxmlformats-officedocument."
                "spreadsheetml.sheet"
            }
        ),
    )
