"""Entry at the table (issue 16.2): who of a table may enter and confirm,
enforced by the result services – one place, the same for pages and JSON."""

import pytest

from tests.support.factories import make_series
from tests.support.results import FIVE, confirm, enter, games, player_enters
from tournament.core.errors import ConflictError, NotAllowed, UserError
from tournament.models import (
    AuditEvent,
    GameScore,
    ResultAnswer,
    ResultVersion,
    Table,
)
from tournament.registration.services import entry_withdraw
from tournament.results.adapter import GameErrors
from tournament.tableentry.services import (
    result_confirm_by_player,
    result_enter_by_player,
    result_reject_by_player,
)

pytestmark = pytest.mark.django_db


def written():
    return (
        ResultVersion.objects.count(),
        ResultAnswer.objects.count(),
        GameScore.objects.count(),
        AuditEvent.objects.count(),
    )


def test_one_enters_another_confirms_and_it_counts(at_table):
    version = player_enters(at_table, 1)
    assert version.status == "pending"
    assert version.entered_by_player == at_table.p[1]
    assert version.entered_by is None
    assert not GameScore.objects.exists()
    version = result_confirm_by_player(player=at_table.p[3], version=version)
    assert version.status == "confirmed"
    assert version.decided_by_player == at_table.p[3]
    assert GameScore.objects.filter(table=at_table.t1).count() == 20
    events = list(
        AuditEvent.objects.filter(action__startswith="result.table").order_by("id")
    )
    assert [(e.action, e.player.start_number) for e in events] == [
        ("result.table_enter", 1),
        ("result.table_confirm", 3),
    ]
    assert at_table.p[3].player.full_name in events[1].note


def test_with_all_others_it_counts_after_the_last_stimmt(at_table):
    at_table.tournament.table_entry = "all"
    at_table.tournament.save()
    version = player_enters(at_table, 2)
    for number in (1, 3):
        version = result_confirm_by_player(player=at_table.p[number], version=version)
        assert version.status == "pending"
    version = result_confirm_by_player(player=at_table.p[4], version=version)
    assert version.status == "confirmed"
    actions = list(
        AuditEvent.objects.filter(action__startswith="result.table")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "result.table_enter",
        "result.table_agree",
        "result.table_agree",
        "result.table_confirm",
    ]


def test_with_all_others_a_withdrawn_player_is_not_waited_for(at_table, organizer):
    at_table.tournament.table_entry = "all"
    at_table.tournament.save()
    version = player_enters(at_table, 1)
    entry_withdraw(actor=organizer, entry=at_table.p[4], reason="krank")
    result_confirm_by_player(player=at_table.p[2], version=version)
    version = result_confirm_by_player(player=at_table.p[3], version=version)
    assert version.status == "confirmed"


@pytest.mark.parametrize(
    ("who", "code"),
    [
        (5, "other_table"),  # a player of table 2
        (1, "own_entry"),  # the one who entered it
    ],
)
def test_a_confirmation_by_the_wrong_player_is_refused_nothing_written(
    at_table, who, code
):
    version = player_enters(at_table, 1)
    before = written()
    with pytest.raises(NotAllowed) as refused:
        result_confirm_by_player(player=at_table.p[who], version=version)
    assert refused.value.code == code
    assert written() == before


def test_a_second_stimmt_of_the_same_player_is_refused(at_table):
    at_table.tournament.table_entry = "all"
    at_table.tournament.save()
    version = player_enters(at_table, 1)
    result_confirm_by_player(player=at_table.p[2], version=version)
    before = written()
    with pytest.raises(NotAllowed) as refused:
        result_confirm_by_player(player=at_table.p[2], version=version)
    assert refused.value.code == "answered"
    assert written() == before


def test_a_player_enters_only_for_his_own_table(at_table):
    before = written()
    with pytest.raises(NotAllowed) as refused:
        player_enters(at_table, 5, table=at_table.t1)
    assert refused.value.code == "other_table"
    assert "nicht an Tisch 1" in refused.value.message
    assert written() == before


def test_a_withdrawn_player_may_not_enter(at_table, organizer):
    entry_withdraw(actor=organizer, entry=at_table.p[2], reason="krank")
    at_table.p[2].refresh_from_db()
    before = written()
    with pytest.raises(NotAllowed) as refused:
        player_enters(at_table, 2)
    assert refused.value.code == "withdrawn"
    assert written() == before


def test_a_past_series_is_refused(at_table):
    make_series(
        at_table.tournament,
        sizes=(4, 4),
        number=2,
        entries=list(at_table.p.values()),
    )
    before = written()
    with pytest.raises(NotAllowed) as refused:
        player_enters(at_table, 1)
    assert refused.value.code == "past_series"
    assert written() == before


def test_off_refuses_everything(at_table):
    version = player_enters(at_table, 1)
    at_table.tournament.table_entry = "off"
    at_table.tournament.save()
    before = written()
    with pytest.raises(NotAllowed) as refused:
        result_confirm_by_player(player=at_table.p[2], version=version)
    assert refused.value.code == "table_entry_off"
    assert written() == before


def test_players_do_not_touch_a_confirmed_result_or_a_referees_entry(at_table, referee):
    pending = enter(at_table.t1, referee)
    with pytest.raises(NotAllowed) as refused:
        player_enters(at_table, 1)
    assert refused.value.code == "referee_entry"
    with pytest.raises(NotAllowed) as refused:
        result_confirm_by_player(player=at_table.p[1], version=pending)
    assert refused.value.code == "referee_entry"
    player_version = player_enters(at_table, 5, table=at_table.t2)
    result_confirm_by_player(player=at_table.p[6], version=player_version)
    with pytest.raises(NotAllowed) as refused:
        player_enters(at_table, 7, table=at_table.t2)
    assert refused.value.code == "confirmed"


def test_stimmt_nicht_needs_a_reason_and_stops_the_players(at_table):
    version = player_enters(at_table, 1)
    with pytest.raises(UserError) as missing:
        result_reject_by_player(player=at_table.p[2], version=version, reason=" ")
    assert missing.value.code == "reason_required"
    result_reject_by_player(
        player=at_table.p[2], version=version, reason="Spiel 3 hat Sitz 2 gewonnen"
    )
    version.refresh_from_db()
    assert version.status == "pending"
    with pytest.raises(NotAllowed) as refused:
        result_confirm_by_player(player=at_table.p[3], version=version)
    assert refused.value.code == "disputed"
    event = AuditEvent.objects.get(action="result.table_dispute")
    assert event.player == at_table.p[2]
    assert "Spiel 3 hat Sitz 2 gewonnen" in event.note


def test_a_player_corrects_the_waiting_entry_and_answers_start_over(at_table):
    first = player_enters(at_table, 1)
    result_reject_by_player(player=at_table.p[2], version=first, reason="Spiel 2")
    second = player_enters(at_table, 2, games_=games([(2, 3)] * 5))
    first.refresh_from_db()
    assert first.status == "superseded"
    assert second.status == "pending"
    # The one who entered the first version may now confirm the second.
    second = result_confirm_by_player(player=at_table.p[1], version=second)
    assert second.status == "confirmed"


def test_confirming_a_replaced_version_is_a_conflict(at_table):
    first = player_enters(at_table, 1)
    player_enters(at_table, 2, games_=games([(2, 3)] * 5))
    before = written()
    with pytest.raises(ConflictError):
        result_confirm_by_player(player=at_table.p[3], version=first)
    assert written() == before


def test_a_stale_entry_is_a_conflict(at_table):
    revision = at_table.t1.result_revision
    player_enters(at_table, 1)
    with pytest.raises(ConflictError):
        result_enter_by_player(
            player=at_table.p[2],
            table=at_table.t1,
            games=FIVE,
            mode="quick",
            revision=revision,
        )


def test_the_games_are_checked_as_a_referees_are(at_table):
    before = written()
    with pytest.raises(GameErrors) as mistakes:
        player_enters(at_table, 1, games_=games([(1, 9)] + [(1, 5)] * 4))
    assert mistakes.value.errors[0].game == 1
    assert written() == before


def test_referees_still_confirm_and_correct_a_table_entry(at_table, referee):
    version = player_enters(at_table, 1)
    confirm(version, referee)
    version.refresh_from_db()
    assert version.status == "confirmed"
    assert version.decided_by == referee
    corrected = enter(
        Table.objects.get(pk=at_table.t1.pk),
        referee,
        games([(4, 2)] * 5),
        reason="Spielliste",
    )
    assert corrected.status == "pending"
