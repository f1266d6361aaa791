"""A backup keeps entry at the table (issue 16): the personal links (the
cards on the tables work on the laptop it is restored to), who of a table
entered and confirmed each version, the answers, the players in the
Protokoll. Older backups, without these, still restore."""

import json

import pytest

from tests.support.results import FIVE
from tournament.backup.services import tournament_backup, tournament_restore
from tournament.models import AuditEvent, Entry, ResultAnswer, ResultVersion
from tournament.tableentry.services import (
    result_confirm_by_player,
    result_enter_by_player,
    result_reject_by_player,
)

pytestmark = pytest.mark.django_db


def played_at_table(world):
    first = result_enter_by_player(
        player=world.p[1], table=world.t1, games=FIVE, mode="quick", revision=0
    )
    result_reject_by_player(player=world.p[2], version=first, reason="Spiel 2")
    second = result_enter_by_player(
        player=world.p[2], table=world.t1, games=FIVE, mode="quick", revision=2
    )
    result_confirm_by_player(player=world.p[4], version=second)


def picture(tournament):
    links = dict(
        Entry.objects.filter(tournament=tournament).values_list(
            "start_number", "link_token"
        )
    )
    versions = [
        (
            v.number,
            v.status,
            v.entered_by_player.start_number if v.entered_by_player else None,
            v.decided_by_player.start_number if v.decided_by_player else None,
            sorted((a.entry.start_number, a.answer, a.reason) for a in v.answers.all()),
        )
        for v in ResultVersion.objects.filter(
            table__series__tournament=tournament
        ).order_by("table__number", "number")
    ]
    players = sorted(
        (e.action, e.player.start_number)
        for e in AuditEvent.objects.filter(tournament=tournament, player__isnull=False)
    )
    return links, versions, players


def test_a_restore_keeps_links_entries_answers_and_who_acted(at_table, organizer):
    played_at_table(at_table)
    before = picture(at_table.tournament)
    doc = json.loads(json.dumps(tournament_backup(tournament=at_table.tournament)))
    restored = tournament_restore(doc=doc, replace=True, actor=organizer)
    assert picture(restored) == before
    assert ResultAnswer.objects.count() == 2


def test_a_copy_beside_its_original_gets_links_of_its_own(at_table, organizer):
    played_at_table(at_table)
    doc = tournament_backup(tournament=at_table.tournament)
    copy = tournament_restore(doc=doc, slug="kopie", actor=organizer)
    original_links, versions, players = picture(at_table.tournament)
    copy_links, copy_versions, copy_players = picture(copy)
    assert not set(original_links.values()) & set(copy_links.values())
    assert copy_versions == versions and copy_players == players


def test_an_older_backup_without_them_restores(at_table, organizer):
    doc = json.loads(json.dumps(tournament_backup(tournament=at_table.tournament)))
    for player in doc["players"]:
        del player["link"]
    for event in doc["audit"]:
        del event["player"]
    restored = tournament_restore(doc=doc, slug="alt", actor=organizer)
    assert Entry.objects.filter(tournament=restored).count() == 8
