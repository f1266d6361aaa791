"""Reads of results: versions, progress, a series' score grids."""

from dataclasses import dataclass
from typing import Any, TypedDict

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.core.rules import seat_points
from tournament.models import (
    ResultAnswer,
    ResultVersion,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.models.core import unread_through
from tournament.models.results import winners_and_marks
from tournament.results.notation import hand_text
from tournament.seating.selectors import series_tables


def table_for_entry(series: Series, number: int) -> Table:
    return (
        Table.objects.select_related("series__tournament")
        .defer("series__quality", *unread_through("series__tournament"))
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("entry__player").order_by(
                    "number"
                ),
            )
        )
        .get(series=series, number=number)
    )


def result_versions(table: Table) -> QuerySet[ResultVersion]:
    """A table's versions, newest first, with who entered and decided them
    and the photo each was pre-filled from (`ResultVersion.from_photo`)."""
    return ResultVersion.objects.filter(table=table).select_related(
        "entered_by",
        "decided_by",
        "entered_by_player__player",
        "decided_by_player__player",
        "photo",
    )


class _TableCounts(TypedDict):
    series_id: int
    number: int
    pending: int
    confirmed: int


class SeriesProgress(TypedDict):
    """A series' tables by the state of their results (`series_progress`)."""

    series: Series
    tables: int
    pending: list[int]
    confirmed: int
    confirmed_tables: list[int]
    missing: list[int]
    # (table number, "confirmed" | "pending" | "missing")
    table_states: list[tuple[int, str]]


def series_progress(tournament: Tournament) -> list[SeriesProgress]:
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
    by_series: dict[int, list[_TableCounts]] = {}
    for t in tables:
        by_series.setdefault(t["series_id"], []).append(t)
    out: list[SeriesProgress] = []
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


class PlayerPoints(TypedDict):
    seat: Seat
    points: list[int | None]  # per game; None: not played by him
    total: int


class TableResults(TypedDict):
    """A table's players and points in a series (`series_results`)."""

    table: Table
    version: ResultVersion | None
    provisional: bool
    players: list[PlayerPoints]


def series_results(series: Series, *, include_pending: bool) -> list[TableResults]:
    """Per table of a series: players in seat order and their points per
    game from the confirmed (or, if asked, pending) version."""
    tables = series_tables(series)
    statuses = [ResultVersion.Status.CONFIRMED]
    if include_pending:
        statuses.append(ResultVersion.Status.PENDING)
    versions: dict[int, ResultVersion] = {}
    for candidate in ResultVersion.objects.filter(
        table__series=series, status__in=statuses
    ).order_by("number"):
        current = versions.get(candidate.table_id)
        if current is None or current.status != ResultVersion.Status.CONFIRMED:
            versions[candidate.table_id] = candidate
    out: list[TableResults] = []
    for table in tables:
        version = versions.get(table.pk)
        out.append(
            {
                "table": table,
                "version": version,
                "provisional": version is not None
                and version.status == ResultVersion.Status.PENDING,
                "players": _players_points(
                    table, version, series.tournament, series.number
                ),
            }
        )
    return out


def _players_points(
    table: Table, version: ResultVersion | None, tournament: Tournament, series: int
) -> list[PlayerPoints]:
    """Points per player and game of `version`; None for a game he did not
    play (he withdrew before it, or his table, left too small, did not play
    it). A digital table still playing lists only its games so far."""
    games = version.games if version else []
    count = tournament.games_per_series
    full = version is not None and version.complete
    players: list[PlayerPoints] = []
    for seat in table.seats.all():
        plays = seat.entry.last_game_in(series, count) if full else len(games)
        points: list[int | None] = [
            None if n > plays else seat_points(g, seat.number, tournament)
            for n, g in enumerate(games, 1)
        ]
        if full:
            points += [None] * (count - len(games))
        total = sum(p for p in points if p is not None)
        players.append({"seat": seat, "points": points, "total": total})
    return players


def table_points(table: Table, version: ResultVersion) -> list[PlayerPoints]:
    """A table's players in seat order with their points per game of
    `version` and their total (the table's seats prefetched, as
    `table_for_entry` gives them: no query)."""
    return _players_points(table, version, table.series.tournament, table.series.number)


def hand_notation(hand: dict[str, Any]) -> str:
    """A stored hand in the short notation the result form reads, for
    whatever prints hands (the filled score sheets)."""
    return hand_text(hand)


def table_or_404(slug: str, series_number: int, table_number: int) -> Table:
    """A table of a series with its seats and players (also for the digital
    table pages)."""
    series = get_object_or_404(Series, tournament__slug=slug, number=series_number)
    try:
        return table_for_entry(series, table_number)
    except Table.DoesNotExist as exc:
        from django.http import Http404

        raise Http404 from exc


@dataclass(frozen=True)
class GameDiff:
    """One game in two versions: (winner seat, marks kept) in each."""

    number: int
    first: tuple[int, int] | None
    second: tuple[int, int] | None

    @property
    def differs(self) -> bool:
        return self.second is not None and self.first != self.second


@dataclass(frozen=True)
class TableReview:
    """A table the referees should look at: its players disputed their
    entry (*Stimmt nicht*), or a referee's entry differs from what the
    table's players entered. `first` is the version that waits, `second`
    the one to compare it with (the table's earlier entry, or the
    players' entry a referee's differs from); `games` side by side."""

    table: Table
    kind: str  # "disputed" | "differs"
    first: ResultVersion
    second: ResultVersion | None
    objections: list[ResultAnswer]
    games: list[GameDiff]

    @property
    def differing(self) -> list[int]:
        return [g.number for g in self.games if g.differs]


def _pairs(version: ResultVersion | None) -> list[tuple[int, int]]:
    if version is None:
        return []
    return winners_and_marks(version.games)


def _diff(first: ResultVersion, second: ResultVersion | None) -> list[GameDiff]:
    a, b = _pairs(first), _pairs(second)
    return [
        GameDiff(
            number=n + 1,
            first=a[n] if n < len(a) else None,
            second=b[n] if n < len(b) else None,
        )
        for n in range(max(len(a), len(b)))
    ]


def table_reviews(
    tournament: Tournament, *, table: Table | None = None
) -> list[TableReview]:
    """The tables (or the one `table`) whose waiting result needs a referee:
    disputed by a player of the table, or entered by a referee differently
    from the table's own entry (its players' latest, waiting, confirmed or
    replaced). A referee's entry that agrees with the table's is no review.
    Three queries, whatever the number of tables.

    Either kind needs an entry of the table's own players (the disputed
    entry is one, and the differing referee's entry is compared with one),
    so only tables with one are read: a day without entry at the table
    reads no waiting entry at all, although every referee's page asks."""
    waiting = _waiting_at_players_tables(tournament, table)
    earlier = _players_entries([v.table_id for v in waiting])
    reviews = []
    for version in waiting:
        before = [
            v for v in earlier.get(version.table_id, []) if v.number < version.number
        ]
        review = _review(version, before[-1] if before else None)
        if review is not None:
            reviews.append(review)
    return reviews


def _waiting_at_players_tables(
    tournament: Tournament, table: Table | None
) -> list[ResultVersion]:
    """The waiting entries of the tournament's tables (or of `table`) that
    have an entry of their own players, with their objections, in the
    order of series and table."""
    by_players = (
        ResultVersion.objects.filter(entered_by_player__isnull=False)
        .exclude(status=ResultVersion.Status.REJECTED)
        .values("table_id")
    )
    waiting = (
        ResultVersion.objects.filter(
            status=ResultVersion.Status.PENDING, table__in=by_players
        )
        .select_related("table__series", "entered_by", "entered_by_player__player")
        .prefetch_related(
            Prefetch(
                "answers",
                queryset=ResultAnswer.objects.filter(
                    answer=ResultAnswer.Answer.DISAGREE
                ).select_related("entry__player"),
            )
        )
        .order_by("table__series__number", "table__number")
    )
    if table is not None:
        waiting = waiting.filter(table=table)
    else:
        waiting = waiting.filter(table__series__tournament=tournament)
    return list(waiting)


def _players_entries(table_ids: list[int]) -> dict[int, list[ResultVersion]]:
    """The players' entries of these tables, by table, newest last."""
    earlier: dict[int, list[ResultVersion]] = {}
    for version in (
        ResultVersion.objects.filter(
            table__in=table_ids,
            entered_by_player__isnull=False,
        )
        .exclude(status=ResultVersion.Status.REJECTED)
        .select_related("entered_by_player__player")
        .order_by("number")
    ):
        earlier.setdefault(version.table_id, []).append(version)
    return earlier


def _review(
    version: ResultVersion, previous: ResultVersion | None
) -> TableReview | None:
    """The review `version` needs against the players' entry before it
    (`previous`): disputed at the table, or a referee's entry that differs;
    None when it needs none."""
    objections = list(version.answers.all())
    if version.at_table and objections:
        return TableReview(
            table=version.table,
            kind="disputed",
            first=version,
            second=previous,
            objections=objections,
            games=_diff(version, previous),
        )
    if not version.at_table and previous is not None:
        games = _diff(version, previous)
        if any(g.differs for g in games):
            return TableReview(
                table=version.table,
                kind="differs",
                first=version,
                second=previous,
                objections=[],
                games=games,
            )
    return None


# --- What the live pages say changed ------------------------------------------


@dataclass(frozen=True)
class LastConfirmed:
    """The table whose result counts since last (a confirmation or a
    correction): what a live page's update says changed, in a few words
    for a screen reader (never the whole table). `key` names the version,
    so a page says it once."""

    key: str
    series: int
    table: int
    entry_ids: tuple[int, ...]

    def text(self, *, name: str = "", rank: int = 0) -> str:
        """ "Serie 2, Tisch 7 bestätigt." and, with a player of the table
        and his place now, ": Rainer Kreuser jetzt 3."."""
        if name and rank:
            return _(
                "Serie %(s)d, Tisch %(t)d bestätigt: %(name)s jetzt Platz %(rank)d."
            ) % {"s": self.series, "t": self.table, "name": name, "rank": rank}
        return _("Serie %(s)d, Tisch %(t)d bestätigt.") % {
            "s": self.series,
            "t": self.table,
        }


def last_confirmed(
    tournament: Tournament, *, series: Series | None = None
) -> LastConfirmed | None:
    """The table (of `series`, if given) whose result was confirmed last."""
    versions = ResultVersion.objects.filter(
        table__series__tournament=tournament,
        status=ResultVersion.Status.CONFIRMED,
    )
    if series is not None:
        versions = versions.filter(table__series=series)
    version = (
        versions.select_related("table__series")
        .order_by(F("decided_at").desc(nulls_last=True), "-pk")
        .first()
    )
    if version is None:
        return None
    table = version.table
    seats = Seat.objects.filter(table=table).order_by("number")
    return LastConfirmed(
        key=str(version.pk),
        series=table.series.number,
        table=table.number,
        entry_ids=tuple(seats.values_list("entry_id", flat=True)),
    )
