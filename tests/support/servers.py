"""Real server processes for the tests that need them: a seeded SQLite
file, servers on loopback ports that listen before the process starts (a
first request waits for the server; nobody polls), sign-in and forms over
HTTP, a referee's confirmation."""

import atexit
import contextlib
import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SLUG = "zwei-prozesse"
PASSWORD = "zweimal-pruefen"
# Redis databases of the live tests, apart from the suite's cache (whose
# cache.clear() is a FLUSHDB of its database, whatever the key prefix).
CHANNELS_DB = 1
SERVERS_DB = 2


# The markers of a test that may start a server process: `make test-fast`
# leaves those tests out (seconds each to start and stop).
SERVER_MARKERS = ("server", "e2e")
# The test being run, set by tests/conftest.py (None outside pytest: a
# benchmark starting servers through this module).
running: pytest.Item | None = None


def assert_marked(
    item: pytest.Item | None, markers: tuple[str, ...] = SERVER_MARKERS
) -> None:
    """A test that starts a server process (or a browser) carries one of
    `markers`; fails the test otherwise."""
    if item is not None and not any(item.get_closest_marker(m) for m in markers):
        pytest.fail(
            f"{item.nodeid} starts a server process or a browser: mark it "
            f"@pytest.mark.{markers[0]} (make test-fast leaves those out)",
            pytrace=False,
        )


def spawn(command: list[str], **options: Any) -> subprocess.Popen:
    """A server process (`manage.py serve`, nginx, Redis, PostgreSQL...)
    for the running test, which must be marked so (`assert_marked`)."""
    assert_marked(running)
    return subprocess.Popen(command, **options)


def redis_url(db: int) -> str:
    """REDIS_URL (else 127.0.0.1:6379) with another database number."""
    url = urllib.parse.urlsplit(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379")
    return urllib.parse.urlunsplit(url._replace(path=f"/{db}"))


def redis_answers(url: str) -> bool:
    """Whether a Redis answers at `url` (for a test's skip)."""
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_timeout=0.5).ping())
    except Exception:
        return False


def seed() -> None:
    """Run in a subprocess: migrate the temp database, then a tournament
    whose two tables have results entered and waiting for a second referee.
    Prints JSON: per table number, the version and revision to confirm."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.support.factories import TournamentFactory, make_series, make_user
    from tournament.models import Table
    from tournament.results.services import GameInput, result_enter

    tournament = TournamentFactory(slug=SLUG)
    series = make_series(tournament, sizes=(4, 4))
    referee = make_user("schiri", "referee", password=PASSWORD)
    make_user("schiri2", "referee", password=PASSWORD)
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


# The SQLite file a server keeps under its VAR_DIR (config.settings).
DATABASE_FILE = "siebenschraem.sqlite3"
_migrated: Path | None = None


def server_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a server (and its manage.py commands) on
    `var_dir`. Without a DATABASE_URL of the test's, its SQLite file starts
    as a copy of one migrated once per test process: `migrate` on it then
    finds nothing to do (migrating a new file takes seconds, copying one
    milliseconds)."""
    env = _env(var_dir, **extra)
    if "DATABASE_URL" not in extra and not (var_dir / DATABASE_FILE).exists():
        _copy_database(_migrated_database(), var_dir / DATABASE_FILE)
    return env


# The hall's settings as `make run` serves them, over plain HTTP on loopback.
HALL = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "SECURE_HSTS_SECONDS": "0",
}
_collected: Path | None = None


def hall_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """`server_env` in the hall's configuration, as `make run` serves it:
    config.settings with DEBUG off (its CSP), collectstatic's manifest
    (collected once per test process and copied: collectstatic compresses
    every file, seconds of CPU), plain HTTP on loopback."""
    env = server_env(var_dir, **HALL, **extra)
    shutil.copytree(_collected_static(), var_dir / "static", dirs_exist_ok=True)
    return env


def _collected_static() -> Path:
    global _collected
    if _collected is None:
        folder = Path(tempfile.mkdtemp(prefix="siebenschraem-static-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        manage(_env(folder, **HALL), "collectstatic", "--noinput", "-v0")
        _collected = folder / "static"
    return _collected


def _migrated_database() -> Path:
    global _migrated
    if _migrated is None:
        folder = Path(tempfile.mkdtemp(prefix="siebenschraem-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        manage(_env(folder), "migrate", "-v0")
        _migrated = folder / DATABASE_FILE
    return _migrated


def _copy_database(source: Path, target: Path) -> None:
    """SQLite's own backup: a consistent copy, whatever its journal holds."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


def _env(var_dir: Path, **extra: str) -> dict[str, str]:
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
    if "DATABASE_URL" not in extra:
        env.pop("DATABASE_URL", None)
    if "REDIS_URL" not in extra:
        env.pop("REDIS_URL", None)
    return env


def seed_database(env: dict[str, str]) -> dict[int, list[int]]:
    pending = run_seed(env, __name__)
    return {int(k): v for k, v in pending.items()}


def run_seed(env: dict[str, str], module: str) -> Any:
    """`module.seed()` in a subprocess on the database of `env`; what it
    printed last, as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", f"import {module} as s; s.seed()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,  # a ceiling: migrating takes a minute on a busy machine
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def manage(env: dict[str, str], *command: str) -> str:
    """`manage.py COMMAND` in a process of its own on `env`; its output."""
    return subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
        capture_output=True,
        text=True,
    ).stdout


@contextlib.contextmanager
def demo_hall(var_dir: Path, setup: str) -> Iterator[tuple[str, Any]]:
    """The demo of three played series on a server of its own (DEBUG on),
    and what the shell script `setup` printed last, as JSON."""
    env = server_env(var_dir, DEBUG="1")
    manage(env, "migrate", "-v0")
    manage(env, "demo", "--complete", "3")
    world = json.loads(manage(env, "shell", "-c", setup).strip().splitlines()[-1])
    port = free_port()
    process = start_server(env, port)
    try:
        wait_until_up(port, process)
        yield f"http://127.0.0.1:{port}", world
    finally:
        stop(process)


POSTGRES_URL = (
    os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test"
)


def postgres(database: str = "") -> Any:
    """An autocommit connection to POSTGRES_URL's server (to `database`)."""
    import psycopg

    url = urllib.parse.urlsplit(POSTGRES_URL)
    if database:
        url = url._replace(path=f"/{database}")
    return psycopg.connect(
        urllib.parse.urlunsplit(url), autocommit=True, connect_timeout=2
    )


def postgres_answers() -> bool:
    if not POSTGRES_URL.startswith("postgres"):
        return False
    try:
        postgres().close()
        return True
    except Exception:
        return False


@contextlib.contextmanager
def private_postgres_database() -> Iterator[tuple[str, str]]:
    """A new, empty database on POSTGRES_URL's server for a test's server
    processes, dropped after: its name and its URL."""
    name = f"srv_{uuid.uuid4().hex[:12]}"
    with postgres() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield (
            name,
            urllib.parse.urlunsplit(
                urllib.parse.urlsplit(POSTGRES_URL)._replace(path=f"/{name}")
            ),
        )
    finally:
        with postgres() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


NGINX = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")


def start_nginx(folder: Path, listen: int, upstream: int) -> subprocess.Popen:
    """Debian's nginx with deploy/nginx-site.conf as shipped, on 127.0.0.1:
    `listen` in front of the server on `upstream`, in `folder` of its own;
    its main settings as docs/OPERATING.md › Behind nginx asks of
    /etc/nginx/nginx.conf (connections for a hall of phones)."""
    site = (ROOT / "deploy" / "nginx-site.conf").read_text()
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    site = site.replace("listen [::]:80;\n", "")
    site = site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};")
    assert f":{listen};" in site and f":{upstream};" in site, (
        "the site file changed shape"
    )
    (folder / "site.conf").write_text(site)
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        "daemon off; user root; worker_processes auto; "
        f"worker_rlimit_nofile 16384; pid {folder / 'nginx.pid'};\n"
        "error_log stderr warn;\n"
        "events { worker_connections 8192; }\n"
        f"http {{ access_log off; {temp} include {folder / 'site.conf'}; }}\n"
    )
    assert NGINX, "no nginx here"
    return spawn(
        [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")],
        stderr=subprocess.DEVNULL,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening_socket(port: int = 0) -> socket.socket:
    """A socket listening on 127.0.0.1:`port` (0: any free port)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    return sock


def start_server(
    env: dict[str, str],
    port: int,
    *options: str,
    stderr: IO[str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.Popen:
    """A server process serving 127.0.0.1:`port`, started as the hall
    starts it (`manage.py serve`: uvicorn with the hall's front door),
    with further `options` of that command. The port listens before this
    returns: the socket is made here and handed to the server, so a
    request waits in its queue until the server takes it. Its `stderr`
    (errors and tracebacks) goes to the given file, else to the test's.
    `preexec_fn` runs in the child before the command (a test's limit on
    open files)."""
    with listening_socket(port) as sock:
        return spawn(
            [
                sys.executable,
                "manage.py",
                "serve",
                "--fd",
                str(sock.fileno()),
                *options,
            ],
            cwd=ROOT,
            env=env,
            pass_fds=[sock.fileno()],
            stderr=stderr,
            preexec_fn=preexec_fn,
        )


def wait_until_up(port: int, process: subprocess.Popen, seconds: float = 60) -> None:
    """The server's first answer. Nothing to poll: the request waits in the
    queue of the socket `start_server` made until the server takes it, and
    fails at once if the process ends first (the socket closes with it)."""
    try:
        status = request(port, "GET", "/", timeout=seconds)[0]
    except OSError as error:
        ended = process.poll()
        raise AssertionError(
            f"the server did not answer: {error!r}"
            + ("" if ended is None else f" (its process ended: {ended})")
        ) from error
    assert status == 200, f"the server's first answer: {status}"


def serve_after(env: dict[str, str], *commands: list[str]) -> Iterator[int]:
    """Migrate a fresh database and run manage.py `commands` on it, then
    serve it: yields the port of the running server (for a fixture)."""
    for command in (["migrate", "-v0"], *commands):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=300,
            capture_output=True,
        )
    port = free_port()
    process = start_server(env, port)
    try:
        wait_until_up(port, process)
        yield port
    finally:
        stop(process)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def request(port, method, path, body="", headers=None, *, timeout: float = 10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
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


def post_form(port: int, path: str, fields: dict, *, csrf: str, cookies: str):
    """POST a form as a browser would, with its CSRF token and cookies."""
    form = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": csrf})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookies}
    return request(port, "POST", path, form, headers)


def http_sign_in(port: int, username: str, password: str) -> tuple[str, str]:
    """Sign in through the login form; returns the CSRF token and the
    cookies of the session (sessions live in the database, so they last
    across server restarts)."""
    _, headers, body = request(port, "GET", "/konto/anmelden/")
    csrf = _cookie(headers, "csrftoken")
    assert b'name="csrfmiddlewaretoken"' in body, "no login form"
    status, headers, _ = post_form(
        port,
        "/konto/anmelden/",
        {"username": username, "password": password},
        csrf=csrf,
        cookies=f"csrftoken={csrf}",
    )
    assert status == 302, f"{username} could not sign in"
    return csrf, f"csrftoken={csrf}; sessionid={_cookie(headers, 'sessionid')}"


def confirm(port: int, table: int, version: int, revision: int) -> None:
    """The second referee signs in and confirms a table of series 1."""
    csrf, cookies = http_sign_in(port, "schiri2", PASSWORD)
    path = f"/t/{SLUG}/eingabe/serie/1/tisch/{table}/bestaetigen/"
    fields = {"version": version, "revision": revision}
    status, _, _ = post_form(port, path, fields, csrf=csrf, cookies=cookies)
    assert status == 302, "confirmation failed"
