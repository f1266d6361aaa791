"""Reads of the audit trail."""

import datetime
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext as _

from tournament.core.audit import object_type_label
from tournament.models import (
    AuditEvent,
    DigitalSeat,
    DigitalTable,
    Entry,
    ResultVersion,
    Series,
    Team,
    Tournament,
)

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

SYSTEM_ACTOR = "-"


class EventNames(TypedDict):
    """The names an event of the log shows, joined in (None: no such row)."""

    actor_name: str | None
    actor_first_name: str | None
    actor_last_name: str | None
    tournament_name: str | None
    tournament_slug: str | None
    # A player who acted through his personal link (entry at the table).
    player_number: int | None
    player_first_name: str | None
    player_last_name: str | None


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
    (`actor_name` and the actor's first and last name, `tournament_name`,
    `tournament_slug`) joined in, not
    their rows. `actor` is a user name, or SYSTEM_ACTOR for the site's own
    writes; `until` is exclusive."""
    events = AuditEvent.objects.annotate(
        actor_name=F("actor__username"),
        actor_first_name=F("actor__first_name"),
        actor_last_name=F("actor__last_name"),
        tournament_name=F("tournament__name"),
        tournament_slug=F("tournament__slug"),
        player_number=F("player__start_number"),
        player_first_name=F("player__player__first_name"),
        player_last_name=F("player__player__last_name"),
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
        events = events.filter(_mentioning(text))
    return events.order_by("-at", "-id")


def _mentioning(text: str) -> Q:
    """Events whose note, action, before or after contain `text`, or whose
    object it names."""
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
    return condition


# --- What each event is about ---------------------------------------------------


def _table_label(series: int | None, table: int | None) -> str:
    if series is None or table is None:
        return _("Übungstisch")
    return _("Serie %(s)d, Tisch %(t)d") % {"s": series, "t": table}


def _kept(event: AuditEvent, key: str) -> Any:
    """A value the event kept of its object (after, else before)."""
    for data in (event.after, event.before):
        if isinstance(data, dict) and data.get(key) not in (None, ""):
            return data[key]
    return None


def _results(ids: list[int]) -> dict[int, str]:
    rows = ResultVersion.objects.filter(pk__in=ids).values_list(
        "pk", "table__series__number", "table__number"
    )
    return {pk: _table_label(series, table) for pk, series, table in rows}


def _entries(ids: list[int]) -> dict[int, str]:
    rows = Entry.objects.filter(pk__in=ids).values_list(
        "pk", "start_number", "player__first_name", "player__last_name"
    )
    return {
        pk: _("Nr. %(n)d %(name)s") % {"n": number, "name": f"{first} {last}"}
        for pk, number, first, last in rows
    }


def _series(ids: list[int]) -> dict[int, str]:
    rows = Series.objects.filter(pk__in=ids).values_list("pk", "number")
    return {pk: _("Serie %(n)d") % {"n": number} for pk, number in rows}


def _teams(ids: list[int]) -> dict[int, str]:
    rows = Team.objects.filter(pk__in=ids).values_list("pk", "name")
    return {pk: _("Mannschaft %(name)s") % {"name": name} for pk, name in rows}


def _tournaments(ids: list[int]) -> dict[int, str]:
    return dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "name"))


def _digital_tables(ids: list[int]) -> dict[int, str]:
    rows = DigitalTable.objects.filter(pk__in=ids).values_list(
        "pk", "table__series__number", "table__number"
    )
    return {
        pk: _("%(table)s (digital)") % {"table": _table_label(series, table)}
        for pk, series, table in rows
    }


def _digital_seats(ids: list[int]) -> dict[int, str]:
    rows = DigitalSeat.objects.filter(pk__in=ids).values_list(
        "pk", "number", "table__table__series__number", "table__table__number"
    )
    return {
        pk: _("%(table)s, Sitz %(seat)d")
        % {"table": _table_label(series, table), "seat": seat}
        for pk, seat, series, table in rows
    }


# One query per kind of object on a page, whatever the number of events.
_LOOKUPS: dict[str, Callable[[list[int]], dict[int, str]]] = {
    "resultversion": _results,
    "entry": _entries,
    "series": _series,
    "team": _teams,
    "tournament": _tournaments,
    "digitaltable": _digital_tables,
    "digitalseat": _digital_seats,
}


def _from_event(event: AuditEvent) -> str:
    """An object named from what its event kept: a deleted series or team,
    a job (pruned after two days), a tie-break."""
    kind = event.object_type
    if kind == "series" and _kept(event, "number") is not None:
        return _("Serie %(n)s") % {"n": _kept(event, "number")}
    if kind == "team" and _kept(event, "name"):
        return _("Mannschaft %(name)s") % {"name": _kept(event, "name")}
    if kind == "tournament" and _kept(event, "name"):
        return str(_kept(event, "name"))
    if kind == "job" and _kept(event, "label"):
        return str(_kept(event, "label"))
    order = _kept(event, "order")
    if kind == "tiebreak" and isinstance(order, list):
        return _("Gleichstand Nr. %(numbers)s") % {
            "numbers": ", ".join(map(str, order))
        }
    if kind == "digitaltable" and _kept(event, "table") is not None:
        return _("%(table)s (digital)") % {
            "table": _table_label(_kept(event, "series"), _kept(event, "table"))
        }
    return f"{object_type_label(kind)} {event.object_id}".strip()


def audit_object_labels(events: Iterable[AuditEvent]) -> dict[int, str]:
    """What each event is about, as people name it ("Serie 1, Tisch 4",
    "Nr. 12 Anna Schmitz"), by event id: one query per kind of object among
    `events` (a page of the log); an object gone since is named from what
    its event kept."""
    events = list(events)
    wanted: dict[str, list[int]] = defaultdict(list)
    for event in events:
        if event.object_type in _LOOKUPS and event.object_id.isdigit():
            wanted[event.object_type].append(int(event.object_id))
    found = {kind: _LOOKUPS[kind](ids) for kind, ids in wanted.items()}
    labels = {}
    for event in events:
        by_id = found.get(event.object_type, {})
        label = by_id.get(int(event.object_id)) if event.object_id.isdigit() else None
        labels[event.pk] = label or _from_event(event)
    return labels
