"""The desk's list of entries (django-tables2)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.models import Entry


class EntryTable(tables.Table):
    start_number = tables.Column(verbose_name=_("Nr."), attrs={"td": {"class": "num"}})
    name = tables.Column(
        verbose_name=_("Name"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
    )
    club = tables.Column(verbose_name=_("Verein"), accessor="player__club")
    category = tables.Column(
        verbose_name=_("Kategorie"), accessor="player__category", orderable=True
    )
    team = tables.Column(verbose_name=_("Mannschaft"), accessor="team__name")
    status = tables.TemplateColumn(
        template_name="tournament/registration/partials/entry_actions.html",
        verbose_name=_("Status"),
        orderable=False,
    )

    class Meta:
        model = Entry
        fields = ("start_number", "name", "club", "category", "team", "status")
        attrs = {"class": "striped entry-table"}
        row_attrs = {
            "id": lambda record: f"entry-{record.start_number}",
            "class": lambda record: "withdrawn" if record.withdrawn_at else "",
        }
        per_page = 100
        empty_text = _("Keine Spieler gefunden.")

    def render_name(self, record: Entry) -> str:
        return f"{record.player.last_name}, {record.player.first_name}"

    def render_category(self, record: Entry) -> str:
        return str(record.player.get_category_display())
