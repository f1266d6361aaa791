"""django-tables2 tables: render_* for HTML, value_* for export."""

import json
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournament.audit import AuditChange, audit_diff, object_type_label
from tournament.models import AuditEvent, Entry


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
        template_name="tournament/partials/entry_actions.html",
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


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Platz"), attrs={"td": {"class": "num"}})
    start_number = tables.Column(
        verbose_name=_("Nr."), attrs={"td": {"class": "num muted"}}
    )
    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Verein"), attrs={"td": {"class": "club"}})
    games_won = tables.Column(
        verbose_name=_("Siege"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    points = tables.Column(
        verbose_name=_("Punkte"),
        attrs={"td": {"class": "num points"}, "th": {"class": "num"}},
    )

    class Meta:
        template_name = "tournament/partials/standings_table.html"
        attrs = {"class": "striped standings"}
        order_by = ("rank",)
        empty_text = _("Noch keine Ergebnisse.")

    def __init__(self, data: list[Any], *, player_url: str, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.player_url = player_url

    @property
    def body_html(self) -> SafeString:
        """The rows in the current order; columns as declared above."""
        url = self.player_url
        empty = str(self.empty_text)
        parts = []
        for r in self.data:
            marks = ' <small class="badge">*</small>' if r.tiebreak else ""
            if r.three_table_games:
                marks += f' <small class="muted">△{r.three_table_games}</small>'
            parts.append(
                f'<tr id="p{r.start_number}"><td class="num">{r.rank}</td>'
                f'<td class="num muted">{r.start_number}</td>'
                f'<td><a href="{url}{r.start_number}/">{escape(r.name)}</a>{marks}</td>'
                f'<td class="club">{escape(r.club)}</td>'
                f'<td class="num">{r.games_won}</td>'
                f'<td class="num points">{r.points}</td></tr>'
            )
        if not parts:
            parts.append(f'<tr><td colspan="6">{escape(empty)}</td></tr>')
        return mark_safe("".join(parts))


def _audit_value(value: Any) -> str:
    """A before/after value as a person reads it, at most a line long."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(_("ja") if value else _("nein"))
    if isinstance(value, list) and all(
        isinstance(v, str | int | float) and not isinstance(v, bool) for v in value
    ):
        text = ", ".join(map(str, value))
    elif isinstance(value, dict | list):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    else:
        text = str(value)
    return text if len(text) <= 120 else text[:119] + "…"


def _audit_change(change: AuditChange) -> tuple[str, SafeString]:
    parts = []
    if change.has_old:
        parts.append(format_html("<del>{}</del>", _audit_value(change.old)))
    if change.has_old and change.has_new:
        parts.append(mark_safe(" → "))
    if change.has_new:
        parts.append(format_html("<ins>{}</ins>", _audit_value(change.new)))
    return change.key, mark_safe("".join(parts))


def _label(text: str) -> dict[str, dict[str, Any]]:
    # Phones show each row as a card; the label comes from this attribute.
    return {"td": {"data-label": text}}


class AuditTable(tables.Table):
    """The audit log, newest first; before/after as the changed keys only.
    Rows come from `selectors.audit_events` (names joined in, no rows)."""

    MAX_CHANGES = 20

    at = tables.Column(verbose_name=_("Zeit"), attrs=_label(_("Zeit")))
    tournament = tables.Column(
        verbose_name=_("Turnier"),
        accessor="tournament_name",
        attrs=_label(_("Turnier")),
        default="–",
    )
    actor = tables.Column(
        verbose_name=_("Benutzer"),
        accessor="actor_name",
        attrs=_label(_("Benutzer")),
        default=_("System"),
    )
    action = tables.Column(verbose_name=_("Aktion"), attrs=_label(_("Aktion")))
    object = tables.Column(
        verbose_name=_("Objekt"),
        accessor="object_type",
        attrs=_label(_("Objekt")),
    )
    changes = tables.Column(
        verbose_name=_("Änderungen"),
        accessor="pk",
        attrs={"td": {"data-label": _("Änderungen"), "class": "audit-changes"}},
    )
    note = tables.Column(verbose_name=_("Notiz"), attrs=_label(_("Notiz")), default="")

    class Meta:
        model = AuditEvent
        fields = ("at", "tournament", "actor", "action", "object", "changes", "note")
        orderable = False
        attrs = {"class": "striped audit-table"}
        per_page = 50
        empty_text = _("Keine Einträge.")

    def render_at(self, value: Any) -> str:
        return formats.date_format(timezone.localtime(value), "d.m.Y H:i:s")

    def render_tournament(self, value: str, record: AuditEvent) -> SafeString:
        url = reverse(
            "tournament:audit_log",
            kwargs={"slug": record.tournament_slug},  # type: ignore[attr-defined]
        )
        return format_html('<a href="{}">{}</a>', url, value)

    def render_action(self, value: str) -> SafeString:
        return format_html("<code>{}</code>", value)

    def render_object(self, value: str, record: AuditEvent) -> str:
        label = object_type_label(value)
        return f"{label} {record.object_id}".strip()

    def render_changes(self, record: AuditEvent) -> SafeString:
        changes = audit_diff(record.before, record.after)
        if not changes:
            return mark_safe("")
        shown = changes[: self.MAX_CHANGES]
        html = format_html(
            '<dl class="diff">{}</dl>',
            format_html_join(
                "", "<dt>{}</dt><dd>{}</dd>", (_audit_change(c) for c in shown)
            ),
        )
        hidden = len(changes) - len(shown)
        if hidden:
            html += format_html(
                '<small class="muted">{}</small>',
                _("… und %(n)d weitere") % {"n": hidden},
            )
        return html
