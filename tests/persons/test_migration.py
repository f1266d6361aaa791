"""The data migration: existing registrations of the same name and club
(no club counts as a club) become one person, unless two of them played one
tournament; a player with a name another person has waits for review."""

import datetime

import pytest

from tests.support import migrations

BEFORE = [("tournament", "0009_persons_champions_rankings")]
AFTER = [("tournament", "0010_persons_from_players")]


@pytest.mark.django_db(transaction=True)
def test_players_of_the_same_name_and_club_become_one_person():
    latest = migrations.latest()
    apps = migrations.migrate(BEFORE)
    try:
        Tournament = apps.get_model("tournament", "Tournament")
        Player = apps.get_model("tournament", "Player")
        Entry = apps.get_model("tournament", "Entry")
        old = Tournament.objects.create(
            name="RM 2025", slug="m-2025", date=datetime.date(2025, 12, 6)
        )
        new = Tournament.objects.create(
            name="RM 2026", slug="m-2026", date=datetime.date(2026, 12, 5)
        )

        def register(tournament, number, first, last, club):
            player = Player.objects.create(first_name=first, last_name=last, club=club)
            Entry.objects.create(
                tournament=tournament, player=player, start_number=number
            )
            return player.pk

        anna_old = register(old, 1, "Anna", "Jöbges", "Schrämclub Daun")
        anna_new = register(new, 1, "ANNA", "Joebges", "Schrämclub Daun")
        hans_old = register(old, 2, "Hans", "Müller", "KSC Mayen")
        hans_new = register(new, 2, "Hans", "Müller", "KSC Mayen")
        hans_son = register(new, 3, "Hans", "Müller", "KSC Mayen")
        solo_old = register(old, 4, "Peter", "Kaiser", "")
        solo_new = register(new, 4, "Peter", "Kaiser", "")
        older = Tournament.objects.create(
            name="RM 2024", slug="m-2024", date=datetime.date(2024, 12, 7)
        )
        moved = register(older, 1, "Anna", "Jöbges", "KSC Mayen")

        apps = migrations.migrate(AFTER)
        Player = apps.get_model("tournament", "Player")
        Person = apps.get_model("tournament", "Person")
        person = {p.pk: p.person_id for p in Player.objects.all()}
        review = {p.pk for p in Player.objects.filter(person_review=True)}

        assert person[anna_old] == person[anna_new]
        # Named by the newest registration.
        assert Person.objects.get(pk=person[anna_new]).first_name == "ANNA"
        # Father and son played 2026 together: which of them played 2025
        # is the organizer's to say. Three persons, both of 2026 asked about.
        assert len({person[hans_old], person[hans_new], person[hans_son]}) == 3
        assert {hans_new, hans_son} <= review
        assert hans_old not in review
        # No club is a club too.
        assert person[solo_old] == person[solo_new]
        assert not review & {solo_old, solo_new}
        # Another club: its own person, for review.
        assert person[moved] != person[anna_old]
        assert moved in review
        assert Person.objects.count() == 6
        assert not Player.objects.filter(person__isnull=True).exists()
    finally:
        migrations.migrate(latest)
