"""Standings (docs/RULES.md §8): totals over all games, shared ranks for equal
totals, optional tie-break keys, recorded playoffs/lots, a ranking per
category (`CATEGORIES`: ladies, seniors, youth) and teams.

Who is ranked: a player with a confirmed result (a table of theirs counted).
A player checked in but without one yet (not seated, or the table not
confirmed) is not ranked among those who played: the pages show them apart,
as "noch ohne Ergebnis". Players neither checked in nor with a result
(no-shows, withdrawn before playing) are left out of the pages; the JSON
API lists every player, the unranked ones with rank 0.

Order within a shared place: by start number. Equal totals share a place
unless the tournament's tie keys (games won, best game) or a recorded
playoff or lot order them; a name never orders anybody.

`standings` runs a constant number of queries (the entries with their kept
totals, the tables' confirmed counts, the tie decisions if any) whatever
the field size; the result is cached per tournament until a result changes
(`invalidation.results_changed`). Check-ins do not announce themselves: the
players waiting for a result follow with the next confirmed result.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from json import loads
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, TypedDict, TypeVar

from django.core.cache import cache
from django.db import connection
from django.db.models import Prefetch, QuerySet
from django.utils import translation
from django.utils.functional import Promise
from django.utils.text import format_lazy, slugify
from django.utils.translation import gettext, gettext_lazy

from tournament.live.invalidation import standings_generation
from tournament.models import (
    Entry,
    EntryTotal,
    GameScore,
    Player,
    ResultVersion,
    Seat,
    Series,
    Table,
    Team,
    TieBreak,
    Tournament,
)
from tournament.models.core import withdrawal_text


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
    # The place in the overall standings, where `rank` is another one's
    # (the ladies' own place); else equal to `rank`.
    overall_rank: int = 0
    # Withdrawn: (after series, after game) as `Entry` keeps them; None
    # while he plays.
    withdrawn: tuple[int | None, int | None] | None = None

    @property
    def withdrawal_text(self) -> str:
        """His mark, "abgemeldet (nach Serie 2, Spiel 2)", in the page's language."""
        return "" if self.withdrawn is None else withdrawal_text(*self.withdrawn)

    def as_api(self, series: Sequence[int | None] | None = None) -> dict[str, Any]:
        """The row for the JSON API; `series`: his points per series as
        `series_cells` gives them (null for a series he has not played, not
        0, which is a series played without a win), else as kept."""
        return {
            "rank": self.rank,
            "start_number": self.start_number,
            "name": self.name,
            "category": self.category,
            "points": self.points,
            "games_won": self.games_won,
            "series_points": self.series_points if series is None else list(series),
            "withdrawn": self.withdrawn is not None,
            "withdrawn_after": None
            if self.withdrawn is None
            else {"series": self.withdrawn[0], "game": self.withdrawn[1]},
        }


@dataclass
class TeamRow:
    name: str
    points: int
    members: list[str] = field(default_factory=list)
    rank: int = 0


@dataclass(frozen=True, slots=True)
class StandingsState:
    """Where the day stands: the standings count every confirmed table up
    to series `after_series` (0: none yet), of whose `tables` `confirmed`
    are confirmed; `missing_earlier` holds (series, tables still missing)
    of the series before it."""

    after_series: int = 0
    confirmed: int = 0
    tables: int = 0
    series_count: int = 0
    missing_earlier: tuple[tuple[int, int], ...] = ()

    @property
    def complete(self) -> bool:
        """Every table up to `after_series` is confirmed."""
        return self.confirmed == self.tables and not self.missing_earlier

    @property
    def final(self) -> bool:
        """Every table of every series is confirmed: the final standings."""
        return 0 < self.after_series == self.series_count and self.complete

    def as_api(self) -> dict[str, Any]:
        return {
            "after_series": self.after_series,
            "tables_confirmed": self.confirmed,
            "tables": self.tables,
            "series": self.series_count,
            "final": self.final,
        }


@dataclass(slots=True)
class Standings:
    """The ranked rows (best first); the players present without a
    confirmed result yet and the others without one (no-shows, withdrawn),
    by start number, unranked (rank 0); and where the day stands."""

    rows: list[Row]
    waiting: list[Row]
    absent: list[Row]
    state: StandingsState

    def unranked(self) -> list[Row]:
        """Everybody without a confirmed result, by start number."""
        return sorted(self.waiting + self.absent, key=lambda r: r.start_number)


class Rankable(Protocol):
    """What `assign_ranks` ranks: a standings row, a season ranking's row."""

    start_number: int
    rank: int
    tiebreak: str
    overall_rank: int


RankedT = TypeVar("RankedT", bound=Rankable)


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
    rows: list[RankedT],
    key: Callable[[RankedT], tuple[int, ...]],
    decided: Callable[[], Iterable[list[int]]] = tuple,
) -> list[RankedT]:
    """Sort best first and rank: equal keys share a rank (1, 2, 2, 4) unless a
    recorded tie-break orders exactly those players (newest decision wins);
    within a shared rank by start number (any stable number that says
    nothing about the players, for rows that have no start number). `decided`
    is asked only if there is a tie."""
    keyed = [(key(r), r) for r in rows]
    # Best first; within equal keys by start number (a shared place is one
    # place: its order says nothing, and never follows the names).
    keyed.sort(key=lambda kr: kr[1].start_number)
    keyed.sort(key=itemgetter(0), reverse=True)
    decisions: list[list[int]] | None = None
    out: list[RankedT] = []
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
    for row in out:
        row.overall_rank = row.rank
    return out


def _state_of(counts: dict[int, tuple[int, int]], series_count: int) -> StandingsState:
    """The state from (confirmed, tables) per series number."""
    played = [n for n, (confirmed, _tables) in counts.items() if confirmed]
    if not played:
        return StandingsState(series_count=series_count)
    last = max(played)
    return StandingsState(
        after_series=last,
        confirmed=counts[last][0],
        tables=counts[last][1],
        series_count=series_count,
        missing_earlier=tuple(
            (n, tables - confirmed)
            for n, (confirmed, tables) in sorted(counts.items())
            if n < last and confirmed < tables
        ),
    )


@lru_cache(maxsize=8)
def _table_counts_sql(tournaments: int) -> str:
    """The query of `_table_counts` for a number of tournaments, written out
    as `_fetch_sql` is (the same reason)."""
    ids = ", ".join(["%s"] * tournaments)
    return (
        "SELECT s.tournament_id, s.number,"
        " COUNT(DISTINCT tb.id) AS tables, COUNT(DISTINCT v.table_id) AS confirmed"
        f" FROM {Series._meta.db_table} s"
        f" JOIN {Table._meta.db_table} tb ON tb.series_id = s.id"
        f" LEFT JOIN {ResultVersion._meta.db_table} v"
        " ON v.table_id = tb.id AND v.status = %s"
        f" WHERE s.tournament_id IN ({ids})"
        " GROUP BY s.tournament_id, s.number"
        " ORDER BY s.tournament_id, s.number"
    )


def _table_counts(
    tournaments: Sequence[Tournament],
) -> dict[int, dict[int, tuple[int, int]]]:
    """One query: per tournament and series its tables and the confirmed
    ones."""
    counts: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    if not tournaments:
        return counts
    with connection.cursor() as cursor:
        cursor.execute(
            _table_counts_sql(len(tournaments)),
            [ResultVersion.Status.CONFIRMED.value, *(t.pk for t in tournaments)],
        )
        for tournament_id, number, tables, confirmed in cursor.fetchall():
            counts[tournament_id][number] = (confirmed, tables)
    return counts


def _state(tournament: Tournament) -> StandingsState:
    """One query: per series its tables and the confirmed ones."""
    counts = _table_counts([tournament]).get(tournament.pk, {})
    return _state_of(counts, tournament.series_count)


class _Fetched(NamedTuple):
    """What a row is made of: an entry, its player and kept totals (the
    totals are None while the player has no confirmed table), named as the
    columns of `_fetch`'s query."""

    id: int
    start_number: int
    first_name: str
    last_name: str
    club: str
    category: str
    points: int | None
    games_won: int | None
    best_game: int | None
    three_table_games: int | None
    series_points: str | None  # JSON text
    checked_in: bool
    withdrawn_at: object  # only ever compared with None
    withdrawn_after_series: int | None
    withdrawn_after_game: int | None
    tournament_id: int


@lru_cache(maxsize=8)
def _fetch_sql(tournaments: int) -> str:
    """The query of `_fetch` for a number of tournaments. Written out, not
    built by the ORM: building and compiling the query and converting its
    rows cost more than the database's work, and every column is used as
    it comes (bench/standings.py measures the cold read)."""
    ids = ", ".join(["%s"] * tournaments)
    return (
        "SELECT e.id, e.start_number,"
        " p.first_name, p.last_name, p.club, p.category,"
        " t.points, t.games_won, t.best_game, t.three_table_games, t.series_points,"
        " e.checked_in, e.withdrawn_at, e.withdrawn_after_series,"
        " e.withdrawn_after_game, e.tournament_id"
        f" FROM {Entry._meta.db_table} e"
        f" JOIN {Player._meta.db_table} p ON p.id = e.player_id"
        f" LEFT JOIN {EntryTotal._meta.db_table} t ON t.entry_id = e.id"
        f" WHERE e.tournament_id IN ({ids})"
        " ORDER BY e.start_number"
    )


def _fetch(tournaments: Sequence[Tournament]) -> list[_Fetched]:
    """The entries of some tournaments with their kept totals, by start
    number: one query."""
    if not tournaments:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_fetch_sql(len(tournaments)), [t.pk for t in tournaments])
        names = tuple(column[0] for column in cursor.description)
        if names != _Fetched._fields:
            raise RuntimeError(f"standings query returned {names}")
        return list(map(_Fetched._make, cursor.fetchall()))


def _decisions(tournaments: Sequence[Tournament]) -> dict[int, list[list[int]]]:
    """The recorded tie decisions of those tournaments that have any (one
    query, none when no tournament has one), newest first."""
    ids = [t.pk for t in tournaments if t.has_tiebreaks]
    out: dict[int, list[list[int]]] = defaultdict(list)
    if ids:
        for tournament_id, order in (
            TieBreak.objects.filter(tournament_id__in=ids)
            .order_by("-created_at", "-id")
            .values_list("tournament_id", "order")
        ):
            out[tournament_id].append([int(n) for n in order])
    return out


def _build(
    tournament: Tournament,
    fetched: Iterable[_Fetched],
    decisions: Callable[[], Iterable[list[int]]],
    state: Callable[[], StandingsState],
) -> Standings:
    empty = [0] * tournament.series_count
    rows: list[Row] = []
    waiting: list[Row] = []
    absent: list[Row] = []
    fetched = list(fetched)
    # Every row's series points decoded at once: one call, not one per row.
    series = loads(f"[{','.join(e.series_points or 'null' for e in fetched)}]")
    for e, points in zip(fetched, series, strict=True):
        row = Row(
            entry_id=e.id,
            start_number=e.start_number,
            name=f"{e.first_name} {e.last_name}",
            club=e.club,
            category=e.category,
            points=e.points or 0,
            games_won=e.games_won or 0,
            best_game=e.best_game or 0,
            three_table_games=e.three_table_games or 0,
            series_points=points or empty,
            withdrawn=None
            if e.withdrawn_at is None
            else (e.withdrawn_after_series, e.withdrawn_after_game),
        )
        if e.points is not None:  # a total row: a confirmed table of theirs
            rows.append(row)
        elif e.checked_in and e.withdrawn_at is None:
            waiting.append(row)
        else:  # neither played nor here: a no-show, or withdrawn
            absent.append(row)
    return Standings(
        rows=assign_ranks(rows, _key(tournament), decisions),
        waiting=waiting,
        absent=absent,
        # No total row, no confirmed table: the state needs no query.
        state=state() if rows else StandingsState(series_count=tournament.series_count),
    )


def _compute(tournament: Tournament) -> Standings:
    def decisions() -> list[list[int]]:
        return _decisions([tournament]).get(tournament.pk, [])

    return _build(
        tournament, _fetch([tournament]), decisions, lambda: _state(tournament)
    )


def _compute_many(tournaments: Sequence[Tournament]) -> dict[int, Standings]:
    """The standings of several tournaments in three queries at most."""
    by_tournament: dict[int, list[_Fetched]] = defaultdict(list)
    for row in _fetch(tournaments):
        by_tournament[row.tournament_id].append(row)
    decided = _decisions(tournaments)
    counts = _table_counts(tournaments) if any(by_tournament.values()) else {}
    return {
        t.pk: _build(
            t,
            by_tournament[t.pk],
            partial(list, decided.get(t.pk, [])),
            partial(_state_of, counts.get(t.pk, {}), t.series_count),
        )
        for t in tournaments
    }


def cache_key(tournament: Tournament, what: str) -> str:
    """A cache key that changes with every result and tie-break switch."""
    return (
        f"standings:v3:{what}:{tournament.pk}:"
        f"{standings_generation(tournament.pk)}:"
        f"{tournament.tiebreak_games_won:d}{tournament.tiebreak_best_game:d}"
    )


def standings(tournament: Tournament, *, cached: bool = True) -> Standings:
    """The standings: ranked rows, players waiting for a result, and where
    the day stands (cached until a result changes; `cached=False` for
    callers that cache what they make of them)."""
    key = cache_key(tournament, "rows")
    if cached:
        found: Standings | None = cache.get(key)
        if found is not None:
            return found
    found = _compute(tournament)
    if cached:
        cache.set(key, found, timeout=3600)
    return found


def standings_many(tournaments: Sequence[Tournament]) -> dict[int, Standings]:
    """The standings of several tournaments at once (a person's history,
    the champions, a season ranking), by tournament id: those in the cache
    from there, the others computed together in three queries, so the
    number of queries does not grow with the tournaments. Ranked exactly as
    each tournament's own standings (they share the cache)."""
    keys = {t.pk: cache_key(t, "rows") for t in tournaments}
    found: dict[str, Standings] = cache.get_many(list(keys.values()))
    out = {t.pk: found[keys[t.pk]] for t in tournaments if keys[t.pk] in found}
    missing = [t for t in tournaments if t.pk not in out]
    if missing:
        computed = _compute_many(missing)
        cache.set_many(
            {keys[pk]: standings for pk, standings in computed.items()}, timeout=3600
        )
        out.update(computed)
    return out


def standings_rows(tournament: Tournament, *, cached: bool = True) -> list[Row]:
    """The overall standings, best first: the players with a confirmed
    result (see `standings` for the others and the caching)."""
    return standings(tournament, cached=cached).rows


def played_series(tournament: Tournament) -> set[tuple[int, int]]:
    """(start number, series number) of every confirmed result a player
    has: a series missing here is not played (yet), not one with 0."""
    return played_pairs(
        GameScore.objects.filter(series__tournament=tournament),
        "entry__start_number",
    )


def played_pairs(scores: QuerySet[GameScore], player: str) -> set[tuple[int, int]]:
    """(`player` field, series number) of each player's series in `scores`."""
    # order_by(): the model's ordering would join five more tables and make
    # every score distinct (10,000 rows at 400 players instead of 2,000).
    return set(scores.order_by().values_list(player, "series__number").distinct())


def series_cells(
    row: Row, count: int, played: set[tuple[int, int]]
) -> list[int | None]:
    """One cell per series, whatever the kept totals hold (they follow a
    changed number of series once refreshed): the points, or None where
    the player has no confirmed result (not seated, not played yet), which
    paper leaves blank; a 0 is a series played and every game lost."""
    points = (row.series_points + [0] * count)[:count]
    return [
        p if (row.start_number, n) in played else None for n, p in enumerate(points, 1)
    ]


def export_headers(count: int) -> list[str]:
    """The columns of the standings as a file (the CSV, the results
    workbook's tables), in the active language; `count` series."""
    return [
        gettext("Platz"),
        gettext("Startnummer"),
        gettext("Name"),
        gettext("Verein"),
        gettext("Kategorie"),
        *[gettext("Serie %(n)d") % {"n": n} for n in range(1, count + 1)],
        gettext("Siege"),
        gettext("Punkte"),
        gettext("Abmeldung"),
    ]


def export_cells(row: Row, count: int, played: set[tuple[int, int]]) -> list[Any]:
    """A row of the standings as a file, under `export_headers`: an unplayed
    series empty, a withdrawn player with the standings' mark (never the
    desk's reason)."""
    return [
        row.rank,
        row.start_number,
        row.name,
        row.club,
        str(dict(Player.Category.choices).get(row.category, row.category)),
        *series_cells(row, count, played),
        row.games_won,
        row.points,
        row.withdrawal_text,
    ]


@dataclass(frozen=True)
class Category:
    """A category with a ranking of its own: `value` as stored (and in the
    API's rows), `word` its address (/tabelle/<word>/, ?category=<word>),
    `label` ("Damen") and `title` ("Damenwertung") for the pages."""

    value: str
    word: str
    label: Promise | str
    title: Promise | str


# The rankings' titles; a category without one here is "Wertung: <label>".
_TITLES: dict[str, Promise] = {
    Player.Category.LADIES: gettext_lazy("Damenwertung"),
    Player.Category.SENIORS: gettext_lazy("Seniorenwertung"),
    Player.Category.YOUTH: gettext_lazy("Jugendwertung"),
}


@lru_cache(maxsize=1)
def categories() -> tuple[Category, ...]:
    """Every category the registration accepts (`Player.Category`, the one
    place they are defined) has its ranking, but the open class: everybody
    plays in it, its ranking is the overall one. The address word is the
    German label in lower case ("damen", "senioren", "jugend")."""
    out = []
    for value, label in Player.Category.choices:
        if value == Player.Category.OPEN:
            continue
        with translation.override("de"):
            word = slugify(str(label))
        title = _TITLES.get(value) or format_lazy(
            gettext_lazy("Wertung: {label}"), label=label
        )
        out.append(Category(value, word, label, title))
    return tuple(out)


def category_named(name: str) -> Category | None:
    """The category of an address word or a stored value ("senioren",
    "seniors"), or None."""
    name = name.strip().lower()
    return next((c for c in categories() if name in (c.word, c.value)), None)


def categories_with_players(tournament: Tournament) -> tuple[Category, ...]:
    """The categories (`categories`, in their order) that have a player in
    the tournament, withdrawn or not: the rankings worth showing (one
    query)."""
    present = set(
        Entry.objects.filter(tournament=tournament)
        .order_by()
        .values_list("player__category", flat=True)
        .distinct()
    )
    return tuple(c for c in categories() if c.value in present)


def category_rows(rows: list[Row], category: str) -> list[Row]:
    """The players of a category among the overall rows, each keeping the
    overall place (for documents that print the overall place; their own
    places are `category_standings`)."""
    return [r for r in rows if r.category == category]


def category_standings(rows: list[Row], category: str) -> list[Row]:
    """A category's ranking: its players' own places (1, 2, 2, 4 as
    overall, ties and decisions kept), each row with the overall place
    beside it (`overall_rank`). Copies: the cached overall rows stay as
    they are."""
    out: list[Row] = []
    for row in category_rows(rows, category):
        own = replace(row, overall_rank=row.rank)
        if out and out[-1].overall_rank == row.rank:
            own.rank = out[-1].rank
        else:
            own.rank = len(out) + 1
        out.append(own)
    return out


def ladies_rows(rows: list[Row]) -> list[Row]:
    """The ladies among the overall rows, with their overall places."""
    return category_rows(rows, Player.Category.LADIES)


def ladies_standings(rows: list[Row]) -> list[Row]:
    """The ladies' ranking (`category_standings`)."""
    return category_standings(rows, Player.Category.LADIES)


def team_rows(tournament: Tournament, rows: list[Row]) -> list[TeamRow]:
    """Teams by the sum of their members' totals; equal sums share a rank
    (by name within it). Every member is named, with a result or not."""
    by_entry = {r.entry_id: r for r in rows}
    teams = []
    members = Prefetch(
        "members",
        queryset=Entry.objects.select_related("player").order_by("start_number"),
    )
    for team in Team.objects.filter(tournament=tournament).prefetch_related(members):
        teams.append(
            TeamRow(
                name=team.name,
                points=sum(
                    by_entry[m.pk].points
                    for m in team.members.all()
                    if m.pk in by_entry
                ),
                members=[m.player.full_name for m in team.members.all()],
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
        .defer("series__quality")
        .order_by("series__number")
    )
    opponents: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(table__in=[s.table_id for s in seats])
        .order_by()
        .select_related("entry__player")
    ):
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
