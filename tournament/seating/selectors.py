"""Reads of series and their seating; each selector owns its query shape."""

from itertools import combinations
from typing import TYPE_CHECKING, TypeAlias, TypedDict

from django.db.models import (
    Count,
    Exists,
    OuterRef,
    Prefetch,
    Q,
    prefetch_related_objects,
)
from django.shortcuts import get_object_or_404

from tournament.models import (
    AuditEvent,
    DigitalTable,
    Entry,
    ResultVersion,
    Seat,
    Series,
    Table,
    Tournament,
)
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
    players (2 queries); `table.seats.all()` gives the seats in seat order,
    each seat's `table` the table it is listed under (no query per seat: the
    hall's list of names asks every seat for its table)."""
    tables = list(Table.objects.filter(series=series).order_by("number"))
    for table in tables:
        table.series = series
    seats = Seat.objects.select_related("entry__player").order_by("number")
    prefetch_related_objects(tables, Prefetch("seats", queryset=seats))
    return tables


def start_number_tables(series: Series) -> list[list[int]]:
    """The seating of a series as the hall reads it: the tables by number,
    each one's start numbers in seat order (one query). The Protokoll keeps
    this, not entry ids, so that it reads like the seating's page."""
    tables: dict[int, list[int]] = {}
    for table_number, start_number in series.seats.order_by(
        "table__number", "number"
    ).values_list("table__number", "entry__start_number"):
        tables.setdefault(table_number, []).append(start_number)
    return [tables[number] for number in sorted(tables)]


def begun_tables(tables: list[Table]) -> set[int]:
    """The ids of those of `tables` whose games have begun as far as the
    site knows: a result is in (entered, waiting or confirmed) or a digital
    game started (two queries)."""
    ids = [t.pk for t in tables]
    return set(
        ResultVersion.objects.filter(table_id__in=ids).values_list(
            "table_id", flat=True
        )
    ) | set(
        DigitalTable.objects.filter(table_id__in=ids).values_list("table_id", flat=True)
    )


class LateChoice(TypedDict):
    """A table of three of a released series, as a late arrival's page
    offers its free seat (`late_choices`)."""

    table: Table
    begun: bool


def late_choices(series: Series) -> list[LateChoice]:
    """The tables of three of `series` with their players, each with
    whether its games have begun (then its seat is no longer free); four
    queries."""
    tables = [t for t in series_tables(series) if t.size == 3]
    begun = begun_tables(tables)
    return [{"table": t, "begun": t.pk in begun} for t in tables]


# A table's number is a small integer column: a larger one names no table
# (a link with one is not asked about).
MAX_TABLE = 32767

# "Wo sitze ich?" shows at most this many players; more ask for a closer search.
SEAT_SEARCH_LIMIT = 20


class SeatSearch(TypedDict):
    """ "Where do I sit?" (`seat_search`): the players found, each with their
    seats in the public series, and whether there were more."""

    results: list[dict[str, object]]
    more: bool


def seat_search(tournament: Tournament, query: str) -> SeatSearch:
    """ "Where do I sit?": the players the query finds (as every player
    search: umlauts, case and start numbers, see `entries_for`) and their
    table and seat in every public series; three queries."""
    entries: list[Entry] = []
    if query.strip():
        entries = list(entries_for(tournament, query=query)[: SEAT_SEARCH_LIMIT + 1])
    more = len(entries) > SEAT_SEARCH_LIMIT
    entries = entries[:SEAT_SEARCH_LIMIT]
    seats = (
        Seat.objects.filter(
            entry__in=entries,
            series__status__in=Series.PUBLIC_STATUSES,
        )
        .select_related("series", "table")
        .defer("series__quality")
        .order_by("series__number")
    )
    by_entry: dict[int, list[Seat]] = {}
    for seat in seats:
        by_entry.setdefault(seat.entry_id, []).append(seat)
    return {
        "results": [{"entry": e, "seats": by_entry.get(e.pk, [])} for e in entries],
        "more": more,
    }


class FieldChanges(TypedDict):
    """How the field differs from a series' seating (`field_changes`)."""

    # Present (checked in, not withdrawn) but without a seat in the series.
    late: list[Entry]
    # Seated in the series but withdrawn or no longer checked in.
    gone: list[Entry]


def field_changes(series: Series) -> FieldChanges:
    """Who arrived, left or was withdrawn since the series was seated; by
    start number, with their players (one query)."""
    seated = Seat.objects.filter(series=series, entry=OuterRef("pk"))
    present = Q(checked_in=True, withdrawn_at__isnull=True)
    entries = (
        Entry.objects.filter(tournament_id=series.tournament_id)
        .filter(present | Exists(seated))
        .annotate(is_seated=Exists(seated))
        .select_related("player")
        .order_by("start_number")
    )
    changes: FieldChanges = {"late": [], "gone": []}
    for entry in entries:
        here = entry.checked_in and entry.withdrawn_at is None
        if here and not entry.is_seated:
            changes["late"].append(entry)
        elif entry.is_seated and not here:
            changes["gone"].append(entry)
    return changes


class ClubMates(TypedDict):
    club: str
    names: list[str]


class ClubTable(TypedDict):
    """A table with members of one club (of several clubs, each listed): the
    report counts tables, as the draws offered beside it do."""

    table: int
    clubs: list[ClubMates]


class ThreeAgain(TypedDict):
    table: int
    name: str
    times: int  # tables of three so far, this one included


class RepeatedPair(TypedDict):
    table: int
    names: list[str]
    times: int  # meetings so far, this one included


class SeatingReport(TypedDict):
    """Where the quality report's figures come from, in this series."""

    club_tables: list[ClubTable]
    three_again: list[ThreeAgain]
    repeats: list[RepeatedPair]
    # Pairs that met more than once in the earlier series only.
    earlier_repeats: int


def _earlier_tables(
    series: Series,
) -> tuple[dict[tuple[int, int], int], dict[int, int]]:
    """From the series before `series` (one query): how often each pair of
    entries (the lower id first) met at a table, and how often each entry
    sat at a table of three."""
    earlier = (
        Seat.objects.filter(
            series__tournament_id=series.tournament_id,
            series__number__lt=series.number,
        )
        .seated()
        .values_list("table_id", "table__size", "entry_id")
    )
    met: dict[tuple[int, int], int] = {}
    three: dict[int, int] = {}
    earlier_tables: dict[int, list[int]] = {}
    for table_id, size, entry_id in earlier:
        earlier_tables.setdefault(table_id, []).append(entry_id)
        if size == 3:
            three[entry_id] = three.get(entry_id, 0) + 1
    for players in earlier_tables.values():
        for pair in combinations(sorted(players), 2):
            met[pair] = met.get(pair, 0) + 1
    return met, three


def _club_mates(seats: list[Seat]) -> list[ClubMates]:
    """The clubs with more than one player among `seats`, with their names."""
    clubs: dict[str, list[str]] = {}
    for seat in seats:
        if seat.entry.player.club:
            clubs.setdefault(seat.entry.player.club, []).append(
                seat.entry.player.full_name
            )
    return [
        {"club": club, "names": names}
        for club, names in clubs.items()
        if len(names) > 1
    ]


def seating_report(series: Series, tables: list[Table]) -> SeatingReport:
    """The places behind the quality figures of a seated series: tables
    with members of one club, players at a table of three more often than
    the arithmetic forces (`quality["three_bound"]`), pairs meeting again.
    `tables` are the series' tables with seats and players
    (`series_tables`); one query reads the earlier series."""
    met, three = _earlier_tables(series)
    bound = int((series.quality or {}).get("three_bound") or 1)
    report: SeatingReport = {
        "club_tables": [],
        "three_again": [],
        "repeats": [],
        "earlier_repeats": sum(1 for times in met.values() if times > 1),
    }
    for table in tables:
        seats = list(table.seats.all())
        mates = _club_mates(seats)
        if mates:
            report["club_tables"].append({"table": table.number, "clubs": mates})
        if table.size == 3:
            for seat in seats:
                times = three.get(seat.entry_id, 0) + 1
                if times > bound:
                    report["three_again"].append(
                        {
                            "table": table.number,
                            "name": seat.entry.player.full_name,
                            "times": times,
                        }
                    )
        for a, b in combinations(sorted(seats, key=lambda s: s.entry_id), 2):
            times = met.get((a.entry_id, b.entry_id), 0) + 1
            if times > 1:
                report["repeats"].append(
                    {
                        "table": table.number,
                        "names": [a.entry.player.full_name, b.entry.player.full_name],
                        "times": times,
                    }
                )
    return report


def seats_of(series: Series, start_numbers: list[int]) -> dict[int, Seat]:
    """The seats of some players in a series, by start number, with table,
    entry and player (one query)."""
    return {
        seat.entry.start_number: seat
        for seat in Seat.objects.filter(
            series=series, entry__start_number__in=start_numbers
        ).select_related("table", "entry__player")
    }


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
    series = public.defer("quality").order_by("-number").first()
    if series is not None:
        series.tournament = tournament
    return series


class LateArrival(TypedDict):
    """A player of a draw who came after an earlier series was drawn."""

    entry: Entry
    # The earlier series drawn without him (he sat them out).
    missed: list[int]
    # The earlier series whose free seat at a table of three he took:
    # (series, table).
    joined: list[tuple[int, int]]


class SwapMade(TypedDict):
    series: int
    a: Entry
    b: Entry


class RedrawReasons(TypedDict):
    """What changed in the series before a draw since each was drawn, the
    reasons a later draw has less room (`redraw_reasons`)."""

    late: list[LateArrival]
    swaps: list[SwapMade]
    # Played in an earlier series, withdrawn or no longer present now.
    gone: list[Entry]
    # Swapped by hand in this series since its draw.
    own_swaps: list[SwapMade]


# The Protokoll's entries of a series that change who sits where.
SERIES_CHANGES = (
    "series.seat",
    "series.seat_standings",
    "series.swap",
    "series.seat_late",
)


def own_swaps(series: Series) -> list[SwapMade]:
    """The swaps by hand in `series` since it was last drawn, from the
    Protokoll (two queries): a reason its report differs from its draw."""
    swapped: list[tuple[int, int]] = []
    for action, after in (
        AuditEvent.objects.filter(
            tournament_id=series.tournament_id,
            object_type="series",
            object_id=str(series.pk),
            action__in=SERIES_CHANGES,
        )
        .order_by("pk")
        .values_list("action", "after")
    ):
        if action in ("series.seat", "series.seat_standings"):
            swapped = []
        elif action == "series.swap" and after:
            swapped.append((after["a"][0], after["b"][0]))
    if not swapped:
        return []
    by_number = {
        e.start_number: e
        for e in Entry.objects.filter(
            tournament_id=series.tournament_id,
            start_number__in={n for pair in swapped for n in pair},
        ).select_related("player")
    }
    return [
        {"series": series.number, "a": by_number[a], "b": by_number[b]}
        for a, b in swapped
        if a in by_number and b in by_number
    ]


def _drawn_late(
    series: Series,
    numbers: list[int],
    sat: dict[int, set[int]],
    entries: dict[int, Entry],
) -> dict[int, LateArrival]:
    """Who is drawn in `series` but sat in none of the earlier series
    `numbers` (the series each entry `sat` in), with those he missed."""
    late: dict[int, LateArrival] = {}
    for entry_id, played in sat.items():
        missed = [n for n in numbers if n not in played]
        if series.number in played and missed:
            late[entry_id] = {
                "entry": entries[entry_id],
                "missed": missed,
                "joined": [],
            }
    return late


def _changes_by_hand(
    series: Series,
    earlier: dict[str, int],
    by_number: dict[int, Entry],
    late: dict[int, LateArrival],
) -> dict[int, list[SwapMade]]:
    """The swaps by hand in the `earlier` series (by the Protokoll's ids of
    them) that their latest draw has not replaced, by series; a late
    arrival seated at a table of three joins `late` with where he sat."""
    swaps: dict[int, list[SwapMade]] = {}
    for object_id, action, after in (
        AuditEvent.objects.filter(
            tournament_id=series.tournament_id,
            object_type="series",
            object_id__in=list(earlier),
            action__in=SERIES_CHANGES,
        )
        .order_by("pk")
        .values_list("object_id", "action", "after")
    ):
        number = earlier[object_id]
        after = after or {}
        if action in ("series.seat", "series.seat_standings"):
            # Drawn anew: the swaps before are gone with the old seating.
            swaps[number] = []
        elif action == "series.swap":
            a, b = by_number.get(after["a"][0]), by_number.get(after["b"][0])
            if a is not None and b is not None:
                swaps.setdefault(number, []).append({"series": number, "a": a, "b": b})
        elif action == "series.seat_late":
            table, start_numbers = after["at_table"]
            entry = by_number.get(start_numbers[-1])
            if entry is not None:
                arrival = late.setdefault(
                    entry.pk, {"entry": entry, "missed": [], "joined": []}
                )
                arrival["joined"].append((number, table))
    return swaps


def redraw_reasons(series: Series) -> RedrawReasons:
    """The changes to the series before `series` that its draw has to work
    around: who arrived late (drawn now, but without a seat in an earlier
    series, or seated late at a table of three), which two players were
    swapped by hand (a swap the series' latest draw has not replaced), who
    played earlier and has withdrawn or left. From the seats and entries
    and the Protokoll (four queries); and the swaps by hand in `series`
    itself since its draw (`own_swaps`)."""
    reasons: RedrawReasons = {
        "late": [],
        "swaps": [],
        "gone": [],
        "own_swaps": own_swaps(series),
    }
    earlier = {
        str(pk): number
        for pk, number in Series.objects.filter(
            tournament_id=series.tournament_id, number__lt=series.number
        )
        .seated()
        .values_list("pk", "number")
    }
    if not earlier:
        return reasons
    entries = {
        e.pk: e
        for e in Entry.objects.filter(tournament_id=series.tournament_id)
        .select_related("player")
        .order_by("start_number")
    }
    by_number = {e.start_number: e for e in entries.values()}
    sat: dict[int, set[int]] = {}
    for entry_id, number in Seat.objects.filter(
        series__tournament_id=series.tournament_id,
        series__number__lte=series.number,
    ).values_list("entry_id", "series__number"):
        sat.setdefault(entry_id, set()).add(number)
    numbers = sorted(earlier.values())
    late = _drawn_late(series, numbers, sat, entries)
    swaps = _changes_by_hand(series, earlier, by_number, late)
    reasons["late"] = sorted(late.values(), key=lambda a: a["entry"].start_number)
    reasons["swaps"] = [s for number in sorted(swaps) for s in swaps[number]]
    reasons["gone"] = [
        e
        for e in entries.values()
        if sat.get(e.pk, set()) & set(numbers)
        and not (e.checked_in and e.withdrawn_at is None)
    ]
    return reasons
