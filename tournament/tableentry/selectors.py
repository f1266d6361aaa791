"""Reads of a player's own pages: a table's result as its players see it
(`table_entry_state`), and "Mein Turnier": one entry, its table in the
current series and that table's result, its place and its series."""

from dataclasses import dataclass
from functools import cached_property

from django.db.models import Prefetch

from tournament.models import (
    Entry,
    ResultAnswer,
    ResultVersion,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.results import selectors as results_selectors
from tournament.results.selectors import PlayerPoints
from tournament.seating.selectors import MAX_TABLE, current_series
from tournament.standings.selectors import (
    PlayerTable,
    Row,
    Standings,
    player_tables,
    standings,
)
from tournament.tableentry import services


@dataclass(frozen=True)
class TableEntryState:
    """A table's result as its players see it on their phones: the waiting
    version (who entered it, the answers so far) and the confirmed one."""

    pending: ResultVersion | None
    confirmed: ResultVersion | None

    @property
    def answers(self) -> list[ResultAnswer]:
        return list(self.pending.answers.all()) if self.pending else []

    @property
    def disputed(self) -> bool:
        return any(not a.agrees for a in self.answers)

    @property
    def state(self) -> str:
        """One word for the table's state: "none" (nothing entered),
        "referee" (a referee's entry waits), "entered" (a player's entry
        waits, nobody answered), "agreed" (some said *Stimmt*), "disputed"
        (somebody said *Stimmt nicht*), "confirmed" (it counts)."""
        if self.pending is None:
            return "confirmed" if self.confirmed else "none"
        if not self.pending.at_table:
            return "referee"
        if self.disputed:
            return "disputed"
        return "agreed" if self.answers else "entered"


def table_entry_state(table: Table) -> TableEntryState:
    """The waiting and the confirmed version of a table, with who entered
    and decided them and the players' answers (2 queries)."""
    versions = list(
        results_selectors.result_versions(table)
        .filter(
            status__in=[ResultVersion.Status.PENDING, ResultVersion.Status.CONFIRMED]
        )
        .order_by("-number")
        .prefetch_related(
            Prefetch(
                "answers",
                queryset=ResultAnswer.objects.select_related("entry__player").order_by(
                    "answered_at", "id"
                ),
            )
        )
    )
    by_status = {v.status: v for v in versions}
    for version in versions:
        version.table = table  # its seats are the table's, prefetched
    return TableEntryState(
        pending=by_status.get(ResultVersion.Status.PENDING),
        confirmed=by_status.get(ResultVersion.Status.CONFIRMED),
    )


@dataclass(frozen=True)
class MyTable:
    """The player's table in the current series, and what he may do there
    (the services' rules: `services.table_player_refusals`)."""

    table: Table  # seats prefetched with their players
    seat: Seat
    result: TableEntryState
    # Points of the version shown: the waiting one, else the confirmed one.
    points: list[PlayerPoints]
    may_enter: bool
    may_confirm: bool
    may_reject: bool
    # Why he may not enter (shown only where it helps: "table_entry_off"
    # is the tournament's, not his).
    enter_refusal: str
    # The players whose *Stimmt* the waiting entry still waits for; nobody
    # once a player said *Stimmt nicht* (then the referees decide).
    waiting_for: list[Seat]

    @property
    def others(self) -> list[Seat]:
        return [s for s in self.table.seats.all() if s.pk != self.seat.pk]

    @property
    def objections(self) -> list[ResultAnswer]:
        """The *Stimmt nicht* answers to the waiting entry."""
        return [a for a in self.result.answers if not a.agrees]

    @property
    def objectors(self) -> list[str]:
        """The names of the others who said *Stimmt nicht*."""
        return [
            a.entry.player.full_name
            for a in self.objections
            if a.entry_id != self.seat.entry_id
        ]

    @property
    def objected(self) -> bool:
        """This player said *Stimmt nicht* to the waiting entry."""
        return any(a.entry_id == self.seat.entry_id for a in self.objections)


@dataclass(frozen=True)
class MyPage:
    tournament: Tournament
    entry: Entry
    current: Series | None  # the latest released series
    mine: MyTable | None  # his table in it, if he is seated there

    # Read only when shown: the phone's outbox asks for his table alone.
    @cached_property
    def _standings(self) -> Standings:
        return standings(self.tournament)

    @cached_property
    def row(self) -> Row | None:
        """His place and points, once he has a confirmed result."""
        return next(
            (r for r in self._standings.rows if r.entry_id == self.entry.pk), None
        )

    @property
    def ranked(self) -> int:
        """How many players are ranked."""
        return len(self._standings.rows)

    @cached_property
    def series_rows(self) -> list[PlayerTable]:
        return player_tables(self.entry)

    @property
    def state(self) -> str:
        """His table's state in one word (`TableEntryState.state`), or
        "unseated" / "no_series"."""
        if self.current is None:
            return "no_series"
        if self.mine is None:
            return "unseated"
        return self.mine.result.state

    @property
    def finished(self) -> bool:
        """The tournament is closed: his place is the final one."""
        return self.tournament.status == Tournament.Status.FINISHED

    @property
    def last_series(self) -> bool:
        return (
            self.current is not None
            and self.current.number >= self.tournament.series_count
        )


def _my_table(entry: Entry, series: Series) -> MyTable | None:
    seat = (
        Seat.objects.filter(series=series, entry=entry)
        .order_by()
        .values_list("table__number", flat=True)
        .first()
    )
    if seat is None:
        return None
    table = results_selectors.table_for_entry(series, seat)
    table.series = series
    mine = next(s for s in table.seats.all() if s.entry_id == entry.pk)
    result = table_entry_state(table)
    shown = result.pending or result.confirmed
    refusals = services.table_player_refusals(
        player=entry, table=table, version=result.pending
    )
    waiting_for: list[Seat] = []
    if result.pending is not None and result.pending.at_table and not result.disputed:
        needed = services.needed_answers(table, result.pending)
        agreed = {a.entry_id for a in result.answers if a.agrees}
        waiting_for = [s for s in table.seats.all() if s.entry_id in needed - agreed]
    refused_entry = refusals["enter"]
    return MyTable(
        table=table,
        seat=mine,
        result=result,
        points=results_selectors.table_points(table, shown) if shown else [],
        may_enter=refused_entry is None,
        may_confirm=refusals["confirm"] is None,
        may_reject=refusals["reject"] is None,
        enter_refusal=refused_entry.message if refused_entry is not None else "",
        waiting_for=waiting_for,
    )


def my_page(entry: Entry) -> MyPage:
    """Everything "Mein Turnier" shows for `entry` (its tournament and
    player loaded)."""
    tournament = entry.tournament
    current = current_series(tournament)
    return MyPage(
        tournament=tournament,
        entry=entry,
        current=current,
        mine=_my_table(entry, current) if current is not None else None,
    )


def released_table(entry: Entry, series: int, table: int) -> Table | None:
    """The table `table` of series `series` of the player's tournament, with
    its seats; None for one that does not exist or that nobody may see yet
    (unreleased)."""
    # Beyond what the database holds (the Series and Table constraints): no
    # such table, and the database is not asked.
    if not (1 <= series <= Tournament.MAX_SERIES and 1 <= table <= MAX_TABLE):
        return None
    found = (
        Series.objects.public()
        .filter(tournament_id=entry.tournament_id, number=series)
        .first()
    )
    if found is None:
        return None
    try:
        return results_selectors.table_for_entry(found, table)
    except Table.DoesNotExist:
        return None
