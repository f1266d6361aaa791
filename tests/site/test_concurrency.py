"""Two people at once, on PostgreSQL (CI's second run): no lost update, a
clear conflict for the second. SQLite serialises writers anyway and its
in-memory test database does not share well between threads."""

import threading

import pytest
from django.db import connection, connections

from tests.support.factories import make_series, make_user
from tests.support.threads import run_together
from tournament.core.errors import ConflictError, UserError
from tournament.models import GameScore, ResultVersion, Table
from tournament.results import services as results_services
from tournament.results.services import GameInput, result_confirm, result_enter

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrency tests need PostgreSQL (DATABASE_URL); CI runs them",
    ),
]

GAMES = [GameInput(winner=1, marks=5)] * 5


def test_two_referees_saving_the_same_table_one_gets_a_conflict(tournament):
    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    a, b = make_user("a", "referee"), make_user("b", "referee")
    other = [GameInput(winner=2, marks=3)] * 5
    results = run_together(
        (results_services, "table_lock"),
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
        (results_services, "table_lock"),
        lambda: result_confirm(actor=b, version=version, revision=revision),
        lambda: result_confirm(actor=c, version=version, revision=revision),
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], ConflictError | UserError)
    assert GameScore.objects.filter(table=table).count() == 20
    version.refresh_from_db()
    assert version.status == "confirmed"


def test_two_phones_and_a_bot_moving_at_once_make_exactly_one_move(tournament):
    """A digital table: the same state, three moves sent at once (two seats
    interrupting, the organizer's bot taking over a seat): the row lock
    lets one move through; the others see a stale table and change
    nothing."""
    from tournament.digital import adapter as digital_adapter
    from tournament.digital import moves as digital_moves
    from tournament.digital.services import digital_act, digital_table_create
    from tournament.models import DigitalTable

    series = make_series(tournament, sizes=(4,))
    organizer = make_user("orga", "organizer")
    digital = digital_table_create(
        actor=organizer, table=Table.objects.get(series=series), bots={}
    )
    digital.refresh_from_db()
    version = digital.version
    seats = list(digital.seats.order_by("number"))
    # Everybody may look at their cards at the start of a hand: legal for
    # all four seats in this very state.
    results = run_together(
        (digital_moves, "lock"),
        *(
            lambda s=s: digital_act(token=s.token, seq=1, version=version, act="look")
            for s in seats
        ),
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and applied[0].applied
    assert len(refused) == 3
    assert all(isinstance(r, ConflictError) for r in refused)
    digital = DigitalTable.objects.get(pk=digital.pk)
    assert digital.version == version + 1
    hand = digital_adapter.current_game(digital).hand
    assert len(hand.history) == 1


def test_a_rule_change_and_a_first_result_at_once_never_both_count(tournament):
    """The organizer lowers the games per series while a referee saves the
    table's first result (five games). Either the change is refused (a
    result exists) or the entry is checked by the new rule; never a result
    of five games under a rule of three. (The entry's table lock takes the
    tournament's row with it, which the change holds.)"""
    from tournament.tournaments import services as tournaments_services

    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    referee = make_user("r", "referee")
    organizer = make_user("o", "organizer")
    entering = threading.Event()
    locked = threading.Event()
    real_lock = results_services.table_lock
    real_check = tournaments_services.settings_refusals

    def lock_table(*args, **kwargs):
        entering.set()  # the entry is about to ask for its table's lock
        return real_lock(*args, **kwargs)

    def check(**kwargs):
        # The change holds its locks now: it checks only once the entry is
        # seen waiting for the table (proof that both are in flight at once).
        locked.set()
        assert entering.wait(timeout=30)
        with connections["default"].cursor() as cursor:
            for _ in range(300):
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE wait_event_type = 'Lock' AND datname = current_database()"
                )
                if cursor.fetchone()[0]:
                    break
                threading.Event().wait(0.05)
            else:
                raise AssertionError("the entry never waited for the table")
        return real_check(**kwargs)

    def change():
        fresh = type(tournament).objects.get(pk=tournament.pk)
        fresh.games_per_series = 3
        return tournaments_services.tournament_save(
            actor=organizer, tournament=fresh, created=False
        )

    def enter():
        return result_enter(
            actor=referee, table=table, games=GAMES, mode="quick", revision=0
        )

    results: list[object] = [None, None]

    def worker(i, call):
        try:
            results[i] = call()
        except Exception as error:  # collected for the asserts
            results[i] = error
        finally:
            connections.close_all()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(results_services, "table_lock", lock_table)
        patch.setattr(tournaments_services, "settings_refusals", check)
        first = threading.Thread(target=worker, args=(0, change))
        first.start()
        assert locked.wait(timeout=30)  # the change holds its locks; now the entry
        second = threading.Thread(target=worker, args=(1, enter))
        second.start()
        first.join()
        second.join()
    tournament.refresh_from_db()
    stored = ResultVersion.objects.filter(table=table)
    assert not (tournament.games_per_series == 3 and stored.exists()), results
    assert isinstance(results[1], UserError), results
    assert "3 Spiele" in results[1].message
