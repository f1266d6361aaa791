"""Entry at the table, two phones at once, on PostgreSQL (issue 16,
acceptance): players of one table confirming and correcting at the same
moment never give two confirmed versions, never count an answer twice, and
leave the standings' rows matching the one confirmed version. The calls
meet right before the table's row lock (`run_together`), so all are in
flight at once; CI's second run has the database for it."""

import pytest
from django.db import connection

from tests.support.factories import make_series
from tests.support.threads import run_together
from tournament.core.errors import ConflictError, UserError
from tournament.models import (
    AuditEvent,
    GameScore,
    ResultAnswer,
    ResultVersion,
    Table,
    Tournament,
)
from tournament.results import services as results_services
from tournament.results.services import GameInput
from tournament.tableentry.services import (
    result_confirm_by_player,
    result_enter_by_player,
    result_reject_by_player,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrency tests need PostgreSQL (DATABASE_URL); CI runs them",
    ),
]

ENTERED = [GameInput(winner=1, marks=5)] * 5
CORRECTED = [GameInput(winner=2, marks=3)] * 5
LOCK = (results_services, "table_lock")


def table_of_four(tournament, mode="one"):
    Tournament.objects.filter(pk=tournament.pk).update(table_entry=mode)
    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    players = {s.number: s.entry for s in table.seats.select_related("entry")}
    return table, players


def first_entry(table, player):
    table.refresh_from_db()
    return result_enter_by_player(
        player=player,
        table=table,
        games=ENTERED,
        mode="quick",
        revision=table.result_revision,
    )


def assert_one_truth(table):
    """At most one version counts, and the standings' rows are its games."""
    confirmed = list(table.result_versions.filter(status="confirmed"))
    pending = table.result_versions.filter(status="pending").count()
    assert len(confirmed) <= 1
    assert pending <= 1
    scores = GameScore.objects.filter(table=table)
    if not confirmed:
        assert not scores.exists()
        return None
    [version] = confirmed
    assert scores.count() == 20
    assert set(scores.values_list("version_id", flat=True)) == {version.pk}
    winners = sorted(
        scores.filter(won=True).values_list("game", "seat", "marks"),
    )
    assert winners == [
        (n, g["winner"], g["marks"]) for n, g in enumerate(version.data["games"], 1)
    ]
    return version


def test_a_confirmation_and_a_correction_at_once(tournament):
    """Player 2 says Stimmt to player 1's entry while player 3 enters a
    correction against the same state: one wins, the other is told the
    table changed; never both."""
    table, p = table_of_four(tournament)
    version = first_entry(table, p[1])
    table.refresh_from_db()
    revision = table.result_revision
    results = run_together(
        LOCK,
        lambda: result_confirm_by_player(player=p[2], version=version),
        lambda: result_enter_by_player(
            player=p[3], table=table, games=CORRECTED, mode="quick", revision=revision
        ),
    )
    failed = [r for r in results if isinstance(r, Exception)]
    assert len(failed) == 1
    assert isinstance(failed[0], UserError)  # a conflict or "already confirmed"
    counted = assert_one_truth(table)
    if isinstance(results[0], Exception):
        # The correction came first: it waits, the first entry is replaced.
        assert counted is None
        assert (
            table.result_versions.get(status="pending").data["games"][0]["winner"] == 2
        )
        assert not ResultAnswer.objects.exists()
    else:
        assert counted == version


@pytest.mark.parametrize("rounds", range(3))
def test_two_stimmt_at_once_count_once(tournament, rounds):
    table, p = table_of_four(tournament)
    version = first_entry(table, p[1])
    results = run_together(
        LOCK,
        lambda: result_confirm_by_player(player=p[2], version=version),
        lambda: result_confirm_by_player(player=p[3], version=version),
    )
    failed = [r for r in results if isinstance(r, Exception)]
    assert len(failed) == 1 and isinstance(failed[0], ConflictError)
    assert assert_one_truth(table) == version
    assert ResultAnswer.objects.filter(version=version).count() == 1
    assert AuditEvent.objects.filter(action="result.table_confirm").count() == 1


def test_all_others_confirming_at_once_confirm_once(tournament):
    """ "All other players confirm": the three others at the same moment.
    Each answer counts once; the last one makes it count, once."""
    table, p = table_of_four(tournament, mode="all")
    version = first_entry(table, p[1])
    results = run_together(
        LOCK,
        *(
            lambda n=n: result_confirm_by_player(player=p[n], version=version)
            for n in (2, 3, 4)
        ),
    )
    assert not [r for r in results if isinstance(r, Exception)]
    assert assert_one_truth(table) == version
    assert ResultAnswer.objects.filter(version=version, answer="agree").count() == 3
    actions = sorted(
        AuditEvent.objects.filter(action__startswith="result.table_").values_list(
            "action", flat=True
        )
    )
    assert actions == [
        "result.table_agree",
        "result.table_agree",
        "result.table_confirm",
        "result.table_enter",
    ]


def test_stimmt_stimmt_nicht_and_a_correction_at_once(tournament):
    """Three phones of one table at once: Stimmt, Stimmt nicht and a new
    entry. Whatever the order, at most one version counts, and a version
    somebody disputed is never confirmed by a player."""
    table, p = table_of_four(tournament)
    version = first_entry(table, p[1])
    table.refresh_from_db()
    revision = table.result_revision
    run_together(
        LOCK,
        lambda: result_confirm_by_player(player=p[2], version=version),
        lambda: result_reject_by_player(player=p[3], version=version, reason="Spiel 1"),
        lambda: result_enter_by_player(
            player=p[4], table=table, games=CORRECTED, mode="quick", revision=revision
        ),
    )
    counted = assert_one_truth(table)
    for v in ResultVersion.objects.filter(table=table, status="confirmed"):
        assert not v.answers.filter(answer="disagree").exists()
    if counted is not None:
        assert counted.decided_by_player_id == p[2].pk
