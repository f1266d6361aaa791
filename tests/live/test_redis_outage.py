"""A Redis that restarts during the day: the public pages go on from the
database (slower, never 500), a referee's confirmation goes through, and
once Redis is back the pages show what was saved meanwhile.

The test starts its own redis-server on a free port (nothing else's cache
is touched) and a real server process with the hall's front door; skipped
with a message where no redis-server is installed.
"""

import shutil
import subprocess
import time
from collections import Counter

import pytest

from tests.support import servers as support

REDIS_SERVER = shutil.which("redis-server")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.server,
    pytest.mark.skipif(
        REDIS_SERVER is None,
        reason="no redis-server here: the outage test starts its own "
        "(Debian's redis-server package; CI machines have it)",
    ),
]

PUBLIC = [f"/t/{support.SLUG}/tabelle/", f"/t/{support.SLUG}/live/standings/"]


class PrivateRedis:
    """A redis-server of the test's own on `port`, keeping nothing on disk."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = support.spawn(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        import redis

        client = redis.Redis(port=self.port, socket_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, (
                    "the test's redis-server did not start"
                )
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(5)
            self.process = None


@pytest.fixture
def hall_with_redis(tmp_path):
    redis = PrivateRedis(support.free_port())
    redis.start()
    env = support.server_env(tmp_path, REDIS_URL=f"redis://127.0.0.1:{redis.port}/0")
    pending = support.seed_database(env)
    port = support.free_port()
    process = support.start_server(env, port)
    try:
        support.wait_until_up(port, process)
        yield port, pending, redis
    finally:
        support.stop(process)
        redis.stop()


def _statuses(port: int, seconds: float) -> Counter:
    seen: Counter = Counter()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in PUBLIC:
            seen[support.request(port, "GET", path)[0]] += 1
    return seen


def test_the_public_pages_and_saves_go_on_while_redis_restarts(hall_with_redis):
    port, pending, redis = hall_with_redis
    assert _statuses(port, 0.5).keys() == {200}
    redis.stop()
    during = _statuses(port, 2)
    # A save while Redis is down: the referee's confirmation goes through.
    support.confirm(port, 1, *pending[1])
    during += _statuses(port, 2)
    assert during.keys() == {200}, f"while Redis was down: {dict(during)}"
    status, _, page = support.request(port, "GET", PUBLIC[0])
    # Seat 1 of table 1 won all five games with 7 marks: 5 × (7 + 7) = 70.
    assert status == 200 and b'<td class="num points">70</td>' in page
    redis.start()
    after = _statuses(port, 1)
    assert after.keys() == {200}, f"after Redis came back: {dict(after)}"
    status, _, page = support.request(port, "GET", PUBLIC[0])
    assert b'<td class="num points">70</td>' in page
