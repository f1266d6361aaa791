"""Swapping two players by hand, its preview, and what swaps made worse."""

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import (
    Entry,
    Seat,
    Series,
    Tournament,
)
from tournament.seating import adapter
from tournament.seating.services.common import SWAPPABLE, _check_version, _lock
from tournament.seating.services.draws import DrawOption, _draw_option
from tournament.seating.services.standings import _totals_before


def _as_it_stands(series: Series) -> tuple[list[Entry], list[adapter.EngineSeries]]:
    """Everyone seated in `series` or before it, with their players, and the
    seated series before it (the figures of a seating as it stands, swaps
    and late arrivals included)."""
    entries = list(
        Entry.objects.filter(
            seats__series__tournament_id=series.tournament_id,
            seats__series__number__lte=series.number,
        )
        .select_related("player")
        .distinct()
    )
    earlier = [
        adapter.stored_series(s)
        for s in Series.objects.filter(
            tournament_id=series.tournament_id, number__lt=series.number
        )
        .seated()
        .order_by("number")
    ]
    return entries, earlier


def _swapped(tables: adapter.EngineSeries, a: int, b: int) -> adapter.EngineSeries:
    """`tables` with the entries `a` and `b` in each other's seat."""
    other = {a: b, b: a}
    return [[other.get(p, p) for p in table] for table in tables]


def swap_effect(*, series: Series, a: int, b: int) -> tuple[DrawOption, DrawOption]:
    """The series before and after swapping the entries `a` and `b` (ids),
    in the words of the quality report: what the preview shows before the
    organizer commits the swap. Writes nothing."""
    entries, earlier = _as_it_stands(series)
    tables = adapter.stored_series(series)
    return (
        _draw_option("", tables, earlier, entries),
        _draw_option("", _swapped(tables, a, b), earlier, entries),
    )


# The figures of a draw that a swap by hand may make worse, as kept in
# `Series.quality["drawn"]` from the first swap after the draw.
DRAWN_FIGURES = ("repeats", "club_tables", "three_again")


def _figures(option: DrawOption) -> dict[str, int]:
    return {name: int(getattr(option, name)) for name in DRAWN_FIGURES}


def swapped_worse(series: Series) -> tuple[dict[str, int], dict[str, int]] | None:
    """The figures of the series as drawn and as it stands now, when swaps
    by hand made one of them worse (more repeats, more tables with club
    mates, more players at a table of three than needed); else None.
    Publishing such a series asks once (`series_release`)."""
    drawn = (series.quality or {}).get("drawn")
    if not drawn:
        return None
    entries, earlier = _as_it_stands(series)
    now = _figures(_draw_option("", adapter.stored_series(series), earlier, entries))
    if any(now[name] > int(drawn.get(name, 0)) for name in DRAWN_FIGURES):
        return drawn, now
    return None


def _measure(series: Series, tournament: Tournament) -> None:
    """Recompute the quality report of `series` after a change by hand, over
    the series seated so far (not saved)."""
    entries = list(
        Entry.objects.filter(seats__series__tournament=tournament)
        .select_related("player")
        .distinct()
    )
    seated = [
        adapter.stored_series(s)
        for s in Series.objects.filter(
            tournament=tournament, number__lte=series.number
        ).seated()
    ]
    quality = adapter.seating_quality(seated, entries)
    if series.mode == Series.Mode.STANDINGS:
        totals = _totals_before(tournament, series.number)
        final = bool(((series.quality or {}).get("standings") or {}).get("final"))
        quality["standings"] = {
            **adapter.standings_fit(seated[-1], totals),
            "final": final,
        }
    # The figures as drawn stay, for the release to compare, and the draws
    # it was chosen among, to be offered still.
    for kept in ("drawn", "options"):
        if kept in (series.quality or {}):
            quality[kept] = (series.quality or {})[kept]
    series.quality = quality


def series_swap(
    *, actor: Actor, series: Series, entry_a: Entry, entry_b: Entry, version: int
) -> Series:
    """Swap two players' seats by hand; the quality report is recomputed and
    names any meeting this repeats."""
    with transaction.atomic():
        series, tournament = _lock(series)
        a, b = _seats_to_swap(series, entry_a, entry_b, version)
        # Table number and seat of each, for the audit's before and after.
        place_a = [a.table.number, a.number]
        place_b = [b.table.number, b.number]
        # The figures as drawn, kept from the first swap on: publishing a
        # draw that swaps made worse asks once (`swapped_worse`).
        drawn = (series.quality or {}).get("drawn")
        if not drawn:
            entries, earlier = _as_it_stands(series)
            drawn = _figures(
                _draw_option("", adapter.stored_series(series), earlier, entries)
            )
        _exchange(series, a, b, entry_a)
        series.quality = {**(series.quality or {}), "drawn": drawn}
        _measure(series, tournament)
        series.version += 1
        series.save(update_fields=["quality", "version"])
        if series.is_public:
            invalidation.seating_changed(tournament.pk)
        audit_record(
            actor=actor,
            action="series.swap",
            obj=series,
            tournament=tournament,
            before={
                "a": [entry_a.start_number, *place_a],
                "b": [entry_b.start_number, *place_b],
            },
            after={
                "a": [entry_a.start_number, *place_b],
                "b": [entry_b.start_number, *place_a],
            },
        )
    return series


def _seats_to_swap(
    series: Series, entry_a: Entry, entry_b: Entry, version: int
) -> tuple[Seat, Seat]:
    """The seats of `entry_a` and `entry_b` in the locked `series`, locked
    too; refused unless the series is still as the organizer saw it and open
    to swaps, and the two are different players at different tables."""
    _check_version(series, version)
    if series.status not in SWAPPABLE:
        raise UserError(
            _("In Serie %(n)d kann nicht mehr getauscht werden.")
            % {"n": series.number},
            code="locked",
        )
    if entry_a.pk == entry_b.pk:
        raise UserError(_("Bitte zwei verschiedene Spieler wählen."), code="same")
    seats = {
        s.entry_id: s
        for s in Seat.objects.select_for_update().filter(
            series=series, entry__in=[entry_a, entry_b]
        )
    }
    if len(seats) != 2:
        raise UserError(
            _("Beide Spieler müssen in dieser Serie sitzen."), code="not_seated"
        )
    a, b = seats[entry_a.pk], seats[entry_b.pk]
    if a.table_id == b.table_id:
        raise UserError(
            _(
                "%(a)s und %(b)s sitzen beide an Tisch %(t)d: ein Tausch am "
                "selben Tisch änderte nur die Sitze, nicht die Gegner."
            )
            % {
                "a": entry_a.player.full_name,
                "b": entry_b.player.full_name,
                "t": a.table.number,
            },
            code="same_table",
        )
    return a, b


def _exchange(series: Series, a: Seat, b: Seat, entry_a: Entry) -> None:
    """Put `b`'s player on seat `a` and `entry_a` on the seat `b` had. Two
    steps: the unique (series, entry) constraint must hold after every
    single statement."""
    a_table, a_number, b_table, b_number = a.table_id, a.number, b.table_id, b.number
    a.delete()
    b.table_id, b.number = a_table, a_number
    b.save()
    Seat.objects.create(series=series, table_id=b_table, number=b_number, entry=entry_a)


def worse_text(drawn: dict[str, int], now: dict[str, int]) -> str:
    """What swaps made worse, in the quality report's words."""
    words = {
        "repeats": _("wiederholte Begegnungen"),
        "club_tables": _("Tische mit Vereinskameraden"),
        "three_again": _("Spieler öfter als nötig am Dreiertisch"),
    }
    return ", ".join(
        _("%(what)s: %(now)d statt %(drawn)d")
        % {"what": words[name], "now": now[name], "drawn": int(drawn.get(name, 0))}
        for name in DRAWN_FIGURES
        if now[name] > int(drawn.get(name, 0))
    )
