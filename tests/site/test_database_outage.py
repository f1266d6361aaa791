"""PostgreSQL back means the workers are back: after the database dropped
every connection, and after a real restart of a PostgreSQL of the test's
own, no request fails on a dead pooled connection.

The server runs on a database of the test's own on the PostgreSQL at
127.0.0.1:5432 (or DATABASE_URL's); the test ends every connection to that
database from the server's side. Skipped with a message where no
PostgreSQL answers.
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support import servers as support

pytestmark = [
    pytest.mark.slow,
    pytest.mark.server,
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


PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
RUNUSER = shutil.which("runuser")


class PrivatePostgres:
    """A PostgreSQL server of the test's own (initdb in `folder`, port
    `port`), run as the system's postgres user, to be restarted at will."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder, self.port = folder, port
        self.bin = PG_BIN[-1]
        folder.chmod(0o777)
        data = str(folder / "data")
        self._as_postgres("initdb", "-D", data, "-A", "trust", "-U", "postgres")

    def _as_postgres(self, tool: str, *args: str) -> None:
        subprocess.run(
            [RUNUSER, "-u", "postgres", "--", str(self.bin / tool), *args],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        support.assert_marked(support.running)
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._as_postgres(
            "pg_ctl", "-D", str(self.folder / "data"), "-o", options,
            "-l", str(self.folder / "log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        data = str(self.folder / "data")
        self._as_postgres("pg_ctl", "-D", data, "-m", "fast", "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"


@pytest.mark.skipif(
    not (PG_BIN and RUNUSER and os.geteuid() == 0),
    reason="a private PostgreSQL needs Debian's postgresql binaries and root (runuser)",
)
def test_no_request_fails_after_postgresql_restarted(tmp_path):
    # Where the postgres user may go (pytest's own folders are root's alone).
    folder = Path(tempfile.mkdtemp(prefix="siebenschraem-pg-"))
    folder.chmod(0o755)
    postgres = PrivatePostgres(folder, support.free_port())
    postgres.start()
    process = None
    try:
        env = support.server_env(tmp_path, DATABASE_URL=postgres.url)
        support.seed_database(env)
        port = support.free_port()
        process = support.start_server(env, port)
        support.wait_until_up(port, process)
        _, cookies = support.http_sign_in(port, "schiri", support.PASSWORD)
        entry = f"/t/{support.SLUG}/eingabe/"
        asked = {"Cookie": cookies}

        def statuses(count: int) -> list[int]:
            asks = range(count)
            return [support.request(port, "GET", entry, headers=asked)[0] for _ in asks]

        assert statuses(6) == [200] * 6
        postgres.stop()
        postgres.start()
        assert statuses(12) == [200] * 12
    finally:
        if process is not None:
            support.stop(process)
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
