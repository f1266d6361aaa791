"""Reads of persons: the registrations waiting for the organizer's review,
each with the persons it could be."""

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q

from tournament.core.text import name_key
from tournament.models import Entry, Person, Player
from tournament.persons.services import loose_key


@dataclass(frozen=True)
class Played:
    """One tournament of a person, as a review shows it."""

    name: str
    date: datetime.date
    club: str


@dataclass
class Candidate:
    person: Person
    played: list[Played] = field(default_factory=list)


@dataclass
class ReviewCase:
    """A registration whose person is uncertain, the tournament it is for,
    and the persons of a similar name it could be (none who played that
    tournament too)."""

    player: Player
    entry: Entry | None
    candidates: list[Candidate]


def review_count() -> int:
    return Player.objects.filter(person_review=True).count()


def review_cases() -> list[ReviewCase]:
    """Every registration marked for review, newest tournament first; four
    queries however many."""
    players = list(
        Player.objects.filter(person_review=True)
        .select_related("person")
        .prefetch_related(
            Prefetch("entries", queryset=Entry.objects.select_related("tournament"))
        )
        .order_by("-pk")
    )
    if not players:
        return []
    keys = {name_key(p.first_name, p.last_name) for p in players}
    looses = {loose_key(p.first_name, p.last_name) for p in players}
    similar = list(
        Person.objects.filter(Q(key__in=keys) | Q(loose__in=looses)).order_by(
            "last_name", "first_name", "pk"
        )
    )
    played: dict[int, list[Played]] = defaultdict(list)
    tournaments: dict[int, set[int]] = defaultdict(set)
    for person_id, club, tournament_id, name, date in (
        Player.objects.filter(person__in=similar, entries__isnull=False)
        .values_list(
            "person_id",
            "club",
            "entries__tournament_id",
            "entries__tournament__name",
            "entries__tournament__date",
        )
        .order_by("entries__tournament__date")
    ):
        played[person_id].append(Played(name, date, club))
        tournaments[person_id].add(tournament_id)
    cases = []
    for player in players:
        entries = list(player.entries.all())
        key = name_key(player.first_name, player.last_name)
        loose = loose_key(player.first_name, player.last_name)
        mine = tournaments.get(player.person_id, set())
        candidates = [
            Candidate(person, played.get(person.pk, []))
            for person in similar
            if person.pk != player.person_id
            and (person.key == key or person.loose == loose)
            and not tournaments.get(person.pk, set()) & mine
        ]
        cases.append(ReviewCase(player, entries[0] if entries else None, candidates))
    cases.sort(
        key=lambda c: c.entry.tournament.date if c.entry else datetime.date.min,
        reverse=True,
    )
    return cases
