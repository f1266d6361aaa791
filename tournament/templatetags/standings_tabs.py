"""`{% standings_tabs tournament as tabs %}`: the tournament's rankings as
(view, label, address): the overall one, one per category
(`standings.selectors.categories`), the teams'. The standings' tabs and the
tournament's page list them from here."""

from django import template
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from tournament.models import Tournament
from tournament.standings.selectors import categories

register = template.Library()


@register.simple_tag
def standings_tabs(tournament: Tournament) -> list[tuple[str, Promise | str, str]]:
    slug = [tournament.slug]
    return [
        ("overall", gettext_lazy("Gesamt"), reverse("tournament:standings", args=slug)),
        *(
            (c.value, c.label, reverse(f"tournament:standings_{c.value}", args=slug))
            for c in categories()
        ),
        (
            "teams",
            gettext_lazy("Mannschaften"),
            reverse("tournament:standings_teams", args=slug),
        ),
    ]
