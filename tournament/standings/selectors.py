"""Standings (RULES.md §8): totals over all games, shared ranks for equal
totals, optional tie-break keys, recorded playoffs/lots, ladies and teams.

`standings_rows` runs a constant number of queries (one read of the entries
with their kept totals, one for tie-breaks) whatever the field size; the
rows are cached per tournament until a result changes
(`invalidation.results_changed`).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, TypedDict

from django.core.cache import cache
from django.db import connection

from tournament.live.invalidation import standings_generation
from tournament.models import (
    Entry,
    GameScore,
    Player,
    Seat,
    Series,
    Team,
    TieBreak,
    Tournament,
)


@dataclass(slots=True)
class Row:
    entry_id: int
    start_number: int
    name: str
    club: str
    category: str
    points: int
    games_won: int
    best_game: int
    three_table_games: int
    series_points: list[int]
    rank: int = 0
    tiebreak: str = ""

    def as_api(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "start_number": self.start_number,
            "name": self.name,
            "points": self.points,
            "games_won": self.games_won,
            "series_points": self.series_points,
        }


@dataclass
class TeamRow:
    name: str
    points: int
    members: list[str] = field(default_factory=list)
    rank: int = 0


def _key(tournament: Tournament) -> Callable[[Row], tuple[int, ...]]:
    by_won, by_best = tournament.tiebreak_games_won, tournament.tiebreak_best_game
    if not by_won and not by_best:
        return lambda row: (row.points,)

    def key(row: Row) -> tuple[int, ...]:
        parts = [row.points]
        if by_won:
            parts.append(row.games_won)
        if by_best:
            parts.append(row.best_game)
        return tuple(parts)

    return key


def assign_ranks(
    rows: list[Row],
    key: Callable[[Row], tuple[int, ...]],
    decided: Callable[[], Iterable[list[int]]] = tuple,
) -> list[Row]:
    """Sort best first and rank: equal keys share a rank (1, 2, 2, 4) unless a
    recorded tie-break orders exactly those players (newest decision wins).
    `decided` is asked only if there is a tie."""
    keyed = [(key(r), r) for r in rows]
    # Best first; within equal keys by name, so shared places read A–Z.
    keyed.sort(key=lambda kr: (kr[1].name, kr[1].start_number))
    keyed.sort(key=itemgetter(0), reverse=True)
    decisions: list[list[int]] | None = None
    out: list[Row] = []
    i = 0
    while i < len(keyed):
        j = i + 1
        while j < len(keyed) and keyed[j][0] == keyed[i][0]:
            j += 1
        if j - i == 1:
            keyed[i][1].rank = i + 1
            out.append(keyed[i][1])
            i = j
            continue
        group = [r for _, r in keyed[i:j]]
        numbers = {r.start_number for r in group}
        if decisions is None:
            decisions = list(decided())
        order = next((d for d in decisions if numbers <= set(d)), None)
        if order is not None:
            group.sort(key=lambda r: order.index(r.start_number))
            for offset, row in enumerate(group):
                row.rank = i + 1 + offset
                row.tiebreak = "decided"
        else:
            for row in group:
                row.rank = i + 1
        out.extend(group)
        i = j
    return out


def _compute(tournament: Tournament) -> list[Row]:
    empty = [0] * tournament.series_count
    query = (
        Entry.objects.filter(tournament=tournament)
        .order_by()  # sorted below, by points
        .values_list(
            "id",
            "start_number",
            "player__first_name",
            "player__last_name",
            "player__club",
            "player__category",
            "total__points",
            "total__games_won",
            "total__best_game",
            "total__three_table_games",
            "total__series_points",
        )
    )
    # The ORM builds the SQL; plain rows come straight from the cursor (the
    # per-row ORM conversion was a third of a cold read, and these columns
    # need none).
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    rows = [
        Row(  # positional: the field order of Row
            e[0],
            e[1],
            f"{e[2]} {e[3]}",
            e[4],
            e[5],
            e[6] or 0,
            e[7] or 0,
            e[8] or 0,
            e[9] or 0,
            list(map(int, e[10].split(","))) if e[10] else empty,
        )
        for e in fetched
    ]

    def decisions() -> list[list[int]]:
        if not tournament.has_tiebreaks:
            return []
        return [
            [int(n) for n in t.order]
            for t in TieBreak.objects.filter(tournament=tournament).order_by(
                "-created_at", "-id"
            )
        ]

    return assign_ranks(rows, _key(tournament), decisions)


def cache_key(tournament: Tournament, what: str) -> str:
    """A cache key that changes with every result and tie-break switch."""
    return (
        f"standings:{what}:{tournament.pk}:{standings_generation(tournament.pk)}:"
        f"{tournament.tiebreak_games_won:d}{tournament.tiebreak_best_game:d}"
    )


def standings_rows(tournament: Tournament, *, cached: bool = True) -> list[Row]:
    """The overall standings, best first (cached until a result changes;
    `cached=False` for callers that cache what they make of the rows)."""
    key = cache_key(tournament, "rows")
    if cached:
        rows: list[Row] | None = cache.get(key)
        if rows is not None:
            return rows
    rows = _compute(tournament)
    if cached:
        cache.set(key, rows, timeout=3600)
    return rows


def ladies_rows(rows: list[Row]) -> list[Row]:
    """The ladies' ranking: a filter; each lady keeps her overall place."""
    return [r for r in rows if r.category == Player.Category.LADIES]


def team_rows(tournament: Tournament, rows: list[Row]) -> list[TeamRow]:
    """Teams by the sum of their members' totals; equal sums share a rank."""
    by_entry = {r.entry_id: r for r in rows}
    teams = []
    for team in Team.objects.filter(tournament=tournament).prefetch_related("members"):
        members = [by_entry[m.pk] for m in team.members.all() if m.pk in by_entry]
        teams.append(
            TeamRow(
                name=team.name,
                points=sum(m.points for m in members),
                members=[m.name for m in members],
            )
        )
    teams.sort(key=lambda t: (-t.points, t.name))
    for i, row in enumerate(teams):
        same = i > 0 and teams[i - 1].points == row.points
        row.rank = teams[i - 1].rank if same else i + 1
    return teams


class PlayerTable(TypedDict):
    """A player's table in a series (`player_tables`)."""

    seat: Seat
    opponents: list[Seat]
    points: list[int]  # per game
    total: int
    running: int  # the total over this and the earlier series


def player_tables(entry: Entry) -> list[PlayerTable]:
    """A player's page: per series their table, seat, opponents and points."""
    seats = list(
        Seat.objects.filter(entry=entry)
        .filter(series__status__in=Series.PUBLIC_STATUSES)
        .select_related("series", "table")
        .order_by("series__number")
    )
    opponents: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(
        table__in=[s.table_id for s in seats]
    ).select_related("entry__player"):
        opponents.setdefault(seat.table_id, []).append(seat)
    scores: dict[int, list[int]] = {}
    for table_id, game_points in (
        GameScore.objects.filter(entry=entry)
        .order_by("game")
        .values_list("table_id", "points")
    ):
        scores.setdefault(table_id, []).append(game_points)
    out: list[PlayerTable] = []
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
