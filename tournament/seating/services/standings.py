"""Seating a series by the standings."""

import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.models import (
    Entry,
    EntryTotal,
    ResultVersion,
    Series,
    Table,
    Tournament,
)
from tournament.seating import adapter, selectors
from tournament.seating.services.common import (
    _lock_to_seat,
    _seat_inputs,
    _write_seated,
)


def _unconfirmed(series: Series) -> dict[int, list[int]]:
    """The tables of the series before `series` that have no confirmed,
    complete result yet: {series number: [table numbers]} (one query)."""
    done = ResultVersion.objects.filter(
        status=ResultVersion.Status.CONFIRMED, complete=True
    ).values("table_id")
    missing: dict[int, list[int]] = {}
    for number, table in (
        Table.objects.filter(
            series__tournament_id=series.tournament_id,
            series__number__lt=series.number,
        )
        .exclude(pk__in=done)
        .order_by("series__number", "number")
        .values_list("series__number", "number")
    ):
        missing.setdefault(number, []).append(table)
    return missing


def _totals_before(tournament: Tournament, number: int) -> dict[int, int]:
    """Each entry's points in the series before series `number`, from the
    kept totals (one query): the standings that series is seated by."""
    return {
        entry_id: sum(points[: number - 1])
        for entry_id, points in EntryTotal.objects.filter(
            entry__tournament=tournament
        ).values_list("entry_id", "series_points")
    }


def series_seat_by_standings(
    *, actor: Actor, series: Series, version: int | None = None
) -> Series:
    """Seat a series by the standings ("nach Tabelle setzen"), as a final
    series is seated: players of similar totals at one table, the leaders at
    table 1, no meeting of the earlier series repeated where that can be;
    the tournament's last series straight down the standings (places 1-4 at
    table 1 and so on, the tables of three last), whoever met before.
    Only once every table before it has its confirmed result: the standings
    it follows must be the whole of them."""
    with transaction.atomic():
        series, tournament = _lock_to_seat(series, version)
        entries, fixed = _seat_inputs(series, tournament)
        _check_complete(series)
        totals = _totals_before(tournament, series.number)
        seed = secrets.token_hex(8)
        # The final series is the standings' own: nothing after it to keep
        # free of repeats, so the places go to the tables as they stand.
        final = series.number >= tournament.series_count
        tables = adapter.plan_standings_series(
            entries=entries,
            series_count=tournament.series_count,
            seed=seed,
            fixed=fixed,
            totals=totals,
            exact=final,
        )
        before = {
            "status": series.status,
            "seating": selectors.start_number_tables(series),
        }
        _seated_by_standings(series, tables, seed, fixed, entries, totals, final)
        audit_record(
            actor=actor,
            action="series.seat_standings",
            obj=series,
            tournament=tournament,
            before=before,
            after={
                "status": series.status,
                "seed": seed,
                "seating": selectors.start_number_tables(series),
            },
        )
    return series


def _check_complete(series: Series) -> None:
    """Refused before series 2, and while a table of the series before
    `series` has no confirmed result: the standings it is seated by must be
    the whole of them."""
    if series.number == 1:
        raise UserError(
            _("Vor Serie 1 gibt es noch keine Tabelle: bitte auslosen."),
            code="no_standings",
        )
    missing = _unconfirmed(series)
    if missing:
        raise UserError(
            _(
                "Nach Tabelle setzen geht erst, wenn jeder Tisch der Serien "
                "davor ein bestätigtes Ergebnis hat. Es fehlen: %(tables)s."
            )
            % {
                "tables": "; ".join(
                    _("Serie %(s)d, Tisch %(t)s")
                    % {"s": number, "t": ", ".join(map(str, tables))}
                    for number, tables in missing.items()
                )
            },
            code="standings_incomplete",
        )


def _seated_by_standings(
    series: Series,
    tables: adapter.EngineSeries,
    seed: str,
    fixed: list[adapter.EngineSeries],
    entries: list[Entry],
    totals: dict[int, int],
    final: bool,
) -> None:
    """`series` seated at `tables` by the standings `totals`, with its
    quality report and how well the tables follow the standings."""
    _write_seated(series, tables, mode=Series.Mode.STANDINGS, seed=seed)
    series.quality = {
        **adapter.seating_quality([*fixed, tables], entries),
        "standings": {**adapter.standings_fit(tables, totals), "final": final},
    }
    series.save()
