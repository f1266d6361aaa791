"""Season rankings (Wertung) over a set of tournaments.

Each closed tournament (the organizer closed it once every table was
confirmed: `tournaments.services.tournament_close`) gives every person
with a confirmed result a value: the
points its place earns (`Ranking.place_points`: place 1, 2, 3 …; beyond the
table 0; players sharing a place in the tournament's standings both earn
that place's points), or the tournament points themselves. The best
`best_of` values count (all when empty); a dropped result is shown, struck.
Equal totals share a place (the standings' `assign_ranks`: 1, 2, 2, 4),
within it by the person's number, never by name.

The places are each tournament's own standings (`standings_many`), so the
ranking follows a corrected result at once; `ranking_token` changes with
each of them, for the live page's ETag.
"""

from dataclasses import dataclass

from django.db.models import Max

from tournament.live.invalidation import standings_generation
from tournament.models import Entry, Ranking, Tournament
from tournament.standings.selectors import Standings, assign_ranks, standings_many


@dataclass(frozen=True, slots=True)
class RankingCell:
    """A person's result in one tournament of the ranking: the value it
    counts with (None: no confirmed result there), the place, and whether
    it is among the best that count."""

    value: int | None = None
    place: int = 0
    counted: bool = False


@dataclass(slots=True)
class RankingRow:
    # The person's id: `assign_ranks` orders a shared place by it.
    start_number: int
    name: str
    club: str
    points: int
    counted: int
    cells: list[RankingCell]
    rank: int = 0
    tiebreak: str = ""
    overall_rank: int = 0

    @property
    def person_id(self) -> int:
        return self.start_number

    def as_api(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "person": self.person_id,
            "name": self.name,
            "points": self.points,
            "counted": self.counted,
        }


# A tournament's column of a row: the tournament, closed, the row's cell.
Column = tuple[Tournament, bool, RankingCell]


@dataclass(frozen=True)
class RankingTable:
    ranking: Ranking
    tournaments: list[Tournament]  # by date
    # Per tournament: a confirmed result exists (it may be running); it is
    # closed, its result counts.
    started: list[bool]
    final: list[bool]
    rows: list[RankingRow]

    @property
    def columns(self) -> list[tuple[Tournament, bool, bool]]:
        """(tournament, started, final) per tournament, for the page."""
        return list(zip(self.tournaments, self.started, self.final, strict=True))

    @property
    def lines(self) -> list[tuple[RankingRow, list[Column]]]:
        """Each row with (tournament, final, cell) per tournament: a
        phone's line under the name says which tournament each value is."""
        return [
            (row, list(zip(self.tournaments, self.final, row.cells, strict=True)))
            for row in self.rows
        ]

    @property
    def finished(self) -> int:
        """How many of the tournaments are closed: those that count."""
        return sum(self.final)


def result_final(standings: Standings, tournament: Tournament) -> bool:
    """The standings are the tournament's result: the organizer closed it
    (which he can once every table of every series is confirmed). A
    running tournament's places are intermediate: the history shows it as
    running and counts none of them."""
    return bool(standings.rows) and tournament.status == Tournament.Status.FINISHED


def _value(ranking: Ranking, table: list[int], place: int, points: int) -> int:
    if ranking.method == Ranking.Method.POINTS:
        return points
    return table[place - 1] if 0 < place <= len(table) else 0


def ranking_table(ranking: Ranking) -> RankingTable:
    """The ranking's rows, best first, with every person's result per
    tournament. Five queries at most, however many persons and
    tournaments (fewer with the standings cached)."""
    tournaments = list(ranking.tournaments.order_by("date", "name", "pk"))
    standings = standings_many(tournaments)
    persons = {
        entry_id: (person_id, f"{first} {last}", club)
        for entry_id, person_id, first, last, club in Entry.objects.filter(
            tournament__in=tournaments
        ).values_list(
            "pk",
            "player__person_id",
            "player__person__first_name",
            "player__person__last_name",
            "player__person__club",
        )
    }
    table = ranking.points_by_place()
    size = len(tournaments)
    final = [result_final(standings[t.pk], t) for t in tournaments]
    cells: dict[int, list[RankingCell]] = {}
    names: dict[int, tuple[str, str]] = {}
    for index, tournament in enumerate(tournaments):
        if not final[index]:
            continue  # running: no value counts yet
        for row in standings[tournament.pk].rows:
            person_id, name, club = persons[row.entry_id]
            names[person_id] = (name, club)
            mine = cells.setdefault(person_id, [RankingCell()] * size)
            value = _value(ranking, table, row.rank, row.points)
            known = mine[index].value
            if known is None or value > known:
                mine[index] = RankingCell(value, row.rank)
    rows = []
    k = ranking.best_of or size
    for person_id, mine in cells.items():
        results = sorted(
            (i for i, c in enumerate(mine) if c.value is not None),
            key=lambda i: (-(mine[i].value or 0), i),
        )
        best = set(results[:k])
        counted = [RankingCell(c.value, c.place, i in best) for i, c in enumerate(mine)]
        name, club = names[person_id]
        rows.append(
            RankingRow(
                start_number=person_id,
                name=name,
                club=club,
                points=sum(mine[i].value or 0 for i in best),
                counted=len(best),
                cells=counted,
            )
        )
    return RankingTable(
        ranking=ranking,
        tournaments=tournaments,
        started=[bool(standings[t.pk].rows) for t in tournaments],
        final=final,
        rows=assign_ranks(rows, lambda r: (r.points,)),
    )


def ranking_token(slug: str) -> str:
    """Changes whenever the ranking `slug` would show something else: its
    own settings, and the results, tie decisions and settings of each of
    its tournaments (their standings generations; two small queries)."""
    found = (
        Ranking.objects.filter(slug=slug)
        .annotate(last=Max("tournaments__updated_at"))
        .values_list("pk", "version", "last")
        .first()
    )
    if found is None:
        return "none"
    pk, version, last = found
    members = Ranking.tournaments.through.objects.filter(ranking_id=pk).values_list(
        "tournament_id", flat=True
    )
    generations = ".".join(f"{t}:{standings_generation(t)}" for t in sorted(members))
    return f"{pk}.{version}.{last}.{generations}"
