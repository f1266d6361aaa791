"""A tournament's settings. Forms validate and translate input;
services decide and write."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from tournament.core.forms import IdsChoiceField, NameField
from tournament.core.roles import REFEREE
from tournament.models import Tournament
from tournament.tournaments.selectors import championships_in_year
from tournament.tournaments.services import TOURNAMENT_FIELDS

if TYPE_CHECKING:
    # django-stubs types a ModelForm by its model; Django's class takes no
    # type argument at run time.
    _TournamentModelForm = forms.ModelForm[Tournament]
else:
    _TournamentModelForm = forms.ModelForm


class RefereeChoiceField(IdsChoiceField):
    def label_from_instance(self, obj: User) -> str:
        name = obj.get_full_name()
        return f"{name} ({obj.get_username()})" if name else obj.get_username()


class TournamentForm(_TournamentModelForm):
    class Meta:
        model = Tournament
        fields = TOURNAMENT_FIELDS
        field_classes = {
            "referees": RefereeChoiceField,
            "name": NameField,
            "venue": NameField,
        }
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "referees": forms.CheckboxSelectMultiple,
            "table_entry": forms.RadioSelect,
        }
        help_texts = {
            "slug": _(
                "Für die Adressen, z. B. rm-2026: Kleinbuchstaben, Ziffern und "
                "Bindestriche. Wird beim Tippen aus dem Namen gebildet und lässt "
                "sich ändern."
            ),
            "win_bonus": _("Punkte für den Spielgewinn zusätzlich zu den Schräm."),
            "rule_preset": _(
                "Gilt für die Eingabe der Spiellisten und für digitale Tische. "
                "Marienheide spielt meist mit 5 Schräm: dann „Schräm zu Beginn“ "
                "auf 5 setzen. Nach dem ersten Ergebnis nicht mehr änderbar."
            ),
            "is_championship": _(
                "Ankreuzen für die Meisterschaft des Jahres (z. B. die "
                "Rheinland-Meisterschaft): Sobald das Turnier beendet ist, steht "
                "sein Sieger in der Liste der Meister (Seite „Die Meister“) und "
                "zählt für die Rekorde. Ohne Haken erscheint das Turnier dort "
                "nicht, auch wenn es „Meisterschaft“ heißt. Üblich ist eine "
                "Meisterschaft pro Jahr."
            ),
        }

    # Asked for only when the year has a championship already.
    second_championship = forms.BooleanField(
        label=_("Ja, eine weitere Meisterschaft in diesem Jahr"),
        required=False,
        help_text=_("Die Liste der Meister führt dann für dieses Jahr mehrere Sieger."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only people in the referee group; organizers may enter anyway.
        referees = self.fields["referees"]
        assert isinstance(referees, RefereeChoiceField)  # Meta.field_classes
        self.fields["table_entry"].required = False
        # Shown, under the flag, once the year's other championship was named.
        self.ask_second = False
        order = [name for name in self.fields if name != "second_championship"]
        order.insert(order.index("is_championship") + 1, "second_championship")
        self.order_fields(order)
        referees.queryset = (
            get_user_model()
            .objects.filter(groups__name=REFEREE, is_active=True)
            .distinct()
            .order_by("username")
        )

    def clean_table_entry(self) -> str:
        # Radio buttons always send the checked one; a post without it (an
        # older form, a script) means the safe choice: referees only.
        value: str = self.cleaned_data.get("table_entry") or ""
        return value or Tournament.TableEntry.OFF

    def clean(self) -> dict[str, Any]:
        """A second championship in one year is saved only once the
        organizer confirmed it: the list of champions would show two
        winners for that year."""
        data = super().clean() or {}
        date = data.get("date")
        if data.get("is_championship") and date is not None:
            others = championships_in_year(date.year, other_than=self.instance.pk)
            if others and not data.get("second_championship"):
                self.add_error(
                    "is_championship",
                    _(
                        "%(year)d hat schon eine Meisterschaft: %(names)s. Soll "
                        "dies eine weitere sein, bitte darunter „Ja, eine weitere "
                        "Meisterschaft in diesem Jahr“ ankreuzen; sonst den Haken "
                        "bei „Meisterschaft“ entfernen."
                    )
                    % {
                        "year": date.year,
                        "names": ", ".join(f"„{name}“" for name in others),
                    },
                )
                self.ask_second = True
        return data

    def clean_slug(self) -> str:
        # Typed in capitals it means the same address: take it in lower case.
        slug: str = self.cleaned_data["slug"]
        return slug.lower()


class SignInForm(AuthenticationForm):
    """The login form, saying what went wrong: the name or the password
    (Django's own message asked to enter both, which the person had)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Benutzername oder Passwort ist falsch. Groß- und Kleinschreibung "
            "zählen bei beiden."
        ),
    }
