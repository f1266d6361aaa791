"""Forms of the history pages: a season ranking's settings, the champions'
upload, merging two persons. Forms validate and translate input; the
services decide and write."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.core.forms import MAX_ID, IdsChoiceField, NameField
from tournament.core.l10n import short_date
from tournament.models import Person, Ranking, Tournament

if TYPE_CHECKING:
    _RankingModelForm = forms.ModelForm[Ranking]
else:
    _RankingModelForm = forms.ModelForm


class TournamentChoiceField(IdsChoiceField):
    def label_from_instance(self, obj: Tournament) -> str:
        return f"{obj.name} ({short_date(obj.date)})"


class RankingForm(_RankingModelForm):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Ranking
        fields = ["name", "slug", "method", "place_points", "best_of", "tournaments"]
        field_classes = {"name": NameField, "tournaments": TournamentChoiceField}
        widgets = {
            "tournaments": forms.CheckboxSelectMultiple,
            "method": forms.RadioSelect,
            "best_of": forms.NumberInput(attrs={"min": 1, "max": 100}),
        }
        help_texts = {
            "slug": _(
                "Für die Adresse, z. B. wertung-2026: Kleinbuchstaben, Ziffern "
                "und Bindestriche."
            ),
            "method": _(
                "Punkte nach Platz: jeder Platz im Turnier bringt die Punkte der "
                "Tabelle unten (geteilte Plätze bekommen beide die Punkte des "
                "Platzes). Turnierpunkte: die Punkte des Turniers zählen."
            ),
            "tournaments": _("Die Turniere, die zur Wertung zählen."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tournaments = self.fields["tournaments"]
        assert isinstance(tournaments, TournamentChoiceField)
        tournaments.queryset = Tournament.objects.order_by("-date", "name")
        if self.instance.pk:
            self.fields["version"].initial = self.instance.version

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        return slug.lower()

    def clean_place_points(self) -> str:
        text: str = self.cleaned_data["place_points"]
        return ",".join(
            part.strip() for part in text.replace(";", ",").split(",") if part.strip()
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("method") == Ranking.Method.PLACES and not data.get("place_points"):
            self.add_error(
                "place_points",
                _("Bei „Punkte nach Platz“ bitte die Punkte pro Platz angeben."),
            )
        best_of = data.get("best_of")
        tournaments = data.get("tournaments")
        if best_of is not None and best_of < 1:
            self.add_error("best_of", _("Es zählt mindestens ein Ergebnis."))
        elif (
            best_of is not None
            and tournaments is not None
            and best_of > len(tournaments)
        ):
            self.add_error(
                "best_of",
                _(
                    "Es zählen höchstens so viele Ergebnisse, wie die Wertung "
                    "Turniere hat (%(n)d)."
                )
                % {"n": len(tournaments)},
            )
        return data


class ChampionsUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Excel-Datei (.xlsx)"),
        help_text=_(
            "Erste Zeile: Überschriften – Jahr, Name (oder Vorname und Nachname), "
            "Verein, Punkte. Die Liste ersetzt die bisher importierten Meister."
        ),
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ".xlsx,application/vnd.openxmlformats-officedocument."
                "spreadsheetml.sheet"
            }
        ),
    )


class MergeForm(forms.Form):
    """Which person the one of the page is the same as (by number)."""

    other = forms.IntegerField(
        label=_("Nummer der anderen Person"),
        min_value=1,
        max_value=MAX_ID,
        help_text=_(
            "Die Nummer steht auf der Seite der Person, hinter „Person Nr.“; "
            "die Suche unter „Spieler über die Jahre“ findet sie."
        ),
    )

    def clean_other(self) -> Person:
        number = self.cleaned_data["other"]
        person = Person.objects.filter(pk=number).first()
        if person is None:
            raise forms.ValidationError(
                _("Eine Person Nr. %(n)d gibt es nicht.") % {"n": number}
            )
        return person


class ReviewForm(forms.Form):
    """The decision on an uncertain match: the person's number, or 0 for
    "another person"."""

    player = forms.IntegerField(min_value=1, max_value=MAX_ID)
    same_as = forms.IntegerField(min_value=0, max_value=MAX_ID)
