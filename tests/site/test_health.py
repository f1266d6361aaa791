"""/healthz and /readyz, for the operator's supervisor and proxy: alive
whatever the site is doing, ready only when the database and Redis answer
in time, never kept by anyone."""

import json
import time

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator

from tests.support import servers as support
from tournament.core import health


async def _ask(path: str) -> tuple[int, dict, dict]:
    async def site(scope, receive, send):  # what lies behind: must not be reached
        raise AssertionError(f"{path} reached the site")

    scope = {"type": "http", "method": "GET", "path": path, "headers": []}
    communicator = ApplicationCommunicator(health.Health(site), scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(5)
    body = await communicator.receive_output(5)
    return start["status"], dict(start["headers"]), json.loads(body["body"])


def _get(path: str) -> tuple[int, dict, dict]:
    return async_to_sync(_ask)(path)


@pytest.mark.django_db(transaction=True)
def test_healthz_is_alive_and_readyz_names_the_database(settings):
    settings.REDIS_URL = ""
    assert (_get("/healthz"))[0] == 200
    status, headers, body = _get("/readyz")
    assert (status, body) == (200, {"database": "ok"})
    assert headers[b"cache-control"] == b"no-store"


@pytest.mark.django_db(transaction=True)
def test_readyz_is_503_and_says_which_failed(settings, monkeypatch):
    settings.REDIS_URL = f"redis://127.0.0.1:{support.free_port()}/0"  # nobody listens

    def hangs():
        time.sleep(health.CHECK_SECONDS + 1)

    monkeypatch.setattr(health, "_database", hangs)
    started = time.monotonic()
    status, _, body = _get("/readyz")
    assert status == 503
    assert body == {"database": "no answer within 2 s", "redis": "ConnectionError"}
    # Each check bounded: a hung database does not hang the probe.
    assert time.monotonic() - started < 2 * health.CHECK_SECONDS + 1


@pytest.mark.slow
@pytest.mark.server
def test_a_running_server_answers_both_before_its_pages(tmp_path):
    env = support.server_env(tmp_path)
    port = support.free_port()
    process = support.start_server(env, port)
    try:
        support.wait_until_up(port, process)
        status, headers, body = support.request(port, "GET", "/healthz")
        assert status == 200 and json.loads(body) == {"alive": "ok"}
        status, headers, body = support.request(port, "GET", "/readyz")
        assert status == 200 and json.loads(body) == {"database": "ok"}
        assert headers["Cache-Control"] == "no-store"
    finally:
        support.stop(process)
