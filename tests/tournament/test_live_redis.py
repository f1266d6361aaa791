"""Two server processes sharing live updates through the Redis channel layer:
a result confirmed on one reaches the pages connected to the other.

Needs Redis (REDIS_URL, else 127.0.0.1:6379); skipped with a message when
none answers. The servers are real uvicorn processes on free loopback ports
with their own SQLite file, whatever database the suite itself uses.
"""

import asyncio
import contextlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
PASSWORD = "zweimal-pruefen"


def _redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=0.5).ping())
    except Exception:
        return False


pytestmark = pytest.mark.skipif(
    not _redis_answers(),
    reason=f"Redis does not answer at {REDIS_URL}: the two-process test needs it "
    "(CI runs redis-server on 127.0.0.1:6379)",
)


def seed() -> None:
    """Run in a subprocess: migrate the temp database, then a tournament with
    one entered result waiting for a second referee. Prints JSON."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.tournament.factories import TournamentFactory, make_series, make_user
    from tournament.models import Table
    from tournament.services.results import GameInput, result_enter

    tournament = TournamentFactory(slug="zwei-prozesse")
    series = make_series(tournament, sizes=(4, 4))
    referee = make_user("schiri")
    second = make_user("schiri2")
    for user in (referee, second):
        user.set_password(PASSWORD)
        user.save()
    from django.contrib.auth.models import Group

    group, _ = Group.objects.get_or_create(name="referee")
    referee.groups.add(group)
    second.groups.add(group)
    table = Table.objects.get(series=series, number=1)
    games = [GameInput(winner=1, marks=7)] * 5
    version = result_enter(
        actor=referee, table=table, games=games, mode="quick", revision=None
    )
    table.refresh_from_db()
    print(json.dumps({"version": version.number, "revision": table.result_revision}))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(port, method, path, body="", headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.msg, response.read()
    finally:
        connection.close()


def _cookie(headers, name):
    for header in headers.get_all("Set-Cookie") or []:
        if header.startswith(f"{name}="):
            return header.split("=", 1)[1].split(";")[0]
    raise AssertionError(f"no {name} cookie")


def _login(port, username):
    _, headers, body = _request(port, "GET", "/konto/anmelden/")
    csrf = _cookie(headers, "csrftoken")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    form = urllib.parse.urlencode(
        {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    status, headers, _ = _request(
        port,
        "POST",
        "/konto/anmelden/",
        form,
        {
            "Cookie": f"csrftoken={csrf}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert status == 302, "login failed"
    return csrf, f"csrftoken={csrf}; sessionid={_cookie(headers, 'sessionid')}"


@pytest.fixture
def servers(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "SECRET_KEY": "two-process-test",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "VAR_DIR": str(tmp_path),
        "REDIS_URL": REDIS_URL,
        # test_settings prefixes cache keys with this: keep these servers'
        # cache apart from the suite's own (ids overlap).
        "PYTEST_XDIST_WORKER": f"two-processes-{uuid.uuid4().hex[:8]}",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("DATABASE_URL", None)
    seeded = subprocess.run(
        [sys.executable, "-c", f"import {__name__} as t; t.seed()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    data = json.loads(seeded.stdout.strip().splitlines()[-1])
    ports = [_free_port(), _free_port()]
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        for port in ports
    ]
    try:
        deadline = time.monotonic() + 30
        for port, process in zip(ports, processes, strict=True):
            while True:
                assert process.poll() is None, "a server process ended"
                assert time.monotonic() < deadline, "servers did not start"
                with contextlib.suppress(OSError):
                    if _request(port, "GET", "/")[0] == 200:
                        break
                time.sleep(0.1)
        yield ports, data
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


async def _phone(port, etag):
    from websockets.asyncio.client import connect

    websocket = await connect(
        f"ws://127.0.0.1:{port}/ws/t/zwei-prozesse/?lang=de",
        origin=f"http://127.0.0.1:{port}",
        open_timeout=10,
    )
    await websocket.send(
        json.dumps(
            {"type": "subscribe", "regions": [{"key": "standings", "etag": etag}]}
        )
    )
    while json.loads(await asyncio.wait_for(websocket.recv(), 10))["type"] != (
        "subscribed"
    ):
        pass
    return websocket


def test_a_confirmation_on_one_process_reaches_pages_on_the_other(servers):
    (a, b), data = servers
    _, headers, _ = _request(b, "GET", "/t/zwei-prozesse/live/standings/")
    shown = headers["ETag"].strip('"')
    csrf, cookies = _login(a, "schiri2")

    async def scenario():
        on_b, on_a = await _phone(b, shown), await _phone(a, shown)
        form = urllib.parse.urlencode(
            {
                "version": data["version"],
                "revision": data["revision"],
                "csrfmiddlewaretoken": csrf,
            }
        )
        status, _, _ = await asyncio.to_thread(
            _request,
            a,
            "POST",
            "/t/zwei-prozesse/eingabe/serie/1/tisch/1/bestaetigen/",
            form,
            {"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"},
        )
        assert status == 302
        got = [json.loads(await asyncio.wait_for(p.recv(), 10)) for p in (on_b, on_a)]
        for phone in (on_b, on_a):
            await phone.close()
        return got

    from_b, from_a = asyncio.run(scenario())
    assert from_b["type"] == "fragment" and from_b["etag"] != shown
    # Seat 1 won all five games with 7 marks: 5 × (7 + 7) = 70 points.
    assert '<td class="num points">70</td>' in from_b["html"]
    assert from_a["html"] == from_b["html"]
