"""Load benchmark (issue 9): 300 viewers and 20 referees at once against a real
server for a set time; every response is checked, p50/p95 latency reported
against a baseline measured in the same run.

Server: uvicorn on a free 127.0.0.1 port (`--workers N`) with bench/live.py's
400-player tournament: three series played, series 4 under way (its first 20
tables entered, waiting for a second referee). By default a fresh SQLite
file (WAL) in a temp folder, in-memory cache and channel layer, one worker.
With DATABASE_URL set, a database of its own is created on that PostgreSQL
server (dropped at the end); with REDIS_URL set, cache and channel layer use
that Redis under a key prefix of this run (deleted at the end), and several
workers are allowed. Settings: config.test_settings, as for bench/live.py
(DEBUG off, fast password hasher, static files without collectstatic).

Viewers are phones in the hall, anonymous, each a browser with its cache and
one keep-alive connection. A phone opens a page – standings (overall or
ladies), series 4's results or seating, the projector, "where do I sit?", or
now and then the JSON API (standings, series 4, a player) – and then polls
the page's live regions (their URLs and ETags read from the page) with
If-None-Match, as static/js/live.js does while its socket is down: every
15 s ± 25 % (`--poll`). A quarter of its turns it opens a page instead
(reloading one it saw with its ETag). So 300 phones without their sockets,
the design case of live.js. 304 counts as success only for a conditional
request.

Referees sign in through the login form and keep their own cookies. Double
entry stays on, as at the championship, so both write paths are loaded: a
referee confirms a table somebody else entered (GET the table page, check,
POST its confirm form with version and revision) or else enters the next free
table (GET the entry form for CSRF token, revision and seats, type, POST a
quick entry of all games), then follows the redirect to the entry overview,
as a browser does. Typing or checking a sheet, and walking on to the next
table, take 10 s ± 50 % each (`--referee-pause`): 20 referees together finish
about one table action (entry or confirmation) a second; a series' 100
tables entered and confirmed within 20 minutes would be 0.17 a second. When
every table is confirmed, tables come round again as corrections with a
reason (waiting for a second referee again). A table is with one referee at a
time, so a conflict or a form shown again is an error.

Errors: a 5xx, a connection error, a timeout (30 s), any other unexpected
status or redirect, a page without its live region, or – checked at the end –
a database that does not hold exactly the entries and confirmations the
referees were told were saved.

Baseline (same run, same server, before the load): the viewers' mix from one
viewer asking back to back, no referees. `ratio` = p50 under load / baseline
p50. The server's CPU time per request (from /proc, Linux) is printed as well:
unlike latency it hardly depends on what else the machine is doing. Back to
back, the baseline's viewer keeps its connection; under load every phone
opens one per request (it polls every 15 s, the server keeps a connection 5
s): the same viewer with a new connection per request is measured too
(`baseline_phone_p50_ms`, `ratio_phone`).

Phones ask for gzip, as browsers do. Several --viewers values (and as many
--referees, or one for all) make one run each, in a process of its own, one
after the other; then the figures of every run, and as the last line one
JSON object holding each run's (`runs`) and the errors of all.

    python bench/load.py [--seconds 30] [--viewers 300 …] [--referees 20 …]
                         [--workers 1] [--poll 15] [--referee-pause 10]
    python bench/load.py --viewers 300 1000 --referees 20 30
    DATABASE_URL=postgres://… REDIS_URL=redis://… python bench/load.py --workers 2

A running deployment (e.g. nginx in front of its workers, docs/OPERATING.md)
is measured with --url: no server is started; the bench's tournament (slug
`live`, referees `bench-*`) is written into the deployment's own database,
named by DATABASE_URL as the deployment has it, replaced if an earlier run
left one, and deleted at the end. Its settings are config.settings (the
deployment's password hashers). The deployment must let one address ask as
much as a hall does (PLAYER_LINK_REQUESTS=1000000) and name the URL's host
in ALLOWED_HOSTS; the server's CPU is not measured then:

    DATABASE_URL=postgres://…/siebenschraem python bench/load.py \
        --url http://127.0.0.1:8080 --viewers 1000 --referees 30

The last line is one JSON object; the exit status is 1 if there were errors.
"""

import argparse
import asyncio
import contextlib
import gzip
import html
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SLUG = "live"  # bench/live.py's tournament
SERIES = 4  # released, under way
PENDING = 20  # its tables 1…20 entered, waiting for a second referee
PLAYERS = 400
PASSWORD = "bench-referee"
TIMEOUT = 30.0  # per request; longer counts as an error
# The server's address: the bench's own on loopback, or --url's host.
HOST = "127.0.0.1"


# --- The server process ----------------------------------------------------


def server_app() -> Any:
    """uvicorn's app factory: the site plus the trivial page, with this run's
    own key prefix in Redis (so nothing meets another run's or the test
    suite's keys and channel groups)."""
    from bench._django import asgi_app

    return asgi_app(urlconf="bench.urls", redis_prefix_variable="BENCH_LOAD_PREFIX")


def start_server(
    port: int, workers: int, env: dict[str, str]
) -> subprocess.Popen[bytes]:
    from bench._django import start_uvicorn

    return start_uvicorn("bench.load:server_app", port, env, workers=workers)


async def wait_until_up(port: int, process: subprocess.Popen[bytes] | None) -> None:
    from bench._django import wait_for_server

    if process is None:  # a deployment: it is up when it is ready
        response = await Connection(port).send("GET", "/readyz", {})
        if response.status != 200:
            raise SystemExit(f"{HOST}:{port}/readyz answers {response.status}")
        return

    async def trivial() -> int:
        connection = Connection(port)
        try:
            response = await connection.send("GET", "/bench/trivial/", {})
        finally:
            connection.close()
        if response.status >= 500:
            raise SystemExit(f"the server answers {response.status}")
        return response.status

    await wait_for_server(process, trivial)


def server_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) the server and its worker processes have
    used so far, from /proc (Linux; 0 elsewhere). Per request, it is what
    the server costs whatever else runs on the machine (0 for a deployment
    that is not this bench's process)."""
    if pid is None:
        return 0.0
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            pid_ = int(stat.parent.name)
            parents[pid_] = int(fields[1])
            times[pid_] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += times.get(current, 0.0)
        todo += [child for child, parent in parents.items() if parent == current]
    return total


# --- A small HTTP/1.1 client --------------------------------------------------
# Standard library only: on a 2-core machine the load generator shares the CPU
# with the server, so it should cost as little as possible per request.


@dataclass
class Response:
    status: int
    headers: dict[str, list[str]]  # lower-case names
    body: bytes

    def header(self, name: str) -> str | None:
        values = self.headers.get(name)
        return values[-1] if values else None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Connection:
    """One keep-alive connection, opened on first use and again after the
    server closed it (as a browser does)."""

    # Reconnect after this long idle: uvicorn closes a keep-alive connection
    # after 5 s, and a request sent as it does so would fail (browsers and
    # HTTP libraries keep their idle limit below the server's, e.g. httpx).
    IDLE_LIMIT = 4.0

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def send(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> Response:
        idle = time.monotonic() - self.last_used
        if self.reader is None or self.reader.at_eof() or idle > self.IDLE_LIMIT:
            self.close()
            self.reader, self.writer = await asyncio.open_connection(
                HOST, self.port, limit=1 << 20
            )
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin1") + body)
        reader = self.reader
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        received: dict[str, list[str]] = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin1").partition(":")
            received.setdefault(name.strip().lower(), []).append(value.strip())
        length = received.get("content-length")
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            data = b""
        elif "chunked" in ",".join(received.get("transfer-encoding", [])):
            chunks = []
            while size := int((await reader.readline()).split(b";")[0], 16):
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
            while (await reader.readline()) not in (b"\r\n", b""):
                pass  # trailers
            data = b"".join(chunks)
        elif length:
            data = await reader.readexactly(int(length[-1]))
        else:
            data = await reader.read()  # until the server closes
        if "close" in ",".join(received.get("connection", [])).lower():
            self.close()
        self.last_used = time.monotonic()
        return Response(status, received, data)


@dataclass
class Stats:
    """Every request of one phase: latency by kind, statuses, errors."""

    latencies: dict[str, list[float]] = field(default_factory=dict)  # ms
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    failed: int = 0  # requests without a response
    entered: int = 0
    confirmed: int = 0

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.latencies.values()) + self.failed

    def of(self, *kinds: str) -> list[float]:
        return [ms for kind in kinds for ms in self.latencies.get(kind, [])]

    def error(self, message: str) -> None:
        self.errors.append(message)
        if len(self.errors) <= 10:
            print(f"ERROR: {message}", file=sys.stderr)


def kind_of(method: str, path: str) -> str:
    """The kind of request, for the breakdown by kind."""
    if path.startswith("/api/"):
        return "api"
    if path.startswith(f"/t/{SLUG}/live/"):
        return "fragment"
    if path.startswith("/konto/"):
        return "login"
    if path == OVERVIEW:
        return "overview"
    if "/eingabe/" in path:
        if method == "GET":
            return "table"
        return "confirm" if path.endswith("/bestaetigen/") else "enter"
    return "page"


VIEWER_KINDS = ("page", "fragment", "api")
REFEREE_KINDS = ("login", "table", "enter", "confirm", "overview")


class Browser:
    """One person's browser: a connection, cookies, cached ETags and live
    regions of the pages seen. `request` checks the answer: anything but an
    expected status (and redirect target) is recorded as an error and gives
    None."""

    def __init__(self, port: int, stats: Stats, *, reconnect: bool = False) -> None:
        self.port = port
        self.stats = stats
        # A new connection for every request, as a phone polling every 15 s
        # makes (its keep-alive ends after 5 s).
        self.reconnect = reconnect
        self.connection = Connection(port)
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}
        self.regions: dict[str, list[str]] = {}

    async def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | list[tuple[str, str]] | None = None,
        conditional: bool = False,
        expect: int = 200,
        location: str | None = None,
    ) -> Response | None:
        headers = {
            "User-Agent": "bench-load",
            "Accept": "text/html,*/*",
            "Accept-Encoding": "gzip",  # as every phone's browser
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        sent_tag = self.etags.get(path) if conditional else None
        if sent_tag:
            headers["If-None-Match"] = sent_tag
        body = b""
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://{HOST}:{self.port}"
        if self.reconnect:
            self.connection.close()
        started = time.perf_counter()
        try:
            response = await asyncio.wait_for(
                self.connection.send(method, path, headers, body), TIMEOUT
            )
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as e:
            self.connection.close()
            self.stats.failed += 1
            self.stats.error(f"{method} {path}: {type(e).__name__} {e}")
            return None
        elapsed = (time.perf_counter() - started) * 1000
        if response.header("content-encoding") == "gzip":
            response.body = gzip.decompress(response.body)
        self.stats.latencies.setdefault(kind_of(method, path), []).append(elapsed)
        self.stats.statuses[response.status] += 1
        for header in response.headers.get("set-cookie", []):
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if not value or "max-age=0" in rest.lower():
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        if response.status == 304 and sent_tag:
            return response
        if response.status != expect:
            self.stats.error(f"{method} {path}: status {response.status}")
            if response.status >= 500:
                print(response.text[:2000], file=sys.stderr)
            return None
        if location is not None and response.header("location") != location:
            self.stats.error(
                f"{method} {path}: redirected to {response.header('location')}"
            )
            return None
        if tag := response.header("etag"):
            self.etags[path] = tag
        return response


# --- Viewers -------------------------------------------------------------------

REGION = re.compile(r'data-live-url="([^"]+)" data-live-etag="([^"]+)"')
NAVIGATE = 0.25  # the share of a viewer's turns spent opening a page


def viewer_pages(rng: random.Random) -> list[tuple[int, str]]:
    """What the phones open, by weight: pages with live regions and the API."""
    s, n = SERIES, rng.randint(1, PLAYERS)
    return [
        (30, f"/t/{SLUG}/tabelle/"),
        (5, f"/t/{SLUG}/tabelle/damen/"),
        (20, f"/t/{SLUG}/serie/{s}/ergebnisse/"),
        (5, f"/t/{SLUG}/serie/{s}/"),
        (3, f"/t/{SLUG}/projektor/"),
        (7, f"/t/{SLUG}/wo-sitze-ich/?q=Name{n:03d}"),
        # Phones use the pages; the API's clients are a few scoreboards.
        (6, f"/api/t/{SLUG}/standings/"),
        (3, f"/api/t/{SLUG}/series/{s}/"),
        (3, f"/api/t/{SLUG}/players/{n}/"),
    ]


async def open_page(browser: Browser, path: str) -> None:
    """Open (or reload) a page; note its live regions and their ETags."""
    response = await browser.request("GET", path, conditional=True)
    if response is None or response.status == 304:
        return  # an error (recorded), or the page as the browser has it
    if path.startswith("/api/"):
        try:
            json.loads(response.body)
        except ValueError:
            browser.stats.error(f"GET {path}: not JSON")
        browser.regions[path] = [path]  # polled by asking again
        return
    found = REGION.findall(response.text)
    if not found:
        browser.stats.error(f"GET {path}: no live region")
    browser.regions[path] = []
    for url, tag in found:
        url = html.unescape(url)
        browser.etags[url] = f'"{tag}"'
        browser.regions[path].append(url)


async def viewer(
    browser: Browser, deadline: float, rng: random.Random, pause: Callable[[], float]
) -> None:
    """A phone: opens a page, polls its live regions, now and then opens
    another page (or the same again)."""
    pages = viewer_pages(rng)
    paths, weights = [p for _, p in pages], [w for w, _ in pages]
    await asyncio.sleep(pause() * rng.random())  # phones do not start in step
    path = rng.choices(paths, weights)[0]
    await open_page(browser, path)
    while True:
        await asyncio.sleep(pause())
        if time.perf_counter() >= deadline:
            break
        if rng.random() < NAVIGATE:
            path = rng.choices(paths, weights)[0]
            await open_page(browser, path)
            continue
        for url in browser.regions.get(path, []):
            if await browser.request("GET", url, conditional=True) is None:
                break


# --- Referees --------------------------------------------------------------------

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
REVISION = re.compile(
    r'<input type="hidden" name="revision" value="(\d+)" id="id_revision"'
)
CHOICE = re.compile(r'name="g(\d+)_(winner|marks)" value="(\d+)"')
CONFIRM = re.compile(
    r'action="([^"]+/bestaetigen/)"[^>]*>\s*<input type="hidden" '
    r'name="csrfmiddlewaretoken" value="([^"]+)">'
    r'<input type="hidden" name="version" value="(\d+)">'
    r'<input type="hidden" name="revision" value="(\d+)">'
)
OVERVIEW = f"/t/{SLUG}/eingabe/"


@dataclass
class Work:
    """The referees' shared to-do list: tables to enter (first pass) or
    correct (later passes), and entries waiting for a second referee. A
    table is with one referee at a time."""

    free: deque[int]
    waiting: deque[tuple[int, int]] = field(default_factory=deque)
    confirmed_once: set[int] = field(default_factory=set)

    def next_for(self, referee: int) -> tuple[str, int] | None:
        for item in self.waiting:
            if item[1] != referee:
                self.waiting.remove(item)
                return "confirm", item[0]
        if self.free:
            return "enter", self.free.popleft()
        return None


def table_path(table: int) -> str:
    return f"/t/{SLUG}/eingabe/serie/{SERIES}/tisch/{table}/"


async def login(browser: Browser, username: str) -> bool:
    page = await browser.request("GET", "/konto/anmelden/")
    token = CSRF.search(page.text) if page else None
    if page is None or token is None:
        return False
    form = {
        "csrfmiddlewaretoken": token.group(1),
        "username": username,
        "password": PASSWORD,
        "next": "",
    }
    done = await browser.request(
        "POST", "/konto/anmelden/", form=form, expect=302, location="/"
    )
    return done is not None and "sessionid" in browser.cookies


async def enter(
    browser: Browser,
    table: int,
    rng: random.Random,
    again: bool,
    pause: Callable[[], float],
) -> bool:
    """Open the table's form, type the sheet in, save a quick entry of all
    its games."""
    page = await browser.request("GET", table_path(table))
    if page is None:
        return False
    token, revision = CSRF.search(page.text), REVISION.search(page.text)
    choices: dict[tuple[int, str], list[str]] = {}
    for game, kind, value in CHOICE.findall(page.text):
        choices.setdefault((int(game), kind), []).append(value)
    games = sorted({game for game, _ in choices})
    if token is None or revision is None or not games:
        browser.stats.error(f"GET {table_path(table)}: no entry form")
        return False
    form = [
        ("csrfmiddlewaretoken", token.group(1)),
        ("revision", revision.group(1)),
        ("mode", "quick"),
    ]
    for game in games:
        form += [
            (f"g{game}_winner", rng.choice(choices[game, "winner"])),
            (f"g{game}_marks", rng.choice(choices[game, "marks"])),
            (f"g{game}_hands", ""),
        ]
    if again:
        form.append(("reason", "Nachkontrolle der Spielliste (Lasttest)"))
    await asyncio.sleep(pause())
    saved = await browser.request(
        "POST", table_path(table), form=form, expect=302, location=OVERVIEW
    )
    if saved is None:
        return False
    browser.stats.entered += 1
    await browser.request("GET", OVERVIEW)  # the redirect, as a browser follows it
    return True


async def confirm(browser: Browser, table: int, pause: Callable[[], float]) -> bool:
    """Open the table page, compare with the sheet, confirm the entry."""
    page = await browser.request("GET", table_path(table))
    if page is None:
        return False
    found = CONFIRM.search(page.text)
    if found is None:
        browser.stats.error(f"GET {table_path(table)}: no confirm form")
        return False
    action, token, version, revision = found.groups()
    form = {"csrfmiddlewaretoken": token, "version": version, "revision": revision}
    await asyncio.sleep(pause())
    done = await browser.request(
        "POST", html.unescape(action), form=form, expect=302, location=OVERVIEW
    )
    if done is None:
        return False
    browser.stats.confirmed += 1
    await browser.request("GET", OVERVIEW)
    return True


async def referee(
    browser: Browser,
    index: int,
    work: Work,
    deadline: float,
    rng: random.Random,
    pause: Callable[[], float],
) -> None:
    await asyncio.sleep(rng.random())
    if not await login(browser, f"bench-load-{index:02d}"):
        browser.stats.error(f"bench-load-{index:02d} could not sign in")
        return
    while time.perf_counter() < deadline:
        job = work.next_for(index)
        if job is not None:
            kind, table = job
            if kind == "confirm":
                if await confirm(browser, table, pause):
                    work.confirmed_once.add(table)
                    work.free.append(table)  # later: a correction
            elif await enter(browser, table, rng, table in work.confirmed_once, pause):
                work.waiting.append((table, index))
            # A table whose request failed is left alone: its state is unknown.
        await asyncio.sleep(pause())


# --- Phases ----------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def baseline(
    port: int, seconds: float, viewers: int = 1, *, reconnect: bool = False
) -> Stats:
    """The viewer mix with `viewers` viewers asking back to back (each
    request on a new connection with `reconnect`)."""
    stats = Stats()
    browsers = [Browser(port, stats, reconnect=reconnect) for _ in range(viewers)]
    deadline = time.perf_counter() + seconds
    await asyncio.gather(
        *(
            viewer(b, deadline, random.Random(9 + i), lambda: 0.0)
            for i, b in enumerate(browsers)
        )
    )
    for browser in browsers:
        browser.connection.close()
    return stats


async def load(port: int, args: argparse.Namespace) -> Stats:
    stats = Stats()
    rng = random.Random(7)
    deadline = time.perf_counter() + args.seconds
    order = list(range(PENDING + 1, PLAYERS // 4 + 1))
    rng.shuffle(order)
    # Tables 1…PENDING were entered before (by bench/live.py's referee).
    work = Work(free=deque(order))
    work.waiting.extend((table, 0) for table in range(1, PENDING + 1))

    def viewer_pause() -> float:
        # static/js/live.js without its socket: every 15 s, ±25 % jitter.
        return rng.uniform(0.75, 1.25) * args.poll

    def referee_pause() -> float:
        return rng.uniform(0.5, 1.5) * args.referee_pause

    browsers = [Browser(port, stats) for _ in range(args.viewers)]
    referees = [Browser(port, stats) for _ in range(args.referees)]
    tasks = [
        viewer(b, deadline, random.Random(i), viewer_pause)
        for i, b in enumerate(browsers)
    ] + [
        referee(b, i + 1, work, deadline, random.Random(1000 + i), referee_pause)
        for i, b in enumerate(referees)
    ]
    await asyncio.gather(*tasks)
    for b in browsers + referees:
        b.connection.close()
    return stats


# --- Data, databases, clean-up ------------------------------------------------


def referees_create(count: int) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    group = Group.objects.get(name="referee")
    users = get_user_model()
    for i in range(1, count + 1):
        user = users.objects.create_user(f"bench-load-{i:02d}", password=PASSWORD)
        user.groups.add(group)


def saved_counts() -> tuple[int, int]:
    """Series 4's entries and confirmations as the database has them."""
    from tournament.models import ResultVersion

    versions = ResultVersion.objects.filter(
        table__series__tournament__slug=SLUG, table__series__number=SERIES
    )
    return versions.count(), versions.exclude(decided_by=None).count()


def pg_database(url: str, name: str, *, create: bool) -> str:
    """Create (or drop) database `name` on the server of `url`; returns its URL."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    with psycopg.connect(
        dbname=config["NAME"],
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    ) as connection:
        if create:
            connection.execute(f'CREATE DATABASE "{name}"')
        else:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return urllib.parse.urlsplit(url)._replace(path=f"/{name}").geturl()


def redis_forget(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@contextlib.contextmanager
def isolated_run(run: str, redis_url: str) -> Iterator[None]:
    """Django set up for this run alone (bench._django.setup: a fresh
    VAR_DIR, with its SQLite file unless DATABASE_URL), migrated, and undone
    at the end: with DATABASE_URL a database named `run` on that server,
    dropped; with `redis_url`, the keys under the prefix `run` deleted."""
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url:
        os.environ["DATABASE_URL"] = pg_database(database_url, run, create=True)
    var_dir = ""
    try:
        from bench._django import setup

        setup()
        var_dir = os.environ["VAR_DIR"]
        yield
    finally:
        if var_dir:
            shutil.rmtree(var_dir, ignore_errors=True)
        if database_url:
            pg_database(database_url, run, create=False)
        if redis_url:
            redis_forget(redis_url, run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="load phase")
    parser.add_argument(
        "--viewers",
        type=int,
        nargs="+",
        default=[300],
        help="phones; several values: one run each (e.g. --viewers 300 1000)",
    )
    parser.add_argument(
        "--referees",
        type=int,
        nargs="+",
        default=[20],
        help="referees, per run (one value: the same for every run)",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers")
    parser.add_argument(
        "--poll",
        type=float,
        default=15.0,
        help="viewers' mean seconds between requests (live.js polls every 15)",
    )
    parser.add_argument(
        "--referee-pause",
        type=float,
        default=10.0,
        help="referees' mean seconds to type or check a sheet, and between tables",
    )
    parser.add_argument("--baseline-seconds", type=float, default=3.0)
    parser.add_argument(
        "--url",
        help="measure the deployment at this address (http://host:port) "
        "instead of a server of the bench's own",
    )
    args = parser.parse_args()
    if len(args.referees) == 1:
        args.referees *= len(args.viewers)
    if len(args.referees) != len(args.viewers):
        raise SystemExit("give one --referees value, or one per --viewers value")
    if 1 in args.referees:
        raise SystemExit("double entry needs two referees (or none)")
    if len(args.viewers) > 1:
        runs(args)
        return
    args.viewers = max(1, args.viewers[0])
    args.referees = max(0, args.referees[0])

    if args.url:
        measure_deployment(args)
        return
    redis_url = os.environ.pop("REDIS_URL", "")  # the server's, not ours
    if args.workers > 1 and not redis_url:
        raise SystemExit(
            "several workers share cache and live updates only through Redis: "
            "set REDIS_URL (see docs/OPERATING.md, Production)"
        )
    args.redis = bool(redis_url)
    run = f"bench_load_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
    sys.path.insert(0, str(ROOT))
    with isolated_run(run, redis_url):
        from bench.live import build, free_port, stop_server

        started = time.perf_counter()
        build(PLAYERS, PENDING)
        referees_create(args.referees)
        from django.db import connections

        before = saved_counts()
        connections.close_all()
        print(
            f"built {PLAYERS} players, 3 series played, series {SERIES} released "
            f"with {PENDING} tables entered, {args.referees} referees, in "
            f"{time.perf_counter() - started:.1f} s"
        )
        env = os.environ.copy()
        env["SECURE_COOKIES"] = "0"  # plain HTTP, as in the hall (make serve)
        if redis_url:
            env |= {"REDIS_URL": redis_url, "BENCH_LOAD_PREFIX": run}
        port = free_port()
        process = start_server(port, args.workers, env)
        try:
            result = asyncio.run(measure(port, process, args))
        finally:
            stop_server(process)
        after = saved_counts()
        connections.close_all()
    report(result, before, after)


def report(
    result: dict[str, Any], before: tuple[int, int], after: tuple[int, int]
) -> None:
    """The run's figures as the last line, once the database is checked
    against what the referees were told; exit 1 on any error."""
    stats: Stats = result.pop("stats")
    entered, decided = after[0] - before[0], after[1] - before[1]
    if (entered, decided) != (stats.entered, stats.confirmed):
        stats.error(
            f"the database holds {entered} new entries and {decided} "
            f"confirmations, the referees were told {stats.entered} and "
            f"{stats.confirmed}"
        )
    result["errors"] = len(stats.errors)
    print(json.dumps(result))
    if stats.errors:
        sys.exit(1)


def measure_deployment(args: argparse.Namespace) -> None:
    """--url: the bench's tournament in the deployment's database, the load
    against the deployment, the tournament gone again (module docstring)."""
    global HOST
    url = urllib.parse.urlsplit(args.url)
    if url.scheme != "http" or not url.hostname:
        raise SystemExit("--url takes http://host:port (a TLS proxy: its plain port)")
    if not os.environ.get("DATABASE_URL"):
        raise SystemExit(
            "--url needs the deployment's DATABASE_URL: the bench writes its "
            "tournament there and checks every saved entry"
        )
    HOST, port = url.hostname, url.port or 80
    os.environ.pop("REDIS_URL", None)  # the deployment's; the bench needs none
    args.redis = None  # the deployment's own business
    sys.path.insert(0, str(ROOT))
    from bench._django import setup

    setup(settings_module="config.settings")
    from django.db import connections

    from bench.live import build

    bench_data_forget()
    try:
        build(PLAYERS, PENDING)
        referees_create(args.referees)
        before = saved_counts()
        connections.close_all()
        result = asyncio.run(measure(port, None, args))
        after = saved_counts()
    finally:
        bench_data_forget()
        connections.close_all()
    result |= {"url": args.url, "workers": None}  # the deployment's own
    report(result, before, after)


def bench_data_forget() -> None:
    """The bench's tournament and referees, out of a deployment's database."""
    from django.contrib.auth import get_user_model

    from tournament.models import (
        EntryTotal,
        GameScore,
        ResultVersion,
        Seat,
        Tournament,
    )

    for tournament in Tournament.objects.filter(slug=SLUG):
        # Children first: seats and scores protect the entries they name.
        GameScore.objects.filter(series__tournament=tournament).delete()
        EntryTotal.objects.filter(entry__tournament=tournament).delete()
        ResultVersion.objects.filter(table__series__tournament=tournament).delete()
        Seat.objects.filter(series__tournament=tournament).delete()
        tournament.delete()
    get_user_model().objects.filter(username__startswith="bench-").delete()


def runs(args: argparse.Namespace) -> None:
    """One run per --viewers value, each in a process of its own (its own
    database and server), one after the other; then the figures of every
    run, and as the last line one JSON object: {"runs": [each run's last
    line], "errors": all errors}."""
    options = [
        f"--seconds={args.seconds}",
        f"--workers={args.workers}",
        f"--poll={args.poll}",
        f"--referee-pause={args.referee_pause}",
        f"--baseline-seconds={args.baseline_seconds}",
        *([f"--url={args.url}"] if args.url else []),
    ]
    results = []
    for viewers, referees in zip(args.viewers, args.referees, strict=True):
        command = [sys.executable, __file__, *options]
        command += [f"--viewers={viewers}", f"--referees={referees}"]
        print(f"== {viewers} viewers, {referees} referees", flush=True)
        run = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        print(run.stdout, end="", flush=True)
        lines = run.stdout.strip().splitlines()
        try:
            results.append(json.loads(lines[-1]))
        except (IndexError, ValueError):
            message = f"the run with {viewers} viewers ended without figures"
            raise SystemExit(message) from None
    print("== every run")
    for r in results:
        print(
            f"{r['viewers']} viewers, {r['referees']} referees: {r['errors']} errors, "
            f"p50 {r['p50_ms']} ms (ratio {r['ratio']} to {r['baseline_p50_ms']} "
            f"ms alone; {r['ratio_phone']} to {r['baseline_phone_p50_ms']} ms with "
            f"a new connection each), p95 {r['p95_ms']} ms, referees' worst p95 "
            f"{r['referees_worst_p95_ms']} ms, server CPU "
            f"{r['server_cpu_ms']} ms per request ({r['baseline_server_cpu_ms']} "
            "ms alone)"
        )
    errors = sum(r["errors"] for r in results)
    print(json.dumps({"runs": results, "errors": errors}))
    if errors:
        sys.exit(1)


async def measure(
    port: int, process: subprocess.Popen[bytes] | None, args: argparse.Namespace
) -> dict[str, Any]:
    await wait_until_up(port, process)
    pid = process.pid if process else None
    # Warm every worker (imports, templates, caches): connections land on
    # whichever worker accepts first, so several at once.
    warm = await baseline(port, 3.0, viewers=4 * args.workers)
    cpu = server_cpu(pid)
    base = await baseline(port, args.baseline_seconds)
    base_cpu = (server_cpu(pid) - cpu) * 1000 / max(1, base.requests)
    base_ms = base.of(*VIEWER_KINDS)
    print(
        f"baseline, 1 viewer back to back: {len(base_ms)} requests, "
        f"p50 {percentile(base_ms, 0.5):.1f} ms, p95 {percentile(base_ms, 0.95):.1f} "
        f"ms, server CPU {base_cpu:.1f} ms per request"
    )
    # The same viewer as a phone asks: a new connection each time (under load
    # every phone's request opens one; back to back, the baseline never does).
    phone = await baseline(port, args.baseline_seconds, reconnect=True)
    phone_ms = phone.of(*VIEWER_KINDS)
    print(
        f"baseline, 1 viewer with a new connection per request: {len(phone_ms)} "
        f"requests, p50 {percentile(phone_ms, 0.5):.1f} ms, "
        f"p95 {percentile(phone_ms, 0.95):.1f} ms"
    )
    cpu = server_cpu(pid)
    started = time.perf_counter()
    stats = await load(port, args)
    took = time.perf_counter() - started
    load_cpu = (server_cpu(pid) - cpu) * 1000 / max(1, stats.requests)
    stats.errors += warm.errors + base.errors + phone.errors
    every_ms = stats.of(*VIEWER_KINDS, *REFEREE_KINDS)
    share_304 = stats.statuses[304] / max(1, sum(stats.statuses.values()))
    print(
        f"{args.viewers} viewers, {args.referees} referees, {args.workers} "
        f"worker(s), {took:.1f} s: {stats.requests} requests "
        f"({stats.requests / took:.0f}/s, {share_304:.0%} answered 304), "
        f"{stats.entered} entries, {stats.confirmed} confirmations; "
        f"server CPU {load_cpu:.1f} ms per request"
    )
    for kind in (*VIEWER_KINDS, *REFEREE_KINDS):
        if ms := stats.of(kind):
            print(
                f"  {kind:9s} {len(ms):6d} requests, p50 {percentile(ms, 0.5):7.1f} "
                f"ms, p95 {percentile(ms, 0.95):7.1f} ms"
            )
    p50 = percentile(every_ms, 0.5)
    base_p50 = percentile(base_ms, 0.5)
    phone_p50 = percentile(phone_ms, 0.5)
    return {
        "viewers": args.viewers,
        "referees": args.referees,
        "workers": args.workers,
        "database": (
            "postgresql"
            if os.environ.get("DATABASE_URL", "").startswith("postgres")
            else "sqlite"
        ),
        "redis": args.redis,
        "seconds": round(took, 1),
        "requests": stats.requests,
        "errors": len(stats.errors),
        "p50_ms": round(p50, 1),
        "p95_ms": round(percentile(every_ms, 0.95), 1),
        "baseline_p50_ms": round(base_p50, 1),
        "ratio": round(p50 / base_p50, 2) if base_p50 else None,
        "baseline_phone_p50_ms": round(phone_p50, 1),
        "ratio_phone": round(p50 / phone_p50, 2) if phone_p50 else None,
        # The referees' slowest kind of request (signing in, a table, an
        # entry, a confirmation, the overview), at its p95.
        "referees_worst_p95_ms": round(
            max(
                (percentile(stats.of(k), 0.95) for k in REFEREE_KINDS if stats.of(k)),
                default=0.0,
            ),
            1,
        ),
        "server_cpu_ms": round(load_cpu, 1),
        "baseline_server_cpu_ms": round(base_cpu, 1),
        "entries": stats.entered,
        "confirmations": stats.confirmed,
        "stats": stats,
    }


if __name__ == "__main__":
    main()
