"""Seating a series by lot."""

import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError
from tournament.core.roles import Actor
from tournament.models import (
    Entry,
    Series,
    Tournament,
)
from tournament.seating import adapter, selectors
from tournament.seating.services.common import (
    _canonical,
    _digest,
    _lock_to_seat,
    _plan,
    _seat_inputs,
    _write_seated,
)
from tournament.seating.services.draws import _best_of_draws, _planned


def series_seat(
    *,
    actor: Actor,
    series: Series,
    new_lot: bool = False,
    version: int | None = None,
    seed: str | None = None,
    digest: str = "",
) -> Series:
    """Seat (or re-seat) a series by lot, without repeating any meeting of
    the series already seated.

    The whole tournament is planned at once from one seed, and later series
    take their tables from that plan while the field stays the same; after
    withdrawals or late entries the remaining series are planned anew with
    the earlier ones fixed. `new_lot` draws a fresh seed. `seed` draws from
    that seed: one of the draws `draw_options` offered, which the organizer
    chose; `digest` is the draw he saw, and a choice that would now give
    another draw (the field or the series before changed) is refused."""
    with transaction.atomic():
        series, tournament = _lock_to_seat(series, version)
        entries, fixed = _seat_inputs(series, tournament)
        plan, others = _plan_to_draw(
            tournament, entries, fixed, series.number, new_lot=new_lot, seed=seed
        )
        tables = plan["series"][series.number - 1]
        _check_digest(series, tables, digest)
        before = {
            "status": series.status,
            "seating": selectors.start_number_tables(series),
        }
        _seated(series, tables, plan, fixed, entries, others)
        audit_record(
            actor=actor,
            action="series.seat",
            obj=series,
            tournament=tournament,
            before=before,
            after={
                "status": series.status,
                "seed": series.seed,
                "seating": selectors.start_number_tables(series),
            },
            note=_("Unter den angebotenen Auslosungen gewählt.") if seed else "",
        )
    return series


def _plan_to_draw(
    tournament: Tournament,
    entries: list[Entry],
    fixed: list[adapter.EngineSeries],
    number: int,
    *,
    new_lot: bool,
    seed: str | None,
) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """The plan series `number` is taken from, and the draws offered beside
    it (None for a chosen seed): the tournament's plan while it still fits
    the field and the series before, else one drawn from `seed` (a fresh
    one for `new_lot`); kept as the tournament's plan when it is new."""
    plan = tournament.seating_plan
    ids = sorted(e.pk for e in entries)
    usable = (
        not new_lot
        and seed is None
        and plan is not None
        and plan.get("players") == ids
        and len(plan["series"]) >= number
        and [_canonical(s) for s in plan["series"][: len(fixed)]]
        == [_canonical(s) for s in fixed]
    )
    if not usable:
        plan = _plan(tournament, entries, fixed, seed or secrets.token_hex(8))
    assert plan is not None
    others: list[dict[str, Any]] | None = None
    if seed is None:
        # The draw taken is the best of those the page will offer
        # beside it: never one worse than an alternative it shows.
        best, others = _best_of_draws(
            tournament, entries, fixed, plan, number, kept=usable
        )
        usable = usable and best is plan
        plan = best
    if not usable:
        tournament.seating_plan = plan
        tournament.seating_seed = plan["seed"]
        tournament.save(update_fields=["seating_plan", "seating_seed"])
    return plan, others


def _check_digest(series: Series, tables: adapter.EngineSeries, digest: str) -> None:
    """Refused when the draw chosen (`digest`, as the organizer saw it) is
    not the one its seed draws now."""
    if digest and _digest(tables) != digest:
        raise ConflictError(
            _(
                "Diese Auslosung gibt es so nicht mehr: seit sie angezeigt "
                "wurde, hat sich das Feld oder eine Serie davor geändert. "
                "Serie %(n)d bleibt, wie sie ist. Bitte die Auslosungen "
                "neu vergleichen."
            )
            % {"n": series.number}
        )


def _seated(
    series: Series,
    tables: adapter.EngineSeries,
    plan: dict[str, Any],
    fixed: list[adapter.EngineSeries],
    entries: list[Entry],
    others: list[dict[str, Any]] | None,
) -> None:
    """`series` seated at `tables` from `plan`, with its quality report."""
    _write_seated(series, tables, mode=Series.Mode.LOT, seed=plan["seed"])
    series.quality = adapter.seating_quality([*fixed, tables], entries)
    # Why the drawn plan keeps repeats, for the report: the plan's, so
    # it holds for every series taken from it.
    series.quality["repeats_note"] = plan.get("repeats_note", "")
    series.quality["planned_repeats"] = _planned(plan, entries)
    if others is not None:
        series.quality["options"] = others
    series.save()
