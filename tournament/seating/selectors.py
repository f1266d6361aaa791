"""Reads of series and their seating; each selector owns its query shape."""

from typing import TYPE_CHECKING, TypeAlias, TypedDict

from django.db.models import Count, Prefetch
from django.shortcuts import get_object_or_404

from tournament.models import Entry, Seat, Series, Table, Tournament
from tournament.models.seating import SeriesQuerySet
from tournament.registration.selectors import entries_for

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class TableCount(TypedDict):
    table_count: int


# Series with their number of tables (`series.table_count`).
SeriesWithTables: TypeAlias = "SeriesQuerySet[WithAnnotations[Series, TableCount]]"


def series_list(tournament: Tournament) -> SeriesWithTables:
    return (
        Series.objects.filter(tournament=tournament)
        .annotate(table_count=Count("tables", distinct=True))
        .order_by("number")
    )


def series_public(tournament: Tournament) -> SeriesWithTables:
    return series_list(tournament).public()


def series_tables(series: Series) -> list[Table]:
    """The tables of a series in number order with their seats, entries and
    players (2 queries)."""
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
            series__status__in=Series.PUBLIC_STATUSES,
        )
        .select_related("series", "table")
        .order_by("series__number")
    )
    by_entry: dict[int, list[Seat]] = {}
    for seat in seats:
        by_entry.setdefault(seat.entry_id, []).append(seat)
    return [{"entry": e, "seats": by_entry.get(e.pk, [])} for e in entries]


def repeated_meetings(series: Series) -> list[tuple[int, int, int]]:
    """Start numbers of pairs that meet more than once in the series seated
    so far (up to this one), with how often."""
    from tournament.seating import adapter

    seated = [
        adapter.stored_series(s)
        for s in Series.objects.filter(
            tournament_id=series.tournament_id, number__lte=series.number
        ).exclude(status=Series.Status.DRAFT)
    ]
    pairs = adapter.repeated_pairs(seated)
    numbers = dict(
        Entry.objects.filter(tournament_id=series.tournament_id).values_list(
            "id", "start_number"
        )
    )
    return [(numbers[a], numbers[b], n) for a, b, n in pairs]


def public_series_or_404(tournament: Tournament, number: int) -> Series:
    """A released (or later) series of the tournament, else 404: seatings
    and results of unreleased series are not public."""
    series = get_object_or_404(
        Series.objects.public(), tournament=tournament, number=number
    )
    series.tournament = tournament
    return series


def current_series(tournament: Tournament) -> Series | None:
    """The projector's series: the latest one released to the public."""
    public = Series.objects.public().filter(tournament=tournament)
    series = public.order_by("-number").first()
    if series is not None:
        series.tournament = tournament
    return series
