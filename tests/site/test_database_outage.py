"""PostgreSQL back means the workers are back: after the database dropped
every connection (as a restart does), no request fails on a dead pooled
connection.

The server runs on a database of the test's own on the PostgreSQL at
127.0.0.1:5432 (or DATABASE_URL's); the test ends every connection to that
database from the server's side. Skipped with a message where no
PostgreSQL answers.
"""

import pytest

from tests.support import servers as support

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not support.postgres_answers(),
        reason=f"no PostgreSQL answers at {support.POSTGRES_URL}: the restart test "
        "needs one (CI runs it on 127.0.0.1:5432)",
    ),
]


@pytest.fixture
def hall_on_postgres(tmp_path):
    with support.private_postgres_database() as (name, url):
        env = support.server_env(tmp_path, DATABASE_URL=url)
        support.seed_database(env)
        port = support.free_port()
        process = support.start_server(env, port)
        try:
            support.wait_until_up(port, process)
            yield port, name
        finally:
            support.stop(process)


def test_no_request_fails_after_the_database_dropped_its_connections(hall_on_postgres):
    port, name = hall_on_postgres
    _, cookies = support.http_sign_in(port, "schiri", support.PASSWORD)
    entry = f"/t/{support.SLUG}/eingabe/"
    # Several requests, so the server's pool holds connections to lose.
    assert {
        support.request(port, "GET", entry, headers={"Cookie": cookies})[0]
        for _ in range(6)
    } == {200}
    with support.postgres() as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        ).fetchone()[0]
    assert ended >= 1, "the server held no connection to end"
    after = [
        support.request(port, "GET", entry, headers={"Cookie": cookies})[0]
        for _ in range(12)
    ]
    assert after == [200] * 12
