"""Helpers for the live tests that run real uvicorn processes (no tests
here): a seeded SQLite file, servers on free loopback ports, a referee's
HTTP login and confirmation."""

import contextlib
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SLUG = "zwei-prozesse"
PASSWORD = "zweimal-pruefen"
# Redis databases of the live tests, apart from the suite's cache (whose
# cache.clear() is a FLUSHDB of its database, whatever the key prefix).
CHANNELS_DB = 1
SERVERS_DB = 2

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def skip_without_chromium() -> None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        import pytest

        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")


@contextlib.contextmanager
def chromium():
    """Debian's Chromium through Playwright's sync API. Use it in a thread
    of its own (`in_own_thread`): the browser tests' session fixture may
    hold Playwright's loop in the test's thread."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            yield browser
        finally:
            browser.close()


def redis_url(db: int) -> str:
    """REDIS_URL (else 127.0.0.1:6379) with another database number."""
    url = urllib.parse.urlsplit(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379")
    return urllib.parse.urlunsplit(url._replace(path=f"/{db}"))


def seed() -> None:
    """Run in a subprocess: migrate the temp database, then a tournament
    whose two tables have results entered and waiting for a second referee.
    Prints JSON: per table number, the version and revision to confirm."""
    import django

    django.setup()
    from django.contrib.auth.models import Group
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.support.factories import TournamentFactory, make_series, make_user
    from tournament.models import Table
    from tournament.results.services import GameInput, result_enter

    tournament = TournamentFactory(slug=SLUG)
    series = make_series(tournament, sizes=(4, 4))
    group, _ = Group.objects.get_or_create(name="referee")
    referee, second = make_user("schiri"), make_user("schiri2")
    for user in (referee, second):
        user.set_password(PASSWORD)
        user.save()
        user.groups.add(group)
    pending = {}
    for table in Table.objects.filter(series=series).order_by("number"):
        # Table 1: seat 1 wins everything with 7 marks (5 × 14 = 70 points);
        # table 2: seat 2 with 6 marks (65).
        games = [GameInput(winner=table.number, marks=8 - table.number)] * 5
        version = result_enter(
            actor=referee, table=table, games=games, mode="quick", revision=None
        )
        table.refresh_from_db()
        pending[table.number] = [version.number, table.result_revision]
    print(json.dumps(pending))


def server_env(var_dir: Path, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "SECRET_KEY": "live-server-test",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "VAR_DIR": str(var_dir),
        # test_settings prefixes cache keys with this: keep these servers'
        # cache apart from the suite's own (database ids overlap).
        "PYTEST_XDIST_WORKER": f"live-servers-{uuid.uuid4().hex[:8]}",
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    env.pop("DATABASE_URL", None)
    if "REDIS_URL" not in extra:
        env.pop("REDIS_URL", None)
    return env


def seed_database(env: dict[str, str]) -> dict[int, list[int]]:
    done = subprocess.run(
        [sys.executable, "-c", f"import {__name__} as s; s.seed()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return {int(k): v for k, v in json.loads(done.stdout.splitlines()[-1]).items()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(env: dict[str, str], port: int, *options: str) -> subprocess.Popen:
    return subprocess.Popen(
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
            *options,
        ],
        cwd=ROOT,
        env=env,
    )


def wait_until_up(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, "the server process ended"
        assert time.monotonic() < deadline, "the server did not start"
        with contextlib.suppress(OSError):
            if request(port, "GET", "/")[0] == 200:
                return
        time.sleep(0.1)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def request(port, method, path, body="", headers=None):
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


def confirm(port: int, table: int, version: int, revision: int) -> None:
    """The second referee signs in and confirms a table of series 1."""
    _, headers, body = request(port, "GET", "/konto/anmelden/")
    csrf = _cookie(headers, "csrftoken")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    form = urllib.parse.urlencode(
        {"username": "schiri2", "password": PASSWORD, "csrfmiddlewaretoken": token[1]}
    )
    form_headers = {"Content-Type": "application/x-www-form-urlencoded"}
    status, headers, _ = request(
        port,
        "POST",
        "/konto/anmelden/",
        form,
        {**form_headers, "Cookie": f"csrftoken={csrf}"},
    )
    assert status == 302, "login failed"
    cookies = f"csrftoken={csrf}; sessionid={_cookie(headers, 'sessionid')}"
    form = urllib.parse.urlencode(
        {"version": version, "revision": revision, "csrfmiddlewaretoken": csrf}
    )
    path = f"/t/{SLUG}/eingabe/serie/1/tisch/{table}/bestaetigen/"
    status, _, _ = request(
        port, "POST", path, form, {**form_headers, "Cookie": cookies}
    )
    assert status == 302, "confirmation failed"


def in_own_thread(function, *args):
    """Run `function` in a thread of its own and return its result. The
    test's thread may hold another event loop (Playwright's sync API in a
    session fixture of the browser tests), where asyncio.run, async_to_sync
    and a second sync Playwright all refuse to start."""
    outcome = {}

    def target():
        from django.db import connections

        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error
        finally:
            connections.close_all()  # else PostgreSQL keeps the test db busy

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
