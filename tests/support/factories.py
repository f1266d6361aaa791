import datetime

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tournament.core.text import name_key
from tournament.models import Entry, Person, Player, Team, Tournament
from tournament.persons.services import loose_key


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Testturnier {n}")
    slug = factory.Sequence(lambda n: f"test-{n}")
    date = datetime.date(2026, 12, 5)
    venue = "Ulmen"


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    first_name = factory.Faker("first_name", locale="de_DE")
    last_name = factory.Faker("last_name", locale="de_DE")
    club = "Schrämclub Daun"
    key = factory.LazyAttribute(lambda o: name_key(o.first_name, o.last_name))
    loose = factory.LazyAttribute(lambda o: loose_key(o.first_name, o.last_name))


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player with a person of its own (factories never match persons:
    the registration services do)."""

    class Meta:
        model = Player

    first_name = factory.Faker("first_name", locale="de_DE")
    last_name = factory.Faker("last_name", locale="de_DE")
    club = "Schrämclub Daun"
    town = "Daun"
    person = factory.SubFactory(
        PersonFactory,
        first_name=factory.SelfAttribute("..first_name"),
        last_name=factory.SelfAttribute("..last_name"),
        club=factory.SelfAttribute("..club"),
    )


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    start_number = factory.Sequence(lambda n: n + 1)


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Team {n}")


def make_user(username: str, role: str | None = None, *, password: str = "pw"):
    """A user in the group of `role` (organizer, referee), if any."""
    user = get_user_model().objects.create_user(username=username, password=password)
    if role:
        group, _ = Group.objects.get_or_create(name=role)
        user.groups.add(group)
    return user


def make_series(tournament, sizes=(4, 4), *, number=1, status="released", entries=None):
    """A series with tables of the given sizes, seated in start-number order."""
    from tournament.models import Seat, Series, Table

    series, _ = Series.objects.get_or_create(tournament=tournament, number=number)
    series.status = status
    series.save()
    if entries is None:
        start = tournament.entries.count()
        entries = [
            EntryFactory(tournament=tournament, start_number=start + i + 1)
            for i in range(sum(sizes))
        ]
    it = iter(entries)
    for t, size in enumerate(sizes, 1):
        table = Table.objects.create(series=series, number=t, size=size)
        for s in range(1, size + 1):
            Seat.objects.create(series=series, table=table, number=s, entry=next(it))
    return series
