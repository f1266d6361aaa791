"""SQLite's connections kept between requests (tournament/core/sqlite): a
closed connection is the next one opened, never with a transaction open,
and no more than KEEP wait."""

import sqlite3

import pytest
from django.db.utils import ConnectionHandler

from config import settings as site_settings
from tournament.core.sqlite import base


@pytest.fixture
def handler(tmp_path, django_db_blocker):
    """Connections to a database file of the test's own, as the hall's."""
    database = site_settings.database_settings("", tmp_path)
    connections = ConnectionHandler({"default": database})
    with django_db_blocker.unblock():
        yield connections
        connections.close_all()
    base.close_kept()


def _raw(wrapper) -> sqlite3.Connection:
    wrapper.ensure_connection()
    return wrapper.connection


def test_a_closed_connection_is_the_next_one_opened(handler):
    first = handler.create_connection("default")
    raw = _raw(first)
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE marks (n integer)")
        cursor.execute("INSERT INTO marks VALUES (7)")
    first.close()
    second = handler.create_connection("default")
    assert _raw(second) is raw
    assert second.get_autocommit()
    with second.cursor() as cursor:
        cursor.execute("SELECT n FROM marks")
        assert cursor.fetchall() == [(7,)]
    second.close()


def test_a_connection_closed_in_a_transaction_is_not_kept(handler):
    first = handler.create_connection("default")
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE marks (n integer)")
    raw = _raw(first)
    raw.execute("BEGIN")
    raw.execute("INSERT INTO marks VALUES (7)")
    first.close()
    second = handler.create_connection("default")
    assert _raw(second) is not raw
    with second.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM marks")
        assert cursor.fetchone() == (0,)
    second.close()


def test_no_more_than_keep_connections_wait(handler):
    wrappers = [handler.create_connection("default") for _ in range(base.KEEP + 3)]
    raws = [_raw(w) for w in wrappers]
    assert len({id(r) for r in raws}) == base.KEEP + 3
    for wrapper in wrappers:
        wrapper.close()
    assert base.kept(str(wrappers[0].settings_dict["NAME"])) == base.KEEP
    # The ones beyond KEEP are closed for real.
    with pytest.raises(sqlite3.ProgrammingError):
        raws[-1].execute("SELECT 1")
