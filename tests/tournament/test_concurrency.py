"""Two people at once, on PostgreSQL (CI's second run): no lost update, a
clear conflict for the second. SQLite serialises writers anyway and its
in-memory test database does not share well between threads."""

import threading

import pytest
from django.db import connection

from tests.tournament.factories import make_series, make_user
from tournament.errors import ConflictError, UserError
from tournament.models import GameScore, ResultVersion, Table
from tournament.services.results import GameInput, result_confirm, result_enter

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrency tests need PostgreSQL (DATABASE_URL); CI runs them",
    ),
]

GAMES = [GameInput(winner=1, marks=5)] * 5


def run_together(*calls):
    """Start the calls at the same moment; return what each returned/raised."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def worker(i, call):
        from django.db import connections

        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:  # collected for the asserts
            results[i] = error
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_two_referees_saving_the_same_table_one_gets_a_conflict(tournament):
    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    a, b = make_user("a", "referee"), make_user("b", "referee")
    other = [GameInput(winner=2, marks=3)] * 5
    results = run_together(
        lambda: result_enter(
            actor=a, table=table, games=GAMES, mode="quick", revision=0
        ),
        lambda: result_enter(
            actor=b, table=table, games=other, mode="quick", revision=0
        ),
    )
    kinds = sorted(type(r).__name__ for r in results)
    assert kinds == ["ConflictError", "ResultVersion"]
    assert ResultVersion.objects.filter(table=table).count() == 1


def test_two_confirmations_at_once_count_once(tournament):
    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    a, b, c = (make_user(n, "referee") for n in "abc")
    version = result_enter(actor=a, table=table, games=GAMES, mode="quick", revision=0)
    table.refresh_from_db()
    revision = table.result_revision
    results = run_together(
        lambda: result_confirm(actor=b, version=version, revision=revision),
        lambda: result_confirm(actor=c, version=version, revision=revision),
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], ConflictError | UserError)
    assert GameScore.objects.filter(table=table).count() == 20
    version.refresh_from_db()
    assert version.status == "confirmed"
