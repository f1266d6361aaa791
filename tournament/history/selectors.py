"""Reads across tournaments: who a person is over the years, the champions
and the all-time records, the persons' search, and (from `ranking`) the
season rankings.

Places come from each tournament's own standings (`standings_many`: the
same ranks, ties and decisions, and the same cache), so nothing here ranks
a tournament differently. Every selector runs a constant number of
queries, however many persons and tournaments there are.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from tournament.core.text import fold, name_key, sort_key
from tournament.history.ranking import (
    RankingCell,
    RankingRow,
    RankingTable,
    ranking_table,
    ranking_token,
    result_final,
)
from tournament.models import (
    Entry,
    GameScore,
    PastChampion,
    Person,
    Ranking,
    Tournament,
)
from tournament.registration.selectors import PlayerQuery
from tournament.standings.selectors import Standings, played_pairs, standings_many

__all__ = [
    "Champion",
    "ChampionsPage",
    "PersonHistory",
    "PersonResult",
    "PersonSummary",
    "RankingCell",
    "RankingRow",
    "RankingTable",
    "Record",
    "champions_page",
    "person_history",
    "persons_found",
    "ranking_table",
    "ranking_token",
    "rankings",
]


# --- Champions ---------------------------------------------------------------


@dataclass(frozen=True)
class Champion:
    """The champion of a year: from a tournament marked as the championship
    (`slug`), or from the imported list (`slug` None). Equal first places
    that no playoff decided are each a champion (`shared`)."""

    year: int
    name: str
    club: str
    points: int | None
    slug: str | None = None
    tournament_name: str = ""
    person_id: int | None = None
    shared: bool = False


@dataclass(frozen=True)
class Record:
    """An all-time record: its value and who holds it (name, year; for the
    best series also which)."""

    value: int
    holders: tuple[tuple[str, int, int], ...] = ()


@dataclass
class ChampionsPage:
    champions: list[Champion]
    # Most titles: (name, club, years) of everybody with the most, when
    # somebody has more than one.
    most_titles: list[tuple[str, str, list[int]]] = field(default_factory=list)
    best_total: Record | None = None
    best_series: Record | None = None
    # Championships not closed yet: their champion is named once they are.
    running: list[Tournament] = field(default_factory=list)


def _championships() -> tuple[list[Tournament], dict[int, Standings]]:
    tournaments = list(
        Tournament.objects.filter(is_championship=True).order_by("-date", "name")
    )
    return tournaments, standings_many(tournaments)


def champions_page() -> ChampionsPage:
    """The champions, newest year first, and the records. A year the site
    played (a final championship) wins over the imported list's."""
    tournaments, standings = _championships()
    final = [t for t in tournaments if result_final(standings[t.pk], t)]
    winners = {t.pk: [r for r in standings[t.pk].rows if r.rank == 1] for t in final}
    persons = dict(
        Entry.objects.filter(
            pk__in=[r.entry_id for rows in winners.values() for r in rows]
        ).values_list("pk", "player__person_id")
    )
    champions = [
        Champion(
            year=t.date.year,
            name=row.name,
            club=row.club,
            points=row.points,
            slug=t.slug,
            tournament_name=t.name,
            person_id=persons.get(row.entry_id),
            shared=len(winners[t.pk]) > 1,
        )
        for t in final
        for row in winners[t.pk]
    ]
    played_years = {c.year for c in champions}
    champions += [
        Champion(
            year=past.year,
            name=past.name,
            club=past.club,
            points=past.points,
            person_id=past.person_id,
        )
        for past in PastChampion.objects.order_by("-year", "name")
        if past.year not in played_years
    ]
    champions.sort(key=lambda c: (-c.year, c.slug is None, c.name))
    running = [t for t in tournaments if t.status != Tournament.Status.FINISHED]
    page = ChampionsPage(champions=champions, running=running)
    _records(page, final, standings)
    return page


def _records(
    page: ChampionsPage, final: list[Tournament], standings: dict[int, Standings]
) -> None:
    titles: dict[object, list[Champion]] = defaultdict(list)
    for champion in page.champions:
        who = champion.person_id or name_key("", champion.name)
        titles[who].append(champion)
    most = max((len(years) for years in titles.values()), default=0)
    if most > 1:  # one title each is no record
        page.most_titles = sorted(
            (won[0].name, won[0].club, sorted(c.year for c in won))
            for won in titles.values()
            if len(won) == most
        )
    totals = [(c.points, c.name, c.year, 0) for c in page.champions if c.points]
    if totals:
        best = max(t[0] for t in totals)
        page.best_total = Record(
            best, tuple(sorted((n, y, s) for p, n, y, s in totals if p == best))
        )
    series = [
        (points, row.name, t.date.year, number)
        for t in final
        for row in standings[t.pk].rows
        for number, points in enumerate(row.series_points, 1)
        if points
    ]
    if series:
        best = max(s[0] for s in series)
        page.best_series = Record(
            best, tuple(sorted((n, y, s) for p, n, y, s in series if p == best))
        )


# --- A person over the years -------------------------------------------------


@dataclass(frozen=True)
class PersonResult:
    """A person's result in one tournament: the place (0 without a
    confirmed result), points, and points per series (None: not played);
    `finished`: the tournament is closed (else the place is intermediate)."""

    tournament: Tournament
    start_number: int
    player_id: int
    name: str
    club: str
    rank: int
    points: int
    series_points: list[int | None]
    title: bool = False
    withdrawal: str = ""  # "abgemeldet (nach Serie 2, Spiel 2)", or ""
    finished: bool = True


@dataclass(frozen=True)
class PersonHistory:
    person: Person
    results: list[PersonResult]  # newest first
    titles: list[Champion]  # newest first
    # Of the closed tournaments: best place, then most points, then earliest.
    best: PersonResult | None

    @property
    def running(self) -> bool:
        """A tournament of the person's is still running."""
        return any(not r.finished for r in self.results)


def person_history(person: Person) -> PersonHistory:
    """Every tournament of a person with date, place, points and series
    points (a running one's marked: its place is intermediate); the best
    result of the closed ones and the titles (from the championships and
    the imported list). Constant queries, however many years."""
    entries = list(
        Entry.objects.filter(player__person=person)
        .select_related("tournament", "player")
        .order_by("-tournament__date", "-pk")
    )
    tournaments = [e.tournament for e in entries]
    standings = standings_many(tournaments)
    played = played_pairs(GameScore.objects.filter(entry__in=entries), "entry_id")
    titles = [c for c in champions_page().champions if c.person_id == person.pk]
    title_slugs = {c.slug for c in titles if c.slug}
    results = []
    for entry in entries:
        t = entry.tournament
        row = next((r for r in standings[t.pk].rows if r.entry_id == entry.pk), None)
        points = (row.series_points if row else []) + [0] * t.series_count
        results.append(
            PersonResult(
                tournament=t,
                start_number=entry.start_number,
                player_id=entry.player_id,
                name=entry.player.full_name,
                club=entry.player.club,
                rank=row.rank if row else 0,
                points=row.points if row else 0,
                series_points=[
                    points[n - 1] if (entry.pk, n) in played else None
                    for n in range(1, t.series_count + 1)
                ],
                title=t.slug in title_slugs,
                withdrawal=entry.withdrawal_text,
                finished=t.status == Tournament.Status.FINISHED,
            )
        )
    ranked = [r for r in results if r.rank and r.finished]
    best = min(
        ranked,
        key=lambda r: (r.rank, -r.points, r.tournament.date),
        default=None,
    )
    return PersonHistory(person, results, titles, best)


@dataclass(frozen=True)
class PersonSummary:
    person: Person
    tournaments: int


def persons_found(query: str = "") -> list[PersonSummary]:
    """The persons who played – a confirmed result in at least one
    tournament (its standings' total) – with how many tournaments they
    played, by name; a registration alone is not playing. With `query`,
    those whose name or club has every word (folded as every player
    search: umlauts, case, accents). One query."""
    persons = (
        Person.objects.annotate(
            n=Count(
                "players__entries",
                filter=Q(players__entries__total__isnull=False),
                distinct=True,
            ),
        )
        .filter(n__gt=0)
        .order_by("last_name", "first_name", "pk")
    )
    search = PlayerQuery.parse(query) if query.strip() else None
    if query.strip() and search is None:
        return []  # nothing but spaces and punctuation
    if search is not None and search.number is not None:
        # A number is no person's: search for it as a word (a club "KSC 08").
        search = PlayerQuery(number=None, words=(fold(query.strip()),))
    found = [
        PersonSummary(person, person.n)
        for person in persons
        if search is None
        or search.matches(0, (person.first_name, person.last_name, person.club))
    ]
    # By name as German readers look it up: Böhm before Brück, not the
    # umlauts after Z as the database orders them.
    return sorted(
        found,
        key=lambda s: (
            sort_key(s.person.last_name),
            sort_key(s.person.first_name),
            s.person.pk,
        ),
    )


# --- Season rankings ---------------------------------------------------------


def rankings() -> QuerySet[Ranking]:
    """Every season ranking with its number of tournaments, newest first."""
    return Ranking.objects.annotate(tournament_count=Count("tournaments")).order_by(
        "-created_at", "name"
    )
