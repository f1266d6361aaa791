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
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only people in the referee group; organizers may enter anyway.
        referees = self.fields["referees"]
        assert isinstance(referees, RefereeChoiceField)  # Meta.field_classes
        self.fields["table_entry"].required = False
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
