"""The audit log's table (django-tables2): each event as people say it --
who, what ("Ergebnis bestätigt"), about what ("Serie 1, Tisch 4"), and
what changed, line by line (`readable.readable_changes`)."""

import datetime
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournament.auditlog.readable import ChangeLine, readable_changes
from tournament.auditlog.selectors import LoggedEvent
from tournament.core.audit import action_label, object_type_label
from tournament.core.l10n import short_datetime
from tournament.models import AuditEvent


def _change(line: ChangeLine) -> tuple[str, SafeString]:
    parts = []
    if line.old is not None:
        parts.append(format_html("<del>{}</del>", line.old))
    if line.old is not None and line.new is not None:
        parts.append(mark_safe(" → "))
    if line.new is not None:
        parts.append(format_html("<ins>{}</ins>", line.new))
    return line.label, mark_safe("".join(parts))


def _label(text: str | Promise) -> dict[str, dict[str, Any]]:
    # Phones show each row as a card; the label comes from this attribute.
    return {"td": {"data-label": text}}


class AuditTable(tables.Table):
    """The audit log, newest first; before/after as what changed only.
    Rows come from `selectors.audit_events` (names joined in, no rows);
    `object_labels` (`selectors.audit_object_labels`, by event id) names
    what each event of the page is about."""

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
        # Rendered when empty too: a player acting at his table is no user.
        empty_values=(),
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.object_labels: dict[int, str] = {}

    def render_at(self, value: datetime.datetime) -> str:
        return short_datetime(timezone.localtime(value), seconds=True)

    def render_tournament(self, value: str, record: LoggedEvent) -> SafeString:
        url = reverse("tournament:audit_log", kwargs={"slug": record.tournament_slug})
        return format_html('<a href="{}">{}</a>', url, value)

    def render_actor(self, value: str | None, record: LoggedEvent) -> str:
        if not value:
            if record.player_number is not None:
                name = f"{record.player_first_name} {record.player_last_name}"
                return _("%(name)s (Spieler %(n)d)") % {
                    "name": name,
                    "n": record.player_number,
                }
            return str(_("System"))
        name = f"{record.actor_first_name or ''} {record.actor_last_name or ''}"
        return f"{name.strip()} ({value})" if name.strip() else value

    def render_action(self, value: str) -> SafeString:
        # The recorded action stays at hand for the filter (title).
        return format_html('<span title="{}">{}</span>', value, action_label(value))

    def render_object(self, value: str, record: AuditEvent) -> str:
        label = self.object_labels.get(record.pk)
        return label or f"{object_type_label(value)} {record.object_id}".strip()

    def render_changes(self, record: AuditEvent) -> SafeString:
        changes = readable_changes(
            object_type=record.object_type, before=record.before, after=record.after
        )
        if not changes:
            return mark_safe("")
        shown = changes[: self.MAX_CHANGES]
        html = format_html(
            '<dl class="diff">{}</dl>',
            format_html_join("", "<dt>{}</dt><dd>{}</dd>", (_change(c) for c in shown)),
        )
        hidden = len(changes) - len(shown)
        if hidden:
            html += format_html(
                '<small class="muted">{}</small>',
                _("… und %(n)d weitere") % {"n": hidden},
            )
        return html
