import pytest
from django.db import IntegrityError, transaction

from tests.support.factories import EntryFactory, PlayerFactory
from tournament.core.errors import UserError
from tournament.models import AuditEvent, Entry, Team
from tournament.registration import services as registration_services
from tournament.registration.services import PlayerData

pytestmark = pytest.mark.django_db


def test_register_assigns_next_free_start_number_and_audits(tournament, organizer):
    EntryFactory(tournament=tournament, start_number=7)
    entry = registration_services.entry_register(
        actor=organizer,
        tournament=tournament,
        data=PlayerData(first_name="Anna", last_name="Thelen", club="KSC Mayen"),
    )
    assert entry.start_number == 8
    event = AuditEvent.objects.get(action="entry.register")
    assert event.actor == organizer
    assert event.after["last_name"] == "Thelen"


def test_register_refuses_a_taken_start_number_and_writes_nothing(
    tournament, organizer
):
    EntryFactory(tournament=tournament, start_number=3)
    before = Entry.objects.count()
    with pytest.raises(UserError, match="Startnummer 3 ist schon vergeben"):
        registration_services.entry_register(
            actor=organizer,
            tournament=tournament,
            data=PlayerData(first_name="A", last_name="B", start_number=3),
        )
    assert Entry.objects.count() == before


def test_database_refuses_duplicate_start_numbers(tournament):
    EntryFactory(tournament=tournament, start_number=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(
            tournament=tournament, player=PlayerFactory(), start_number=5
        )


def test_database_refuses_reason_without_withdrawal(tournament):
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(
            tournament=tournament,
            player=PlayerFactory(),
            start_number=1,
            withdrawal_reason="krank",
        )


def test_withdraw_keeps_the_entry_and_can_be_reinstated(entries, organizer):
    entry = registration_services.entry_withdraw(
        actor=organizer, entry=entries[0], reason="krank"
    )
    assert entry.withdrawn_at is not None and entry.withdrawal_reason == "krank"
    with pytest.raises(UserError):
        registration_services.entry_withdraw(
            actor=organizer, entry=entry, reason="nochmal"
        )
    entry = registration_services.entry_reinstate(actor=organizer, entry=entry)
    assert entry.withdrawn_at is None and entry.withdrawal_reason == ""
    actions = list(AuditEvent.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["entry.withdraw", "entry.reinstate"]


def test_withdraw_needs_a_reason(entries, organizer):
    with pytest.raises(UserError, match="Grund"):
        registration_services.entry_withdraw(
            actor=organizer, entry=entries[0], reason="  "
        )


def test_check_in_toggles_and_audits_only_changes(entries, organizer):
    registration_services.entry_set_checked_in(
        actor=organizer, entry=entries[0], checked_in=True
    )
    registration_services.entry_set_checked_in(
        actor=organizer, entry=entries[0], checked_in=True
    )
    entries[0].refresh_from_db()
    assert entries[0].checked_in
    assert AuditEvent.objects.filter(action="entry.check_in").count() == 1


def test_update_changes_player_and_number_but_refuses_a_taken_number(
    entries, organizer
):
    entry = registration_services.entry_update(
        actor=organizer,
        entry=entries[0],
        data=PlayerData(first_name="Gerda", last_name="Mertes", start_number=50),
    )
    assert entry.start_number == 50 and entry.player.last_name == "Mertes"
    with pytest.raises(UserError):
        registration_services.entry_update(
            actor=organizer,
            entry=entries[1],
            data=PlayerData(first_name="X", last_name="Y", start_number=50),
        )


def test_team_has_at_most_four_members(tournament, entries, organizer):
    team = registration_services.team_save(
        actor=organizer,
        tournament=tournament,
        team=None,
        name="Ulmener Asse",
        members=entries[:4],
    )
    assert set(team.members.all()) == set(entries[:4])
    with pytest.raises(UserError, match="höchstens 4"):
        registration_services.team_save(
            actor=organizer,
            tournament=tournament,
            team=team,
            name="Ulmener Asse",
            members=entries[:5],
        )
    # unchanged after the refusal
    assert team.members.count() == 4


def test_team_edit_moves_members_and_names_are_unique(tournament, entries, organizer):
    team = registration_services.team_save(
        actor=organizer,
        tournament=tournament,
        team=None,
        name="A",
        members=entries[:2],
    )
    registration_services.team_save(
        actor=organizer,
        tournament=tournament,
        team=team,
        name="A",
        members=entries[1:3],
    )
    assert set(team.members.all()) == {entries[1], entries[2]}
    with pytest.raises(UserError, match="schon eine Mannschaft"):
        registration_services.team_save(
            actor=organizer, tournament=tournament, team=None, name="A", members=[]
        )
    registration_services.team_delete(actor=organizer, team=team)
    assert not Team.objects.exists()
    entries[1].refresh_from_db()
    assert entries[1].team is None


def test_import_is_all_or_nothing(tournament, organizer):
    EntryFactory(tournament=tournament, start_number=2)
    rows = [
        PlayerData(first_name="A", last_name="B", start_number=1),
        PlayerData(first_name="C", last_name="D", start_number=2),
    ]
    with pytest.raises(UserError):
        registration_services.entries_import(
            actor=organizer, tournament=tournament, rows=rows
        )
    assert tournament.entries.count() == 1


def test_import_numbers_rows_without_number_after_the_given_ones(tournament, organizer):
    rows = [
        PlayerData(first_name="A", last_name="B"),
        PlayerData(first_name="C", last_name="D", start_number=1),
    ]
    entries = registration_services.entries_import(
        actor=organizer, tournament=tournament, rows=rows
    )
    assert sorted(e.start_number for e in entries) == [1, 2]
