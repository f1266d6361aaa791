"""Tournaments with results, for the history's tests: persons that come
back year after year, totals written as the result services keep them
(the services themselves are the results' tests' point, not these)."""

import datetime

from tests.support.factories import PersonFactory, TournamentFactory
from tournament.core.text import name_key
from tournament.models import Entry, EntryTotal, Person, Player, Tournament
from tournament.persons.services import loose_key


def person(name: str, club: str = "Schrämclub Daun") -> Person:
    first, last = name.split(" ", 1)
    return PersonFactory(first_name=first, last_name=last, club=club)


def played(
    persons_points: list[tuple[Person, int | None]],
    *,
    year: int,
    championship: bool = True,
    finished: bool = True,
    series: list[list[int]] | None = None,
    **fields: object,
) -> Tournament:
    """A tournament of `year` where each person scored the points (None:
    registered, no confirmed result); finished: its standings are final.
    `series`: each person's points per series (default all in series 1)."""
    tournament = TournamentFactory(
        slug=f"t-{year}-{TournamentFactory._meta.model.objects.count()}",
        date=datetime.date(year, 12, 5),
        is_championship=championship,
        status=Tournament.Status.FINISHED if finished else Tournament.Status.RUNNING,
        series_count=5,
        **fields,
    )
    for number, (who, points) in enumerate(persons_points, 1):
        player = Player.objects.create(
            first_name=who.first_name,
            last_name=who.last_name,
            club=who.club,
            person=who,
        )
        entry = Entry.objects.create(
            tournament=tournament, player=player, start_number=number, checked_in=True
        )
        if points is not None:
            per_series = series[number - 1] if series else [points, 0, 0, 0, 0]
            EntryTotal.objects.create(
                entry=entry,
                points=points,
                series_points=list(per_series),
            )
    return tournament


def keys(p: Person) -> tuple[str, str]:
    return name_key(p.first_name, p.last_name), loose_key(p.first_name, p.last_name)
