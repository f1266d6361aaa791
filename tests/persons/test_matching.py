"""A registration finds its person: the same name and club joins it (however
the umlauts were typed), anything merely similar waits for the organizer's
review with a person of its own; merge and split are audited and refuse
what would make one person play twice in a tournament."""

import datetime

import pytest

from tests.support.factories import TournamentFactory
from tournament.core.errors import UserError
from tournament.models import AuditEvent, Entry, PastChampion, Person, Player
from tournament.persons import selectors
from tournament.persons.services import (
    person_merge,
    person_review_decide,
    person_split,
)
from tournament.registration import services as registration_services
from tournament.registration.services import PlayerData

pytestmark = pytest.mark.django_db


def register(tournament, first, last, club="Schrämclub Daun", **extra):
    return registration_services.entry_register(
        actor=None,
        tournament=tournament,
        data=PlayerData(first_name=first, last_name=last, club=club, **extra),
    )


@pytest.fixture
def years():
    """Last year's championship and this year's."""
    return (
        TournamentFactory(slug="rm-2025", date=datetime.date(2025, 12, 6)),
        TournamentFactory(slug="rm-2026", date=datetime.date(2026, 12, 5)),
    )


def test_same_name_and_club_is_the_same_person_however_typed(years):
    old, new = years
    anna = register(old, "Anna", "Jöbges", "Schrämclub Daun")
    again = register(new, "ANNA", "Joebges", "schrämclub  daun")
    assert again.player.person_id == anna.player.person_id
    assert not again.player.person_review
    assert Person.objects.count() == 1
    # The person is named as registered last.
    assert Person.objects.get().last_name == "Joebges"
    # Each year's registration keeps its own spelling.
    anna.player.refresh_from_db()
    assert anna.player.last_name == "Jöbges"
    event = AuditEvent.objects.filter(action="entry.register").latest("pk")
    assert event.after["person"] == anna.player.person_id


@pytest.mark.parametrize(
    ("first", "last", "club"),
    [
        ("Anna", "Jöbges", "KSC Mayen"),  # another club
        ("Anna", "Jöbges", ""),  # no club
        ("Anna", "Jobges", "Schrämclub Daun"),  # umlaut typed as a plain vowel
    ],
)
def test_a_similar_name_gets_its_own_person_and_waits_for_review(
    years, first, last, club
):
    old, new = years
    anna = register(old, "Anna", "Jöbges", "Schrämclub Daun")
    other = register(new, first, last, club)
    assert other.player.person_id != anna.player.person_id  # never merged silently
    assert other.player.person_review
    (case,) = selectors.review_cases()
    assert case.player == other.player
    assert [c.person for c in case.candidates] == [anna.player.person]
    assert case.candidates[0].played[0].name == old.name


def test_no_club_is_a_club_too(years):
    old, new = years
    first = register(old, "Hans", "Müller", "")
    second = register(new, "Hans", "Müller", "")
    assert second.player.person_id == first.player.person_id
    assert not second.player.person_review


def test_a_name_nobody_has_is_a_new_person_without_review(years):
    old, new = years
    register(old, "Anna", "Jöbges")
    entry = register(new, "Bernd", "Thelen")
    assert not entry.player.person_review
    assert Person.objects.count() == 2


def test_two_of_the_same_name_in_one_tournament_are_two_persons(years):
    old, new = years
    register(old, "Hans", "Müller")
    father = register(new, "Hans", "Müller")
    son = register(new, "Hans", "Müller")
    assert father.player.person_id != son.player.person_id
    # The son's only candidate plays this tournament already: nothing to ask.
    assert not son.player.person_review


def test_two_persons_of_the_same_name_and_club_make_a_match_uncertain(years):
    old, new = years
    register(old, "Hans", "Müller")
    register(old, "Hans", "Müller")  # father and son
    entry = register(new, "Hans", "Müller")
    assert entry.player.person_review
    assert len(selectors.review_cases()[0].candidates) == 2


def test_the_import_matches_every_row(years):
    old, new = years
    for i in range(30):
        register(old, f"Vorname{i}", f"Name{i}")
    register(old, "Bernd", "Thelen", "KSC Mayen")
    rows = [PlayerData(f"Vorname{i}", f"Name{i}", "Schrämclub Daun") for i in range(30)]
    rows.append(PlayerData("Bernd", "Thelen", "Schrämclub Daun"))
    # The same row twice: the second cannot be the person the first became,
    # and is listed for review (never a new person nobody is asked about).
    rows.append(PlayerData("Vorname1", "Name1", "Schrämclub Daun"))
    entries = registration_services.entries_import(
        actor=None, tournament=new, rows=rows
    )
    assert Person.objects.count() == 33
    assert [e.player.person_review for e in entries].count(True) == 2
    event = AuditEvent.objects.get(action="entry.import")
    assert event.after["to_review"] == [31, 32]


def test_review_same_person_merges_and_audits(years, organizer):
    old, new = years
    anna = register(old, "Anna", "Jöbges", "Schrämclub Daun")
    moved = register(new, "Anna", "Jöbges", "KSC Mayen")
    person = person_review_decide(
        actor=organizer, player=moved.player, same_as=anna.player.person
    )
    assert person == anna.player.person
    assert Person.objects.count() == 1
    assert person.club == "KSC Mayen"  # the newest registration's club
    moved.player.refresh_from_db()
    assert moved.player.person_id == person.pk
    assert not moved.player.person_review
    event = AuditEvent.objects.get(action="person.merge")
    assert event.actor == organizer
    assert event.before["other"]["players"] == [moved.player.pk]
    assert selectors.review_cases() == []


def test_review_another_person_keeps_them_apart(years, organizer):
    old, new = years
    register(old, "Anna", "Jöbges", "Schrämclub Daun")
    other = register(new, "Anna", "Jöbges", "KSC Mayen")
    person_review_decide(actor=organizer, player=other.player, same_as=None)
    assert Person.objects.count() == 2
    assert selectors.review_cases() == []
    assert AuditEvent.objects.filter(action="person.keep_apart").count() == 1
    with pytest.raises(UserError, match="schon entschieden"):
        person_review_decide(actor=organizer, player=other.player, same_as=None)


def test_merge_refuses_persons_who_played_the_same_tournament(years, organizer):
    old, new = years
    a = register(new, "Hans", "Müller")
    b = register(new, "Hans", "Müller")
    register(old, "Hans", "Müller")
    before = AuditEvent.objects.count()
    with pytest.raises(UserError, match=r"beide bei „.*“ .* gespielt"):
        person_merge(actor=organizer, keep=a.player.person, other=b.player.person)
    assert AuditEvent.objects.count() == before
    assert Person.objects.count() == 3
    with pytest.raises(UserError, match="zwei verschiedene"):
        person_merge(actor=organizer, keep=a.player.person, other=a.player.person)


def test_a_refused_merge_of_a_review_leaves_the_review_open(years, organizer):
    old, new = years
    in_new = register(new, "Hans", "Müller", "KSC Mayen")
    register(old, "Hans", "Müller", "Schrämclub Daun")
    again = register(new, "Hans", "Müller", "")
    assert again.player.person_review
    with pytest.raises(UserError):
        person_review_decide(
            actor=organizer, player=again.player, same_as=in_new.player.person
        )
    again.player.refresh_from_db()
    assert again.player.person_review


def test_merge_takes_the_titles_along(years, organizer):
    old, new = years
    a = register(old, "Anna", "Jöbges")
    b = register(new, "Anna", "Jöbges", "KSC Mayen")
    title = PastChampion.objects.create(
        year=1999, name="Anna Jöbges", person=b.player.person
    )
    person_merge(actor=organizer, keep=a.player.person, other=b.player.person)
    title.refresh_from_db()
    assert title.person == a.player.person


def test_split_gives_a_wrong_match_a_person_of_its_own(years, organizer):
    old, new = years
    a = register(old, "Hans", "Müller")
    b = register(new, "Hans", "Müller")
    assert a.player.person_id == b.player.person_id
    new_person = person_split(actor=organizer, player=b.player)
    b.player.refresh_from_db()
    a.player.refresh_from_db()
    assert b.player.person == new_person
    assert a.player.person_id != new_person.pk
    event = AuditEvent.objects.get(action="person.split")
    assert event.tournament == new
    assert event.after["new"]["players"] == [b.player.pk]
    with pytest.raises(UserError, match="nichts abzutrennen"):
        person_split(actor=organizer, player=b.player)


def test_a_corrected_name_at_the_desk_finds_its_person(years, organizer):
    old, new = years
    anna = register(old, "Anna", "Jöbges")
    typo = register(new, "Anna", "Jöbgs")
    assert typo.player.person_id != anna.player.person_id
    registration_services.entry_update(
        actor=organizer,
        entry=typo,
        data=PlayerData("Anna", "Jöbges", "Schrämclub Daun"),
    )
    typo.player.refresh_from_db()
    assert typo.player.person_id == anna.player.person_id
    assert Person.objects.count() == 1
    event = AuditEvent.objects.get(action="entry.update")
    assert event.before["person"] != event.after["person"]


def test_every_player_has_a_person_in_the_database(years):
    entry = register(years[0], "Anna", "Jöbges")
    assert Player.objects.filter(person__isnull=True).count() == 0
    assert Entry.objects.get(pk=entry.pk).player.person.full_name == "Anna Jöbges"
