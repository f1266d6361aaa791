"""What the seating writes share: the series rows, who is seated, locks and
version checks, writing a series' tables, the plan drawn from a seed."""

import hashlib
import json
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError, UserError
from tournament.core.roles import Actor
from tournament.models import (
    Entry,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.seating import adapter

EDITABLE = (Series.Status.DRAFT, Series.Status.SEATED)


SWAPPABLE = (Series.Status.SEATED, Series.Status.RELEASED)


def series_ensure(*, tournament: Tournament, actor: Actor = None) -> list[Series]:
    """The tournament's series rows 1..series_count (created as drafts)."""
    existing = {s.number: s for s in tournament.series.all()}
    missing = [n for n in range(1, tournament.series_count + 1) if n not in existing]
    if missing:
        with transaction.atomic():
            for number in missing:
                existing[number] = series = Series.objects.create(
                    tournament=tournament, number=number
                )
                audit_record(
                    actor=actor,
                    action="series.create",
                    obj=series,
                    tournament=tournament,
                    after={"number": number, "status": series.status},
                )
    return [existing[n] for n in sorted(existing)]


def seated_players(tournament: Tournament) -> list[Entry]:
    """Who is seated: registered, not withdrawn, checked in at the desk."""
    return list(
        Entry.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True, checked_in=True
        )
        .select_related("player")
        .order_by("start_number")
    )


def _lock(series: Series) -> tuple[Series, Tournament]:
    tournament = Tournament.objects.select_for_update().get(pk=series.tournament_id)
    series = Series.objects.select_for_update().get(pk=series.pk)
    return series, tournament


def _lock_to_seat(series: Series, version: int | None) -> tuple[Series, Tournament]:
    """Lock a series to seat it anew: refused if someone else changed its
    seating since `version`, or once it is released."""
    series, tournament = _lock(series)
    _check_version(series, version)
    if series.status not in EDITABLE:
        raise UserError(
            _("Serie %(n)d ist schon veröffentlicht und kann nicht neu gesetzt werden.")
            % {"n": series.number},
            code="released",
        )
    return series, tournament


def _check_version(series: Series, version: int | None) -> None:
    if version is not None and version != series.version:
        raise ConflictError(
            _(
                "Die Setzung von Serie %(n)d wurde inzwischen von jemand anderem "
                "geändert. Bitte die Seite neu laden und erneut versuchen."
            )
            % {"n": series.number}
        )


def _write_tables(series: Series, tables: adapter.EngineSeries) -> None:
    series.seats.all().delete()
    series.tables.all().delete()
    # Tables of 4 first, so that the tables of 3 carry the highest numbers.
    ordered = sorted(tables, key=lambda t: -len(t))
    created = Table.objects.bulk_create(
        Table(series=series, number=i, size=len(t)) for i, t in enumerate(ordered, 1)
    )
    Seat.objects.bulk_create(
        Seat(series=series, table=table, number=seat_number, entry_id=entry_id)
        for table, players in zip(created, ordered, strict=True)
        for seat_number, entry_id in enumerate(players, 1)
    )


def _write_seated(
    series: Series, tables: adapter.EngineSeries, *, mode: str, seed: str
) -> None:
    """`series` seated at `tables` by `mode` from `seed` (not saved)."""
    _write_tables(series, tables)
    series.status = Series.Status.SEATED
    series.mode = mode
    series.seed = seed
    series.seated_at = timezone.now()
    series.version += 1


def _canonical(tables: adapter.EngineSeries) -> list[tuple[int, ...]]:
    """A series independent of table numbering (tables are renumbered when
    written), with each table's seat order kept."""
    return sorted(tuple(t) for t in tables)


def _earlier(series: Series) -> list[Series]:
    return list(
        Series.objects.filter(
            tournament_id=series.tournament_id, number__lt=series.number
        ).order_by("number")
    )


def _digest(tables: adapter.EngineSeries) -> str:
    """A short fingerprint of one series' seating (seat order kept, table
    numbering not): a choice names the draw it saw by it."""
    text = json.dumps(_canonical(tables), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plan(
    tournament: Tournament,
    entries: list[Entry],
    fixed: list[adapter.EngineSeries],
    seed: str,
) -> dict[str, Any]:
    """The rest of the tournament drawn from `seed` around the `fixed`
    series, as `Tournament.seating_plan` keeps it."""
    planned, planned_quality = adapter.plan_seating(
        entries=entries,
        series_count=tournament.series_count,
        seed=seed,
        fixed=fixed,
    )
    return {
        "seed": seed,
        "players": sorted(e.pk for e in entries),
        "series": planned,
        "repeats_note": planned_quality["repeats_note"],
        "repeated_meetings": planned_quality["repeated_meetings"],
    }


def _seat_inputs(
    series: Series, tournament: Tournament
) -> tuple[list[Entry], list[adapter.EngineSeries]]:
    """Who is drawn and the series before `series` as they were seated;
    refused while one of those is not drawn yet."""
    earlier = _earlier(series)
    if not all(s.is_seated for s in earlier):
        raise UserError(_("Bitte zuerst die vorherigen Serien setzen."), code="order")
    return seated_players(tournament), [adapter.stored_series(s) for s in earlier]
