"""Reads: each selector owns its query shape (no N+1 in templates)."""

import datetime
import json
from collections.abc import Sequence

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournament.models import (
    AuditEvent,
    Entry,
    GameScore,
    Player,
    ResultVersion,
    Seat,
    Series,
    Table,
    Team,
    Tournament,
)


def tournaments_public() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    ).order_by("-date", "name")


def entries_for(tournament: Tournament, *, query: str = "") -> QuerySet[Entry]:
    """Entries with player and team, filtered by name, club or start number."""
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "team"
    )
    # No name holds a NUL (forms refuse it), and PostgreSQL refuses to
    # compare with one: a search for it is a search for the rest.
    query = query.replace("\x00", "").strip()
    if query:
        condition = (
            Q(player__first_name__icontains=query)
            | Q(player__last_name__icontains=query)
            | Q(player__club__icontains=query)
            | Q(player__town__icontains=query)
        )
        if query.isdecimal() and len(query) <= 9:  # int() refuses "²"
            condition |= Q(start_number=int(query))
        words = query.split()
        if len(words) == 2:  # "Anna Schmitz" or "Schmitz Anna"
            a, b = words
            condition |= Q(
                player__first_name__icontains=a, player__last_name__icontains=b
            )
            condition |= Q(
                player__first_name__icontains=b, player__last_name__icontains=a
            )
        entries = entries.filter(condition)
    return entries.order_by("start_number")


def entry_counts(tournament: Tournament) -> dict[str, int]:
    return tournament.entries.aggregate(
        total=Count("id"),
        active=Count("id", filter=Q(withdrawn_at__isnull=True)),
        checked_in=Count("id", filter=Q(checked_in=True, withdrawn_at__isnull=True)),
        withdrawn=Count("id", filter=Q(withdrawn_at__isnull=False)),
    )


def same_name_entries(
    tournament: Tournament, first_name: str, last_name: str
) -> QuerySet[Entry]:
    return Entry.objects.filter(
        tournament=tournament,
        player__first_name__iexact=first_name.strip(),
        player__last_name__iexact=last_name.strip(),
    ).select_related("player")


def teams_for(tournament: Tournament) -> QuerySet[Team]:
    return (
        Team.objects.filter(tournament=tournament)
        .prefetch_related("members__player")
        .order_by("name")
    )


def players_without_team(tournament: Tournament) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(tournament=tournament, team__isnull=True)
        .select_related("player")
        .order_by("player__last_name", "player__first_name")
    )


def categories() -> list[tuple[str, str]]:
    return list(Player.Category.choices)


def series_list(tournament: Tournament) -> QuerySet[Series]:
    return (
        Series.objects.filter(tournament=tournament)
        .annotate(table_count=Count("tables", distinct=True))
        .order_by("number")
    )


def series_public(tournament: Tournament) -> QuerySet[Series]:
    return series_list(tournament).filter(
        status__in=[
            Series.Status.RELEASED,
            Series.Status.PLAYING,
            Series.Status.COMPLETE,
        ]
    )


def series_tables(series: Series) -> list[Table]:
    """The tables of a series with their seats, entries and players."""
    return list(
        Table.objects.filter(series=series)
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("entry__player").order_by(
                    "number"
                ),
            )
        )
        .order_by("number")
    )


def seat_search(tournament: Tournament, query: str) -> list[dict[str, object]]:
    """ "Where do I sit?": the matching players and their table and seat in
    every public series."""
    entries = list(entries_for(tournament, query=query)[:20]) if query.strip() else []
    seats = (
        Seat.objects.filter(
            entry__in=entries,
            series__status__in=[
                Series.Status.RELEASED,
                Series.Status.PLAYING,
                Series.Status.COMPLETE,
            ],
        )
        .select_related("series", "table")
        .order_by("series__number")
    )
    by_entry: dict[int, list[Seat]] = {}
    for seat in seats:
        by_entry.setdefault(seat.entry_id, []).append(seat)
    return [{"entry": e, "seats": by_entry.get(e.pk, [])} for e in entries]


def table_for_entry(series: Series, number: int) -> Table:
    return (
        Table.objects.select_related("series__tournament")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player"))
        )
        .get(series=series, number=number)
    )


def result_versions(table: Table) -> QuerySet[ResultVersion]:
    return ResultVersion.objects.filter(table=table).select_related(
        "entered_by", "decided_by"
    )


def series_progress(tournament: Tournament) -> list[dict[str, object]]:
    """Per series: tables, entered (waiting), confirmed, and which are missing."""
    tables = (
        Table.objects.filter(series__tournament=tournament)
        .annotate(
            pending=Count(
                "result_versions",
                filter=Q(result_versions__status=ResultVersion.Status.PENDING),
            ),
            confirmed=Count(
                "result_versions",
                filter=Q(result_versions__status=ResultVersion.Status.CONFIRMED),
            ),
        )
        .values("series_id", "number", "pending", "confirmed")
        .order_by("number")
    )
    by_series: dict[int, list[dict[str, int]]] = {}
    for t in tables:
        by_series.setdefault(t["series_id"], []).append(t)
    out = []
    for series in Series.objects.filter(tournament=tournament).order_by("number"):
        rows = by_series.get(series.pk, [])
        out.append(
            {
                "series": series,
                "tables": len(rows),
                "pending": [r["number"] for r in rows if r["pending"]],
                "confirmed": sum(1 for r in rows if r["confirmed"]),
                # Whatever waits for confirmation: what the public sees.
                "confirmed_tables": [r["number"] for r in rows if r["confirmed"]],
                "missing": [
                    r["number"] for r in rows if not r["pending"] and not r["confirmed"]
                ],
                "table_states": [
                    (
                        r["number"],
                        "confirmed"
                        if r["confirmed"] and not r["pending"]
                        else "pending"
                        if r["pending"]
                        else "missing",
                    )
                    for r in rows
                ],
            }
        )
    return out


def series_results(series: Series, *, include_pending: bool) -> list[dict[str, object]]:
    """Per table of a series: players in seat order and their points per
    game from the confirmed (or, if asked, pending) version."""
    tables = series_tables(series)
    statuses = [ResultVersion.Status.CONFIRMED]
    if include_pending:
        statuses.append(ResultVersion.Status.PENDING)
    versions: dict[int, ResultVersion] = {}
    for version in ResultVersion.objects.filter(
        table__series=series, status__in=statuses
    ).order_by("number"):
        current = versions.get(version.table_id)
        if current is None or current.status != ResultVersion.Status.CONFIRMED:
            versions[version.table_id] = version
    out = []
    for table in tables:
        version = versions.get(table.pk)
        games = version.data["games"] if version else []
        players = []
        for seat in table.seats.all():
            points = [
                g["marks"] + series.tournament.win_bonus
                if g["winner"] == seat.number
                else 0
                for g in games
            ]
            players.append({"seat": seat, "points": points, "total": sum(points)})
        out.append(
            {
                "table": table,
                "version": version,
                "provisional": version is not None
                and version.status == ResultVersion.Status.PENDING,
                "players": players,
            }
        )
    return out


SYSTEM_ACTOR = "-"


def audit_events(
    *,
    tournament: Tournament | None = None,
    actor: str = "",
    action_prefixes: Sequence[str] = (),
    object_type: str = "",
    since: datetime.datetime | None = None,
    until: datetime.datetime | None = None,
    text: str = "",
) -> QuerySet[AuditEvent]:
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


def player_tables(entry: Entry) -> list[dict[str, object]]:
    """A player's page: per series their table, seat, opponents and points."""
    seats = list(
        Seat.objects.filter(entry=entry)
        .exclude(series__status__in=[Series.Status.DRAFT, Series.Status.SEATED])
        .select_related("series", "table")
        .order_by("series__number")
    )
    opponents: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(
        table__in=[s.table_id for s in seats]
    ).select_related("entry__player"):
        opponents.setdefault(seat.table_id, []).append(seat)
    scores: dict[int, list[int]] = {}
    for table_id, points in (
        GameScore.objects.filter(entry=entry)
        .order_by("game")
        .values_list("table_id", "points")
    ):
        scores.setdefault(table_id, []).append(points)
    out = []
    running = 0
    for seat in seats:
        points = scores.get(seat.table_id, [])
        running += sum(points)
        out.append(
            {
                "seat": seat,
                "opponents": sorted(
                    (
                        s
                        for s in opponents.get(seat.table_id, [])
                        if s.entry_id != entry.pk
                    ),
                    key=lambda s: s.number,
                ),
                "points": points,
                "total": sum(points),
                "running": running,
            }
        )
    return out


def repeated_meetings(series: Series) -> list[tuple[int, int, int]]:
    """Start numbers of pairs that meet more than once in the series seated
    so far (up to this one), with how often."""
    from tournament import engine

    seated = [
        engine.stored_series(s)
        for s in Series.objects.filter(
            tournament_id=series.tournament_id, number__lte=series.number
        ).exclude(status=Series.Status.DRAFT)
    ]
    pairs = engine.repeated_pairs(seated)
    numbers = dict(
        Entry.objects.filter(tournament_id=series.tournament_id).values_list(
            "id", "start_number"
        )
    )
    return [(numbers[a], numbers[b], n) for a, b, n in pairs]


def public_series_or_404(slug: str, number: int) -> Series:
    """A released (or later) series of the tournament, else 404: seatings
    and results of unreleased series are not public."""
    series = get_object_or_404(
        Series.objects.select_related("tournament"),
        tournament__slug=slug,
        number=number,
    )
    if not series.is_public:
        raise Http404
    return series
