"""The audit log's filters (a GET form: every filter is a link)."""

import datetime
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.auditlog.selectors import SYSTEM_ACTOR
from tournament.core.audit import ACTION_LABELS, action_prefixes
from tournament.core.roles import ROLE_GROUPS
from tournament.models import Tournament

# What the action field suggests, by the names the log shows (a group, then
# each single action); the form reads a chosen name back as its actions.
# Anything else typed is an action or a prefix as recorded.
ACTION_SUGGESTIONS = [
    ("result.*", _("Ergebnisse")),
    ("entry.*", _("Spieler")),
    ("seating.*", _("Setzung")),
    ("team.*", _("Mannschaften")),
    ("tournament.*", _("Turnier")),
    ("tiebreak.*", _("Gleichstand")),
    ("job.*", _("Aufträge")),
    ("person.*", _("Personen")),
    ("champions.*", pgettext_lazy("the champions, plural", "Meister")),
    ("ranking.*", _("Wertungen")),
    ("sheetphoto.*", _("Fotos der Spiellisten")),
    # Each single action, by what the log calls it.
    *ACTION_LABELS.items(),
]


# The kinds of rows the services write audit events about, as the filter
# offers them.
OBJECT_TYPES = {
    "tournament": _("Turnier"),
    "entry": _("Spieler"),
    "team": _("Mannschaft"),
    "series": _("Serie"),
    "resultversion": _("Tischergebnis"),
    "tiebreak": _("Gleichstand"),
    "job": _("Druck und Export"),
    "digitaltable": _("Digitaler Tisch"),
    "digitalseat": _("Sitz an einem digitalen Tisch"),
    "person": _("Person"),
    "pastchampion": _("Meister"),
    "ranking": _("Wertung"),
}


def _object_types() -> list[tuple[str, str]]:
    return sorted(
        ((name, str(label)) for name, label in OBJECT_TYPES.items()),
        key=lambda choice: choice[1].lower(),
    )


class AuditFilterForm(forms.Form):
    tournament = forms.ModelChoiceField(
        label=_("Turnier"),
        queryset=Tournament.objects.only("pk", "name", "slug", "date"),
        to_field_name="slug",
        required=False,
        empty_label=_("alle"),
    )
    actor = forms.ChoiceField(label=_("Benutzer"), required=False)
    action = forms.CharField(
        label=_("Aktion"),
        max_length=60,
        required=False,
        help_text=_("z. B. „Ergebnisse“ oder „Ergebnis bestätigt“"),
        widget=forms.TextInput(attrs={"list": "audit-actions"}),
    )
    object_type = forms.ChoiceField(label=_("Objekt"), required=False)
    date_from = forms.DateField(
        label=_("von"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    date_to = forms.DateField(
        label=_("bis"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    q = forms.CharField(
        label=_("Suche"),
        max_length=100,
        required=False,
        help_text=_("in Notiz, vorher/nachher und Objekt-Nr."),
    )

    def __init__(self, *args: Any, fixed_tournament: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if fixed_tournament:
            del self.fields["tournament"]
        # People who can write (staff and former staff keep their events).
        names = (
            get_user_model()
            .objects.filter(Q(groups__name__in=ROLE_GROUPS) | Q(is_superuser=True))
            .order_by("username")
            .values_list("username", flat=True)
            .distinct()
        )
        actor, object_type = self.fields["actor"], self.fields["object_type"]
        assert isinstance(actor, forms.ChoiceField)
        assert isinstance(object_type, forms.ChoiceField)
        actor.choices = [
            ("", _("alle")),
            (SYSTEM_ACTOR, _("System (ohne Benutzer)")),
            *((name, name) for name in names),
        ]
        object_type.choices = [
            ("", _("alle")),
            *_object_types(),
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(_("„von“ liegt nach „bis“."))
        return data

    def filters(self) -> dict[str, Any]:
        """The selector's arguments (`selectors.audit_events`) for valid data."""
        data = self.cleaned_data
        return {
            "actor": data["actor"],
            "action_prefixes": action_prefixes(_recorded_action(data["action"])),
            "object_type": data["object_type"],
            "since": _day_start(data["date_from"]),
            "until": _day_start(data["date_to"], next_day=True),
            "text": data["q"],
        }


def action_names() -> list[str]:
    """The suggestions' names in the active language, as the field offers
    them: the groups, then the single actions alphabetically."""
    groups = [str(label) for code, label in ACTION_SUGGESTIONS if code.endswith("*")]
    single = sorted(
        (str(label) for code, label in ACTION_SUGGESTIONS if not code.endswith("*")),
        key=str.lower,
    )
    return groups + single


def _recorded_action(text: str) -> str:
    """A suggestion's name (in the active language) as the action or group
    it names; anything else as typed."""
    wanted = text.strip().lower()
    for code, label in ACTION_SUGGESTIONS:
        if str(label).lower() == wanted:
            return code
    return text


def _day_start(
    day: datetime.date | None, *, next_day: bool = False
) -> datetime.datetime | None:
    """Midnight in the site's time zone (the hall's day, not UTC's)."""
    if day is None:
        return None
    if next_day:
        day += datetime.timedelta(days=1)
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))
