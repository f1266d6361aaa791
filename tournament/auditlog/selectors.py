"""Reads of the audit trail."""

import datetime
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias, TypedDict

from django.db.models import F, Q, QuerySet

from tournament.models import (
    AuditEvent,
    Tournament,
)

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

SYSTEM_ACTOR = "-"


class EventNames(TypedDict):
    """The names an event of the log shows, joined in (None: no such row)."""

    actor_name: str | None
    tournament_name: str | None
    tournament_slug: str | None


LoggedEvent: TypeAlias = "WithAnnotations[AuditEvent, EventNames]"


def audit_events(
    *,
    tournament: Tournament | None = None,
    actor: str = "",
    action_prefixes: Sequence[str] = (),
    object_type: str = "",
    since: datetime.datetime | None = None,
    until: datetime.datetime | None = None,
    text: str = "",
) -> QuerySet[LoggedEvent]:
    """The audit trail, newest first, with the names the log shows
    (`actor_name`, `tournament_name`, `tournament_slug`) joined in, not
    their rows. `actor` is a user name, or SYSTEM_ACTOR for the site's own
    writes; `until` is exclusive."""
    events = AuditEvent.objects.annotate(
        actor_name=F("actor__username"),
        tournament_name=F("tournament__name"),
        tournament_slug=F("tournament__slug"),
    )
    if tournament is not None:
        events = events.filter(tournament=tournament)
    if actor == SYSTEM_ACTOR:
        events = events.filter(actor__isnull=True)
    elif actor:
        events = events.filter(actor__username=actor)
    if action_prefixes:
        condition = Q()
        for prefix in action_prefixes:
            condition |= Q(action__startswith=prefix)
        events = events.filter(condition)
    if object_type:
        events = events.filter(object_type=object_type)
    if since is not None:
        events = events.filter(at__gte=since)
    if until is not None:
        events = events.filter(at__lt=until)
    text = text.strip()
    if text:
        condition = (
            Q(note__icontains=text)
            | Q(action__icontains=text)
            | Q(object_id=text)
            | Q(before__icontains=text)
            | Q(after__icontains=text)
        )
        # SQLite keeps JSON with non-ASCII letters escaped (\u00fc).
        escaped = json.dumps(text)[1:-1]
        if escaped != text:
            condition |= Q(before__icontains=escaped) | Q(after__icontains=escaped)
        events = events.filter(condition)
    return events.order_by("-at", "-id")
