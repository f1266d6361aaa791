"""The audit log's table (django-tables2): each event with its changed
keys."""

import datetime
import json
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournament.auditlog.selectors import LoggedEvent
from tournament.core.audit import AuditChange, audit_diff, object_type_label
from tournament.models import AuditEvent


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


def _label(text: str | Promise) -> dict[str, dict[str, Any]]:
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

    def render_at(self, value: datetime.datetime) -> str:
        return formats.date_format(timezone.localtime(value), "d.m.Y H:i:s")

    def render_tournament(self, value: str, record: LoggedEvent) -> SafeString:
        url = reverse("tournament:audit_log", kwargs={"slug": record.tournament_slug})
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
