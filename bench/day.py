"""The whole day replayed: a championship from a seeded script, end to end
over HTTP and websockets against the site as the hall runs it, then every
figure compared with the script's own truth.

The site: `manage.py prepare` and `manage.py serve` as `make run` starts
them (uvicorn with the hall's front door, DEBUG off, collectstatic's
manifest, config.settings), on SQLite in a VAR_DIR of the run's own. With
`--server`, the server configuration of docs/OPERATING.md: PostgreSQL (a
database of the run's own on DATABASE_URL's server, else
127.0.0.1:5432), Redis (REDIS_URL, else 127.0.0.1:6379/14, under a key
prefix of the run) and two uvicorn workers behind nginx with
deploy/nginx-site.conf (needs nginx on the PATH).

The script (`--seed`, `--players`, `--speed`): the players are registered,
three quarters from a club list (.xlsx) through the import page, the rest
at the desk's form; most are checked in by the desk's phones (the referees
sign in meanwhile, as they arrive over the first half hour), two arrive
late (after series 1 and after series 3), a few never come. Each series is
drawn (series 5 "Nach Tabelle"), printed (score sheets and seating list as
PDF, made in the background as the print page advises for large documents;
`print_ready_max_s` is the organizer's longest wait from the click to the
file), released, and played: a table's five games take the series' hour
divided by `--speed` (10: six minutes). Its result is entered, by share of
the tables: 40 % at the table from the players' phones (one enters,
another confirms, as static/js/outbox.js does: Idempotency-Key, retried
until answered), 10 % from a photo of the sheet struck by hand
(bench/sheetphoto.py, the player checks the reading against his sheet,
another confirms), 5 % entered wrong at the table, disputed by another
player and settled by a referee, the rest by the referees' form and
confirmed by a second referee. Two referee tables are confirmed with a
typo and corrected (with a reason) after the next series is released. One
player withdraws in mid-series from a table of three; before series 4 two
players swap seats.

Meanwhile 2.5 phones per player, opened as the hall fills over its first
half hour, follow the standings, "Wo sitze ich?" or their "Mein Turnier" on
the pages' websockets and reload now and then; 3
projectors; a tenth of the phones sit on a lossy link (the proxy of
bench/selfentry.py: 5 % of requests cut, 20 % of answers dropped, outages
of 2-20 s) and poll the pages' live regions instead, and a tenth of the
entries at the table go through it too. In the middle of series 3 the
server is killed (SIGKILL, the laptop closed) and started again as
`make run` does: the phones reconnect, the outboxes empty.

At the end the database and the site are compared with the script:
`confirmed_once` tables confirmed exactly once with the scripted games (the
correction's games for a corrected table), `lost` entries the clients were
told were saved (or never got an answer for) that the database lacks,
`duplicated` writes beyond one per submission, `standings_equal` the site's
standings (JSON, each category's, the PDF's order) against standings
computed from the script's sheets, `phones_final` the phones on the final
standings. Latency: p50/p95/p99 of every request, p95 per kind
(`p95_by_kind_ms`), the referees' p95, `push_p95_ms` (and `push_p50_ms`)
from a confirmation sent to the new standings on a socket; `restart_s` from
the kill to the server answering /readyz again; the server's CPU seconds
and its peak memory (sum of the process tree's RSS, sampled every second).

The push is timed on PROBES sockets in a process of their own (`probe`),
not on the phones: a thousand phones, the referees and the proxy share
this process's one event loop on the same two cores as the server, and a
push reaching a phone waits for that loop too. `bench_loop_lag_p95_ms`
and `..._max_ms` say how late that loop woke a sleeper, and
`push_p95_on_phones_ms` is the push as the phones saw it, loop included:
the difference is the bench's, not the site's. The request latencies are
timed in that loop as well; read them with its lag.

`--csv` writes p50/p95/p99 per minute of the day (`--bucket` seconds per
row), the probe's push p95, p95 per kind and each series' release and the
restart; `--chart FILE.png` draws it (bench/day_chart.py, matplotlib from
requirements-dev.txt).

    python bench/day.py [--players 400] [--speed 10] [--seed 40] [--server]
                        [--csv day.csv] [--chart day.png] [--port 8741]
    python bench/day.py --players 40 --speed 60   # CI's short day

The last line is one JSON object; the exit status is 1 unless the
correctness figures hold (errors 0, lost 0, duplicated 0, every table
confirmed once, standings equal, every phone on the final standings).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import csv
import gzip
import html
import io
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import Connection, Response  # noqa: E402
from bench.load import server_cpu as tree_cpu  # noqa: E402

SLUG = "tag"
HOST = "127.0.0.1"
PASSWORD = "day-bench-password"
SERIES = 5
GAMES = 5
HOUR = 3600.0  # a series' five games, in the hall's seconds
# The hall comes in over its first half hour (hall seconds): the referees,
# and the phones with their people, not a thousand in one second.
ARRIVING = 1800.0
TIMEOUT = 30.0
PRINT = 180.0  # a PDF made for the organizer: how long he waits at most
SURNAMES = (
    "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner",
    "Becker", "Schulz", "Hoffmann", "Koch", "Richter", "Klein", "Wolf",
    "Schröder", "Neumann", "Braun", "Zimmermann", "Krüger", "Hartmann",
    "Lange", "Werner", "Krause", "Lehmann", "Köhler", "Herrmann", "Walter",
    "Jansen", "Engel", "Peters", "Otto", "Dietrich", "Albers", "Ulrich",
    "Vogel", "Graf", "Ingenhoven", "Esser", "Nolte", "Yilmaz",
)  # fmt: skip
CATEGORIES = ("", "", "", "Damen", "Senioren", "Jugend")
CATEGORY_PAGES = {"Damen": "damen", "Senioren": "senioren", "Jugend": "jugend"}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


# --- The script: who plays, what every table's sheet says ---------------------


@dataclass
class Person:
    first: str
    last: str
    club: str
    category: str
    imported: bool
    arrives: int  # 0: at the start; n: after series n; -1: never
    number: int = 0  # start number, once registered
    token: str = ""  # the personal link, from his player card


@dataclass
class TableTruth:
    series: int
    number: int
    seats: list[int]  # start numbers by seat
    games: list[tuple[int, int]]  # per game: winner seat, marks kept
    way: str  # referee, phone, photo, dispute, withdrawal
    typo: bool = False  # confirmed with a typo, corrected later
    lossy: bool = False  # its phones on the lossy link
    withdrawn_seat: int = 0
    withdrawn_after: int = 0


@dataclass
class Script:
    rng: random.Random
    people: list[Person]
    tables: dict[tuple[int, int], TableTruth] = field(default_factory=dict)

    def by_number(self, number: int) -> Person:
        return next(p for p in self.people if p.number == number)


def script_people(players: int, rng: random.Random) -> list[Person]:
    """`players` people: 3/4 on the club list, the rest at the desk; two late
    arrivals, about 3 % who never come."""
    people = []
    for i in range(players):
        people.append(
            Person(
                first=f"Vorname{i:03d}",
                last=f"{SURNAMES[i % len(SURNAMES)]}{i:03d}",
                club=f"SC Schräm {i % 23:02d}",
                category=CATEGORIES[rng.randrange(len(CATEGORIES))],
                imported=i < players * 3 // 4,
                arrives=0,
            )
        )
    order = list(range(players))
    rng.shuffle(order)
    people[order[0]].arrives = 1
    people[order[1]].arrives = 3
    for i in order[2 : 2 + max(0, round(players * 0.045) - 2)]:
        people[i].arrives = -1
    return people


def play_table(
    rng: random.Random, size: int, withdrawn_seat: int = 0, after: int = 0
) -> list[tuple[int, int]]:
    games = []
    for game in range(1, GAMES + 1):
        seats = [
            s
            for s in range(1, size + 1)
            if not (withdrawn_seat and s == withdrawn_seat and game > after)
        ]
        games.append((rng.choice(seats), rng.randint(1, 7)))
    return games


def truth_standings(script: Script, win_bonus: int) -> dict[int, dict[str, Any]]:
    """Points, games won and points per series of every player with a
    result, from the script's sheets alone."""
    rows: dict[int, dict[str, Any]] = {}
    for truth in script.tables.values():
        for seat, number in enumerate(truth.seats, 1):
            row = rows.setdefault(
                number, {"points": 0, "games_won": 0, "series": [None] * SERIES}
            )
            got = 0
            for winner, marks in truth.games:
                if winner == seat:
                    got += marks + win_bonus
                    row["games_won"] += 1
            row["points"] += got
            row["series"][truth.series - 1] = got
    return rows


# --- HTML forms ------------------------------------------------------------------


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]]
    options: dict[str, list[str]]  # radios and selects: every value offered

    def data(self, **changes: str) -> list[tuple[str, str]]:
        kept = [(k, v) for k, v in self.fields if k not in changes]
        return kept + list(changes.items())


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.select_value: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.current = Form(a.get("action", ""), a.get("method", "get"), [], {})
            self.forms.append(self.current)
            return
        form = self.current
        if form is None:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("radio", "checkbox"):
                form.options.setdefault(name, []).append(a.get("value", "on"))
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
                return
            form.fields.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self.select, self.select_value = name, None
        elif tag == "option" and self.select:
            value = a.get("value", "")
            form.options.setdefault(self.select, []).append(value)
            if self.select_value is None or "selected" in a:
                self.select_value = value
        elif tag == "textarea" and name:
            self.textarea = name
            form.fields.append((name, ""))

    def handle_data(self, data: str) -> None:
        if self.textarea and self.current:
            name, value = self.current.fields[-1]
            self.current.fields[-1] = (name, value + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select and self.current:
            self.current.fields.append((self.select, self.select_value or ""))
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form":
            self.current = None


def forms_of(page: str) -> list[Form]:
    parser = _Forms()
    parser.feed(page)
    return parser.forms


def form_to(
    page: str, action_end: str, page_path: str = "", **having: str
) -> Form | None:
    """The page's form posting to an address ending in `action_end` (a form
    without an action posts to `page_path`), with the fields `having`."""
    for form in forms_of(page):
        action = html.unescape(form.action) or page_path
        if not urllib.parse.urlsplit(action).path.endswith(action_end):
            continue
        if all((k, v) in form.fields for k, v in having.items()):
            if not form.action:
                form.action = page_path
            return form
    return None


REGION = re.compile(
    r'data-live-key="([^"]*)" data-live-url="([^"]+)" data-live-etag="([^"]*)"'
)
ERROR_SUMMARY = re.compile(r'<p class="message message-[^"]*"[^>]*data-error-summary>')


# --- Measuring ----------------------------------------------------------------------


@dataclass
class Stats:
    started: float = field(default_factory=time.perf_counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    timeline: list[tuple[float, str, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)  # ms, on the phones
    # PROBES' sockets: (perf_counter, ms), from `probe_pushes`
    probe_pushes: list[tuple[float, float]] = field(default_factory=list)
    loop_lags: list[float] = field(default_factory=list)  # ms, loop_lag
    # (seconds into the day, what began): each series' release, the restart
    events: list[tuple[float, str]] = field(default_factory=list)
    confirmations: list[float] = field(default_factory=list)  # perf_counter
    failed_in_restart: int = 0
    reconnects: int = 0
    cuts: Counter[str] = field(default_factory=Counter)
    # Per table, entries the clients were told were saved; and submissions
    # never answered.
    told: Counter[tuple[int, int]] = field(default_factory=Counter)
    unanswered: list[str] = field(default_factory=list)
    # Seconds from the organizer's click to a series' document in hand.
    print_waits: list[float] = field(default_factory=list)
    error_kinds: set[str] = field(default_factory=set)

    def event(self, what: str) -> None:
        self.events.append((time.perf_counter() - self.started, what))

    def record(self, kind: str, ms: float) -> None:
        self.latencies.setdefault(kind, []).append(ms)
        self.timeline.append((time.perf_counter() - self.started, kind, ms))

    def error(self, message: str) -> None:
        self.errors.append(message)
        # The first twenty, and after them the first of each kind (numbers
        # and personal links left out): a rare failure (a series' draw)
        # must not hide behind a flood of timeouts.
        kind = re.sub(r"/mein/[^/]+|[0-9]+", "#", message)
        if len(self.errors) <= 20 or kind not in self.error_kinds:
            log(f"ERROR: {message}")
        self.error_kinds.add(kind)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


REFEREE_KINDS = ("login", "referee", "referee_post")


def kind_of(method: str, path: str) -> str:
    if path.startswith("/konto/"):
        return "login"
    if "/verwaltung/druck" in path:
        return "print"
    if "/verwaltung/" in path:
        return "organizer" if method == "GET" else "organizer_post"
    if "/foto/" in path:
        return "photo"
    if "/eingabe/" in path:
        return "referee" if method == "GET" else "referee_post"
    if "/mein/" in path:
        return "mine" if method == "GET" else "phone_post"
    if path.startswith("/api/"):
        return "api"
    if "/live/" in path:
        return "fragment"
    if path.startswith("/static/"):
        return "static"
    return "page"


class Server:
    """The site's server process(es) and what the clients need to know of
    it: whether it is being restarted (requests wait), its port."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.up = asyncio.Event()
        self.up.set()
        self.inflight = 0


class Browser:
    """One person's browser: keep-alive connection, cookies, CSRF token; a
    request while the server restarts waits for it (a browser shows its
    error page and the person tries again)."""

    def __init__(self, server: Server, stats: Stats, name: str = "") -> None:
        self.server = server
        self.stats = stats
        self.name = name
        self.connection = Connection(server.port)
        self.cookies: dict[str, str] = {}

    def close(self) -> None:
        self.connection.close()

    async def request(
        self,
        method: str,
        path: str,
        *,
        form: list[tuple[str, str]] | None = None,
        body: bytes = b"",
        content_type: str = "",
        headers: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
        timeout: float = TIMEOUT,
    ) -> Response | None:
        sent = {
            "User-Agent": "bench-day",
            "Accept": "text/html,*/*",
            "Accept-Encoding": "gzip",
            **(headers or {}),
        }
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            content_type = "application/x-www-form-urlencoded"
        if content_type:
            sent["Content-Type"] = content_type
            sent["Origin"] = f"http://{HOST}:{self.server.port}"
            sent["Referer"] = f"http://{HOST}:{self.server.port}{path}"
        for attempt in range(60):
            await self.server.up.wait()
            if self.cookies:
                sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            started = time.perf_counter()
            self.server.inflight += 1
            try:
                response = await asyncio.wait_for(
                    self.connection.send(method, path, sent, body), timeout
                )
            except (
                OSError,
                asyncio.IncompleteReadError,
                TimeoutError,
                ValueError,
            ) as e:
                self.connection.close()
                if not self.server.up.is_set() or (
                    attempt < 2 and not isinstance(e, TimeoutError)
                ):
                    # Cut by the restart (or a keep-alive the server closed
                    # as we sent): a GET is asked again; a POST is too,
                    # only if it cannot have reached the server.
                    self.stats.failed_in_restart += 1
                    if method == "GET" or isinstance(e, ConnectionRefusedError):
                        await asyncio.sleep(0.5)
                        continue
                self.stats.error(f"{self.name} {method} {path}: {type(e).__name__} {e}")
                return None
            finally:
                self.server.inflight -= 1
            break
        else:
            self.stats.error(f"{self.name} {method} {path}: no answer")
            return None
        self.stats.record(kind_of(method, path), (time.perf_counter() - started) * 1000)
        if response.header("content-encoding") == "gzip":
            response.body = gzip.decompress(response.body)
        for header in response.headers.get("set-cookie", []):
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if not value or "max-age=0" in rest.lower():
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        if response.status not in expect:
            self.stats.error(
                f"{self.name} {method} {path}: status {response.status} "
                f"{response.header('location') or ''}"
            )
            if response.status >= 500:
                log(response.text[:1500])
            return None
        return response

    async def page(self, path: str) -> str | None:
        response = await self.request("GET", path)
        return response.text if response else None

    async def post_form(
        self, page_path: str, action_end: str, what: str, **changes: str
    ) -> str | None:
        """GET `page_path`, submit its form to `action_end` with `changes`,
        follow the redirect; the page it lands on (None on error, and an
        error message on that page is an error)."""
        page = await self.page(page_path)
        if page is None:
            return None
        form = form_to(page, action_end, page_path)
        if form is None:
            self.stats.error(f"{what}: no form to …{action_end} on {page_path}")
            return None
        return await self.submit(form, page_path, what, **changes)

    async def submit(
        self, form: Form, page_path: str, what: str, **changes: str
    ) -> str | None:
        action = html.unescape(form.action) or page_path
        done = await self.request(
            "POST", action, form=form.data(**changes), expect=(302, 200)
        )
        if done is None:
            return None
        if done.status == 200:
            self.stats.error(f"{what}: the form came back ({action})")
            return None
        target = done.header("location") or "/"
        landed = await self.page(target)
        if landed is not None and ERROR_SUMMARY.search(landed):
            said = ERROR_SUMMARY.split(landed)[1].split("</p>")[0]
            self.stats.error(f"{what}: {html.unescape(said).strip()[:300]}")
            return None
        return landed

    async def login(self, username: str) -> bool:
        page = await self.page("/konto/anmelden/")
        form = form_to(page or "", "/konto/anmelden/") or (
            forms_of(page or "")[-1] if page else None
        )
        if form is None:
            self.stats.error(f"{username}: no sign-in form")
            return False
        done = await self.request(
            "POST",
            "/konto/anmelden/",
            form=form.data(username=username, password=PASSWORD, next=""),
            expect=(302,),
        )
        return done is not None and "sessionid" in self.cookies


# --- Phones: websockets, reloads, the lossy link -----------------------------------

# A region's new fragment, or only its new ETag (its HTML unchanged).
FRAGMENT = re.compile(r'"type": "(fragment|etag)", "key": "([^"]*)", "etag": "([^"]*)"')


class Phone:
    """A phone in the hall on one page: it opens it, subscribes its live
    regions on the page's websocket, takes the pushes, and reloads now and
    then; after a cut socket it connects again (static/js/live.js)."""

    def __init__(self, day: Day, path: str, index: int, reloads: bool = True) -> None:
        self.day = day
        self.path = path
        self.index = index
        self.reloads = reloads
        self.browser = Browser(day.server, day.stats, f"phone {index}")
        self.etags: dict[str, str] = {}  # region key -> ETag shown
        self.urls: dict[str, str] = {}  # region key -> fragment URL
        # Its socket's connects and new standings, (perf_counter, "connect"
        # or the message's type), for `push_latencies` after the day.
        self.standings: list[tuple[float, str]] = []
        self.rng = random.Random(f"phone-{index}")

    async def open_page(self) -> bool:
        page = await self.browser.page(self.path)
        if page is None:
            return False
        found = REGION.findall(page)
        if not found:
            self.day.stats.error(f"GET {self.path}: no live region")
            return False
        for key, url, tag in found:
            key = html.unescape(key)
            self.etags[key] = tag
            self.urls[key] = html.unescape(url)
        return True

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        await asyncio.sleep(self.rng.random() * ARRIVING / self.day.speed)
        if not await self.open_page():
            return
        url = f"ws://{HOST}:{self.day.server.port}/ws/t/{SLUG}/?lang=de"
        while not self.day.over.is_set():
            reload_at = time.perf_counter() + self.rng.expovariate(
                self.day.speed / 600.0
            )
            try:
                async with connect(
                    url,
                    origin=f"http://{HOST}:{self.day.server.port}",
                    max_size=None,
                    open_timeout=20,
                ) as socket:
                    self.standings.append((time.perf_counter(), "connect"))
                    await socket.send(
                        json.dumps(
                            {
                                "type": "subscribe",
                                "regions": [
                                    {"key": k, "etag": t} for k, t in self.etags.items()
                                ],
                                "gzip": True,
                            }
                        )
                    )
                    while not self.day.over.is_set():
                        left = reload_at - time.perf_counter()
                        if self.reloads and left <= 0:
                            break
                        try:
                            message = await asyncio.wait_for(
                                socket.recv(), min(2.0, max(0.05, left))
                            )
                        except TimeoutError:
                            continue
                        self.take(message)
            except Exception as cut:  # a cut socket: the server restarts
                if self.day.over.is_set():
                    break
                self.day.stats.reconnects += 1
                self.day.stats.cuts[type(cut).__name__ + str(cut)[:60]] += 1
                await asyncio.sleep(1 + self.rng.random() * 2)
                continue
            if self.reloads and not self.day.over.is_set():
                await self.open_page()  # people reload the page
        self.browser.close()

    def take(self, message: str | bytes) -> None:
        now = time.perf_counter()
        found = fragment_of(message)
        if not found:
            return
        kind, key, tag = found
        if self.etags.get(key) == tag:
            return
        self.etags[key] = tag
        if key == "standings":
            self.standings.append((now, kind))


class LossyPhone(Phone):
    """A phone on the bad end of the hall's Wi-Fi: without a socket, it
    polls its page's live regions with their ETags every 15 s, as live.js
    does, through the lossy proxy."""

    async def run(self) -> None:
        from bench.selfentry import http

        await asyncio.sleep(self.rng.random() * ARRIVING / self.day.speed)
        while not self.day.over.is_set():
            if await self.poll_page(http):
                break
            await asyncio.sleep(2)
        while not self.day.over.is_set():
            await asyncio.sleep(15 * self.rng.uniform(0.75, 1.25))
            await self.poll(http)

    async def poll_page(self, http: Any) -> bool:
        try:
            response = await asyncio.wait_for(
                http(self.day.proxy_port, "GET", self.path, {"Accept": "text/html"}),
                TIMEOUT,
            )
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
            return False
        if response.status != 200:
            return False
        for key, url, tag in REGION.findall(response.body.decode(errors="replace")):
            self.etags[html.unescape(key)] = tag
            self.urls[html.unescape(key)] = html.unescape(url)
        return True

    async def poll(self, http: Any) -> None:
        for key, url in list(self.urls.items()):
            headers = {"If-None-Match": f'"{self.etags[key]}"'}
            try:
                started = time.perf_counter()
                response = await asyncio.wait_for(
                    http(self.day.proxy_port, "GET", url, headers), TIMEOUT
                )
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
                continue  # the Wi-Fi: asked again at the next turn
            if response.status in (200, 304):
                self.day.stats.record(
                    "fragment_lossy", (time.perf_counter() - started) * 1000
                )
            if response.status == 200:
                tag = (response.headers.get("etag") or "").strip('"')
                self.etags[key] = tag.removeprefix("W/").strip('"')
            elif response.status >= 500 and self.day.server.up.is_set():
                self.day.stats.error(f"GET {url} (lossy): {response.status}")


# --- The measured sockets: a process of their own ----------------------------------

PROBES = 5


def probe(port: int, count: int, out: str) -> None:
    """`count` sockets on the standings, as a projector keeps them (never
    reloading, connecting again after a cut), in a process that does
    nothing else: each new standings' arrival is written to `out` with the
    time it came (time.monotonic, the clock perf_counter reads on Linux),
    and so is each connect. The thousand phones share the bench's one
    event loop on the same cores as the server; a push reaching them waits
    for that loop, which says more about the bench than about the site."""
    asyncio.run(_probe(port, count, out))


async def _probe(port: int, count: int, out: str) -> None:
    from websockets.asyncio.client import connect

    url = f"ws://{HOST}:{port}/ws/t/{SLUG}/?lang=de"
    with open(out, "a", buffering=1) as written:

        async def one(index: int) -> None:
            tag = ""
            while True:
                try:
                    async with connect(
                        url,
                        origin=f"http://{HOST}:{port}",
                        max_size=None,
                        open_timeout=20,
                    ) as socket:
                        written.write(f"{index} {time.monotonic():.6f} connect -\n")
                        regions = [{"key": "standings", "etag": tag}]
                        await socket.send(
                            json.dumps(
                                {"type": "subscribe", "regions": regions, "gzip": True}
                            )
                        )
                        async for message in socket:
                            now = time.monotonic()
                            found = fragment_of(message)
                            if found and found[1] == "standings" and found[2] != tag:
                                tag = found[2]
                                written.write(f"{index} {now:.6f} {found[0]} {tag}\n")
                except Exception:  # a cut socket: the server restarts
                    await asyncio.sleep(1)

        await asyncio.gather(*(one(i) for i in range(count)))


def push_latencies(
    socket: list[tuple[float, str]], confirmations: list[float]
) -> list[tuple[float, float]]:
    """One socket's push latencies, as (when the push came; ms): from each
    confirmation sent to the next new standings on the socket. `socket`:
    its connects and new standings in order, (time, "connect", "fragment"
    or "etag"), on the clock of `confirmations` (their sends). Reckoned
    after the day, when every confirmation is known: a push often comes
    before the confirmation's own answer, which is when the bench learns of
    it. What was confirmed before a connect comes by its catch-up, and is
    not counted."""
    sent = sorted(confirmations)
    pushes: list[tuple[float, float]] = []
    position = len(sent)
    for at, kind in socket:
        if kind == "connect":
            position = bisect.bisect_right(sent, at)
            continue
        if kind == "fragment" and position < len(sent) and sent[position] <= at:
            pushes.append((at, (at - sent[position]) * 1000))
        position = max(position, bisect.bisect_right(sent, at))
    return pushes


def probe_pushes(
    path: Path, confirmations: list[float], offset: float
) -> list[tuple[float, float]]:
    """`push_latencies` of the probe's sockets (written by `probe`), on
    the bench's perf_counter: `offset` is the probe's clock minus it."""
    sockets: dict[str, list[tuple[float, str]]] = defaultdict(list)
    lines = path.read_text().splitlines() if path.exists() else []
    for line in lines:
        index, at, kind, _tag = line.split(" ")
        sockets[index].append((float(at) - offset, kind))
    return [
        push
        for socket in sockets.values()
        for push in push_latencies(socket, confirmations)
    ]


def fragment_of(message: str | bytes) -> tuple[str, str, str] | None:
    """(type, key, ETag) of a region's message (a fragment, or only its
    new ETag), read from its first bytes."""
    if isinstance(message, bytes):
        head = zlib.decompressobj(wbits=31).decompress(message, 400)
        message = head.decode(errors="ignore")
    found = FRAGMENT.search(message[:400])
    return None if found is None else (found[1], found[2], found[3])


async def loop_lag(over: asyncio.Event, lags: list[float]) -> None:
    """How late the bench's own event loop wakes a sleeper (ms): what every
    figure timed in this process carries on top of the site's."""
    while not over.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.1)
        lags.append((time.perf_counter() - started - 0.1) * 1000)


class Flaky:
    """The proxy's settings (bench/selfentry.py reads `refuse`, `drop`,
    `twice`): while an outage lasts, every request is cut."""

    def __init__(self) -> None:
        self.down_until = 0.0
        self.drop = 0.2
        self.twice = 0.0

    @property
    def refuse(self) -> float:
        return 1.0 if time.monotonic() < self.down_until else 0.05


async def outages(day: Day, flaky: Flaky) -> None:
    rng = random.Random("outages")
    while not day.over.is_set():
        await asyncio.sleep(rng.expovariate(1 / 60))
        flaky.down_until = time.monotonic() + rng.uniform(2, 20)


# --- The outbox of a phone at the table ----------------------------------------------

RETRY_STATUS = {408, 429, 500, 502, 503, 504}


async def phone_ask(day: Day, token: str, lossy: bool) -> dict[str, Any]:
    """ "Mein Turnier" as JSON, asked again until it answers."""
    from bench.selfentry import http

    port = day.proxy_port if lossy else day.server.port
    for _ in range(400):
        try:
            started = time.perf_counter()
            response = await asyncio.wait_for(
                http(port, "GET", mine(token), {"Accept": "application/json"}),
                TIMEOUT,
            )
            if response.status not in RETRY_STATUS:
                day.stats.record("mine", (time.perf_counter() - started) * 1000)
                data: dict[str, Any] = response.json()
                return data
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
            pass
        await asyncio.sleep(0.5)
    raise RuntimeError(f"{mine(token)}: no answer")


async def phone_submit(
    day: Day, path: str, fields: list[tuple[str, str]], lossy: bool
) -> Any:
    """POST as static/js/outbox.js does: one Idempotency-Key for every try,
    sent again (backoff up to 2 s) until an answer comes."""
    from bench.selfentry import http

    port = day.proxy_port if lossy else day.server.port
    headers = {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "Idempotency-Key": str(uuid.uuid4()),
    }
    body = urllib.parse.urlencode(fields).encode()
    for attempt in range(400):
        if attempt:
            await asyncio.sleep(min(2.0, 0.2 * 2 ** min(attempt, 4)))
        started = time.perf_counter()
        try:
            response = await asyncio.wait_for(
                http(port, "POST", path, headers, body), TIMEOUT
            )
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            continue
        if response.status in RETRY_STATUS:
            continue
        day.stats.record("phone_post", (time.perf_counter() - started) * 1000)
        response.sent = started  # the try that was answered
        return response
    day.stats.unanswered.append(path)
    return None


def mine(token: str) -> str:
    return f"/t/{SLUG}/mein/{token}/"


def game_fields(games: list[tuple[int, int]]) -> list[tuple[str, str]]:
    fields = [("mode", "quick")]
    for game, (winner, marks) in enumerate(games, 1):
        fields += [(f"g{game}_winner", str(winner)), (f"g{game}_marks", str(marks))]
    return fields


def wrong(games: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sheet mistyped: game 5's marks one off."""
    winner, marks = games[-1]
    return [*games[:-1], (winner, marks % 7 + 1)]


# --- The day -------------------------------------------------------------------------


@dataclass
class Job:
    kind: str  # enter, confirm
    truth: TableTruth
    games: list[tuple[int, int]]
    not_by: int = 0  # a confirmation: not by the referee who entered it
    reason: str = ""
    reject: str = ""  # a disputed entry: rejected first, with this reason
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Day:
    def __init__(self, args: argparse.Namespace, hall: Hall) -> None:
        self.args = args
        self.hall = hall
        self.speed = args.speed
        self.series_seconds = HOUR / args.speed
        self.stats = Stats()
        self.server = Server(hall.port)
        self.over = asyncio.Event()
        self.proxy_port = 0
        self.script = Script(
            random.Random(args.seed),
            script_people(args.players, random.Random(args.seed)),
        )
        self.jobs: asyncio.Queue[Job] = asyncio.Queue()
        self.corrections: list[TableTruth] = []
        self.withdrawal_done = False
        self.restart_s: float | None = None
        self.cpu_before_restart = 0.0
        self.phones: list[Phone] = []
        self.sheets_pdf: dict[int, bytes] = {}

    def rng(self) -> random.Random:
        return self.script.rng

    def pause(self, seconds: float) -> float:
        """`seconds` of the hall's time, at the day's speed, ±50 %."""
        return self.rng().uniform(0.5, 1.5) * seconds / self.speed

    # --- Registration ---------------------------------------------------------

    async def register(self, org: Browser) -> None:
        people = self.script.people
        listed = [p for p in people if p.imported]
        upload = f"/t/{SLUG}/verwaltung/spieler/import/"
        page = await org.page(upload)
        form = form_to(page or "", "/spieler/import/", upload)
        if form is None:
            self.stats.error("no import form")
            return
        content_type, body = multipart(
            form.fields, "file", "meldeliste.xlsx", club_list(listed)
        )
        preview = await org.request(
            "POST",
            f"/t/{SLUG}/verwaltung/spieler/import/",
            body=body,
            content_type=content_type,
        )
        confirm = form_to(preview.text if preview else "", "/import/bestaetigen/")
        if confirm is None:
            self.stats.error("the club list's preview has no import button")
            return
        if await org.submit(confirm, upload, "import", action="import") is None:
            return
        log(f"{len(listed)} players imported from the club list")
        for person in [p for p in people if not p.imported]:
            await org.post_form(
                f"/t/{SLUG}/verwaltung/spieler/neu/",
                "/spieler/neu/",
                f"desk registration of {person.last}",
                first_name=person.first,
                last_name=person.last,
                club=person.club,
                category=category_value(person.category),
            )
        await asyncio.to_thread(read_cards, self.script)
        log(f"{len(people) - len(listed)} players registered at the desk")

    async def check_in(self, desks: list[Browser], people: list[Person]) -> None:
        """The desk's phones tick the players off as they arrive."""
        queue = list(people)

        async def desk(browser: Browser) -> None:
            token = await self.csrf(browser)
            while queue:
                person = queue.pop()
                await asyncio.sleep(self.pause(20))
                done = await browser.request(
                    "POST",
                    f"/t/{SLUG}/verwaltung/spieler/{person.number}/anwesend/",
                    form=[("csrfmiddlewaretoken", token), ("checked_in", "1")],
                    expect=(302,),
                )
                if done is None:
                    self.stats.error(f"check-in of {person.number} failed")

        await asyncio.gather(*(desk(b) for b in desks))

    async def csrf(self, browser: Browser) -> str:
        page = await browser.page(f"/t/{SLUG}/verwaltung/spieler/")
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page or "")
        return found.group(1) if found else browser.cookies.get("csrftoken", "")

    # --- A series ----------------------------------------------------------------

    async def series(self, org: Browser, number: int) -> None:
        manage = f"/t/{SLUG}/verwaltung/serie/{number}/"
        page = await org.page(manage)
        if number == SERIES:
            draw = form_to(page or "", "/setzen/", mode="standings")
        else:
            draw = next(
                (
                    f
                    for f in forms_of(page or "")
                    if html.unescape(f.action).endswith("/setzen/")
                    and "mode" not in dict(f.fields)
                ),
                None,
            )
        if draw is None:
            self.stats.error(f"series {number}: no draw form")
            return
        await org.submit(draw, manage, f"draw of series {number}")
        if number == 4:
            await self.swap(org, manage)
        for document in ("sheets", "seating"):
            pdf = await self.print_in_background(org, document, number)
            if pdf is not None and not pdf.startswith(b"%PDF"):
                self.stats.error(f"series {number}: the {document} are no PDF")
            if pdf is not None and document == "sheets":
                self.sheets_pdf[number] = pdf
        await org.post_form(
            manage,
            "/veroeffentlichen/",
            f"release of series {number}",
            accept_worse="1",
        )
        released = time.perf_counter()
        self.stats.event(f"Serie {number}")
        seating = await asyncio.to_thread(read_seating, number)
        truths = self.deal(number, seating)
        log(
            f"series {number} released: {len(truths)} tables "
            f"({dict(Counter(t.way for t in truths))})"
        )
        tasks = [asyncio.ensure_future(self.table(t, released)) for t in truths]
        for truth in self.corrections:
            tasks.append(asyncio.ensure_future(self.correct(truth)))
        self.corrections = []
        if number == 3:
            tasks.append(asyncio.ensure_future(self.restart(released)))
        withdrawal = next((t for t in truths if t.way == "withdrawal"), None)
        if withdrawal is not None:
            tasks.append(
                asyncio.ensure_future(self.withdraw(org, withdrawal, released))
            )
        await asyncio.gather(*tasks)
        self.corrections = [t for t in truths if t.typo]

    def deal(self, number: int, seating: dict[int, list[int]]) -> list[TableTruth]:
        """Each table's games and how its result comes in."""
        rng = self.rng()
        truths = []
        threes = [t for t, seats in seating.items() if len(seats) == 3]
        withdrawal = 0
        if not self.withdrawal_done and number >= 2 and threes:
            withdrawal = rng.choice(threes)
            self.withdrawal_done = True
        typo = number < 3  # one table of series 1 and 2: a typo found later
        for table, seats in sorted(seating.items()):
            draw = rng.random()
            way = (
                "phone"
                if draw < 0.40
                else "photo"
                if draw < 0.50
                else "dispute"
                if draw < 0.55
                else "referee"
            )
            truth = TableTruth(number, table, seats, [], way)
            if table == withdrawal:
                truth.way = "withdrawal"
                truth.withdrawn_seat = 1
                truth.withdrawn_after = 2
            truth.games = play_table(
                rng, len(seats), truth.withdrawn_seat, truth.withdrawn_after
            )
            if truth.withdrawn_seat and len(seats) == 3:
                # Two players left do not play on (the rule set's smallest
                # table is three): the sheet ends with the games before.
                truth.games = truth.games[: truth.withdrawn_after]
            if truth.way == "referee" and typo:
                truth.typo, typo = True, False
            truth.lossy = rng.random() < 0.10
            self.script.tables[number, table] = truth
            truths.append(truth)
        return truths

    async def print_in_background(
        self, org: Browser, document: str, number: int
    ) -> bytes | None:
        """A series' document as the print page advises for the large ones
        ("Im Hintergrund erstellen"): the job started from the page, its page
        opened and polled as static/js/paper.js does (after half a second,
        then every second), the file fetched. The organizer's wait, from the
        click to the file, goes to `print_waits`."""
        paper = f"/t/{SLUG}/verwaltung/druck/"
        page = await org.page(paper)
        form = form_to(page or "", "/druck/auftrag/", paper, document=document)
        if form is None:
            self.stats.error(f"series {number}: no form for the {document}")
            return None
        asked = time.perf_counter()
        started = await org.request(
            "POST",
            html.unescape(form.action),
            form=form.data(series=str(number)),
            expect=(302,),
        )
        job = await org.page(started.header("location") or "") if started else None
        found = re.search(r'data-status-url="([^"]+)"', job or "")
        if found is None:
            self.stats.error(f"series {number}: no job page for the {document}")
            return None
        await asyncio.sleep(0.5)
        while time.perf_counter() - asked < PRINT:
            status = await org.request(
                "GET",
                html.unescape(found.group(1)),
                headers={"Accept": "application/json"},
            )
            state = json.loads(status.body) if status else {}
            if state.get("finished"):
                if not state.get("download"):
                    said = state.get("message")
                    self.stats.error(f"series {number}: the {document} failed: {said}")
                    return None
                pdf = await org.request("GET", state["download"])
                self.stats.print_waits.append(time.perf_counter() - asked)
                return pdf.body if pdf else None
            await asyncio.sleep(1.0)
        self.stats.error(f"series {number}: the {document} not made in {PRINT} s")
        return None

    async def table(self, truth: TableTruth, released: float) -> None:
        """The table plays its five games, then its result comes in."""
        finish = released + self.series_seconds * self.rng().uniform(0.7, 1.0)
        await asyncio.sleep(max(0.0, finish - time.perf_counter()))
        if truth.way in ("referee", "withdrawal"):
            games = wrong(truth.games) if truth.typo else truth.games
            await self.referees_do(truth, games)
        elif truth.way == "photo":
            await self.by_photo(truth)
        else:
            await self.at_table(truth)

    async def referees_do(
        self, truth: TableTruth, games: list[tuple[int, int]], **extra: str
    ) -> None:
        job = Job("enter", truth, games, **extra)
        await self.jobs.put(job)
        await job.done.wait()

    async def at_table(self, truth: TableTruth) -> None:
        """Seat 1 enters from his phone, seat 2 confirms (or, disputed, says
        *Stimmt nicht* and a referee settles it)."""
        first = self.script.by_number(truth.seats[0])
        second = self.script.by_number(truth.seats[1])
        base = f"{mine(first.token)}serie/{truth.series}/tisch/{truth.number}/"
        state = await phone_ask(self, first.token, truth.lossy)
        if state.get("table") != truth.number or not state.get("may_enter"):
            self.stats.error(
                f"table {truth.series}/{truth.number}: seat 1 may not enter: {state}"
            )
            return
        games = wrong(truth.games) if truth.way == "dispute" else truth.games
        await asyncio.sleep(self.pause(120))  # typing on a phone
        fields = [("revision", str(state["revision"])), *game_fields(games)]
        answer = await phone_submit(self, base + "eingeben/", fields, truth.lossy)
        if not self.answered(truth, answer, "entered", "entry"):
            return
        self.stats.told[truth.series, truth.number] += 1
        await asyncio.sleep(self.pause(60))  # the other player reads it
        await self.agree(truth, second, truth.way != "dispute")

    async def agree(self, truth: TableTruth, who: Person, agree: bool) -> None:
        state = await phone_ask(self, who.token, truth.lossy)
        if not state.get("may_confirm" if agree else "may_reject"):
            self.stats.error(
                f"table {truth.series}/{truth.number}: seat 2 may not answer: {state}"
            )
            return
        base = f"{mine(who.token)}serie/{truth.series}/tisch/{truth.number}/"
        if agree:
            fields = [("version", str(state["version"]))]
            answer = await phone_submit(self, base + "stimmt/", fields, truth.lossy)
            if self.answered(truth, answer, "confirmed", "Stimmt") and not (
                truth.lossy or answer.headers.get("idempotency-replayed")
            ):
                # The push is timed from the send that was answered; on
                # the lossy link the server may have confirmed a try before.
                self.stats.confirmations.append(answer.sent)
            return
        fields = [("version", str(state["version"])), ("reason", "Spiel 5 falsch")]
        answer = await phone_submit(self, base + "stimmt-nicht/", fields, truth.lossy)
        if answer is None:
            return
        if answer.status != 200:
            self.stats.error(
                f"table {truth.series}/{truth.number}: Stimmt nicht answered "
                f"{answer.status} {answer.body[:200]!r}"
            )
            return
        await self.referees_do(truth, truth.games, reason="Streitfall am Tisch geklärt")

    def answered(
        self, truth: TableTruth, answer: Response | None, state: str, what: str
    ) -> bool:
        if answer is None:
            return False
        try:
            said = json.loads(answer.body).get("state")
        except ValueError:
            said = None
        if answer.status != 200 or said != state:
            self.stats.error(
                f"table {truth.series}/{truth.number}: {what} answered "
                f"{answer.status} {answer.body[:300]!r}"
            )
            return False
        return True

    async def by_photo(self, truth: TableTruth) -> None:
        """Seat 1 photographs the struck sheet; the site reads it, he checks
        the reading against the sheet, corrects what it misread and saves;
        seat 2 confirms."""
        first = self.script.by_number(truth.seats[0])
        second = self.script.by_number(truth.seats[1])
        photo = await asyncio.to_thread(
            sheet_photo, self.sheets_pdf.get(truth.series, b""), truth, self.args.seed
        )
        browser = Browser(
            self.server, self.stats, f"photo {truth.series}/{truth.number}"
        )
        try:
            path = f"{mine(first.token)}serie/{truth.series}/tisch/{truth.number}/foto/"
            page = await browser.page(path)
            form = form_to(page or "", "/foto/", path)
            if photo is None or form is None:
                if photo is not None:
                    self.stats.error(f"{path}: no photo form")
                await self.at_table(replace_way(truth, "phone"))
                return
            content_type, body = multipart(form.fields, "photo", "IMG_2041.jpg", photo)
            read = await browser.request(
                "POST", path, body=body, content_type=content_type, expect=(302,)
            )
            if read is None:
                return
            review_path = read.header("location") or ""
            review = await browser.page(review_path)
            form = form_to(
                review or "", urllib.parse.urlsplit(review_path).path
            ) or next(iter(forms_of(review or "")), None)
            if form is None:
                self.stats.error(f"{review_path}: no review form")
                return
            offered = dict(form.fields)
            self.hall.photo_games += GAMES
            self.hall.photo_misread += sum(
                offered.get(f"g{g}_winner") != str(w)
                or offered.get(f"g{g}_marks") != str(m)
                for g, (w, m) in enumerate(truth.games, 1)
            )
            await asyncio.sleep(self.pause(60))
            changes = dict(game_fields(truth.games))
            saved = await browser.request(
                "POST",
                review_path,
                form=form.data(**changes),
                expect=(302,),
            )
            if saved is None:
                return
            self.stats.told[truth.series, truth.number] += 1
        finally:
            browser.close()
        await asyncio.sleep(self.pause(60))
        await self.agree(truth, second, True)

    async def correct(self, truth: TableTruth) -> None:
        """A typo found on a confirmed table of the last series: entered
        again with a reason, confirmed by a second referee."""
        await asyncio.sleep(self.pause(600))
        await self.referees_do(truth, truth.games, reason="Tippfehler in Spiel 5")

    async def referee(self, index: int) -> None:
        # Referees come in during the check-in, as they arrive in the hall's
        # first half hour: thirty sign-ins at one instant (0.24 s of PBKDF2
        # each, two cores) would wait up to 8 s behind each other.
        arrives = random.Random(self.args.seed * 1000 + index).uniform(0, ARRIVING)
        await asyncio.sleep(arrives / self.speed)
        browser = Browser(self.server, self.stats, f"referee {index}")
        if not await browser.login(f"day-schiri-{index:02d}"):
            self.stats.error(f"referee {index} could not sign in")
            return
        while not self.over.is_set():
            try:
                job = await asyncio.wait_for(self.jobs.get(), 1.0)
            except TimeoutError:
                continue
            if job.not_by == index:
                await self.jobs.put(job)
                await asyncio.sleep(0.2)
                continue
            try:
                await self.work(browser, index, job)
            except Exception as broke:  # the bench's own fault: said, not hidden
                self.stats.error(f"referee {index}: {type(broke).__name__} {broke}")
                job.done.set()
        browser.close()

    async def work(self, browser: Browser, index: int, job: Job) -> None:
        if job.kind == "enter":
            await asyncio.sleep(self.pause(60))  # reading the sheet, typing
            if await self.enter(browser, job):
                await self.jobs.put(
                    Job("confirm", job.truth, job.games, not_by=index, done=job.done)
                )
            else:
                job.done.set()
        else:
            await asyncio.sleep(self.pause(30))  # checking it against the sheet
            await self.confirm(browser, job)
            job.done.set()

    async def enter(self, browser: Browser, job: Job) -> bool:
        truth = job.truth
        path = f"/t/{SLUG}/eingabe/serie/{truth.series}/tisch/{truth.number}/"
        # A confirmed table's form opens with "Ergebnis korrigieren".
        page = await browser.page(path + "?korrigieren=1" if job.reason else path)
        if page is None:
            return False
        refuse = form_to(page, "/ablehnen/")
        if refuse is not None:
            # A disputed entry: rejected first, the sheet then typed in.
            await browser.submit(
                refuse,
                path,
                f"reject at {truth.series}/{truth.number}",
                reason=job.reason,
            )
            page = await browser.page(path)
            if page is None:
                return False
        form = next(
            (
                f
                for f in forms_of(page)
                if any(k == "revision" for k, _ in f.fields)
                and any(k.startswith("g1_") for k in f.options)
            ),
            None,
        )
        if form is None:
            self.stats.error(f"{path}: no entry form")
            return False
        changes = dict(game_fields(job.games))
        for game in range(1, len(job.games) + 1):
            changes[f"g{game}_hands"] = ""
        if job.reason and any(k == "reason" for k, _ in form.fields):
            changes["reason"] = job.reason
        done = await browser.request(
            "POST",
            html.unescape(form.action) or path,
            form=form.data(**changes),
            expect=(302,),
        )
        if done is None:
            return False
        self.stats.told[truth.series, truth.number] += 1
        await browser.page(done.header("location") or f"/t/{SLUG}/eingabe/")
        return True

    async def confirm(self, browser: Browser, job: Job) -> None:
        truth = job.truth
        path = f"/t/{SLUG}/eingabe/serie/{truth.series}/tisch/{truth.number}/"
        page = await browser.page(path)
        form = form_to(page or "", "/bestaetigen/")
        if form is None:
            self.stats.error(f"{path}: no confirm form")
            return
        sent = time.perf_counter()
        done = await browser.submit(
            form, path, f"confirmation of {truth.series}/{truth.number}"
        )
        if done is not None:
            self.stats.confirmations.append(sent)

    async def swap(self, org: Browser, manage: str) -> None:
        """Two players of two tables change seats before the release."""
        seating = await asyncio.to_thread(read_seating, 4)
        tables = sorted(seating)
        a, b = seating[tables[0]][1], seating[tables[-1]][1]
        await org.post_form(
            f"{manage}?{urllib.parse.urlencode({'a': a, 'b': b})}",
            "/tauschen/",
            f"swap of {a} and {b}",
        )

    async def withdraw(self, org: Browser, truth: TableTruth, released: float) -> None:
        """A player of a table of three leaves after game 2."""
        at = released + self.series_seconds * 0.45
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        number = truth.seats[truth.withdrawn_seat - 1]
        await org.post_form(
            f"/t/{SLUG}/verwaltung/spieler/{number}/abmelden/",
            f"/spieler/{number}/abmelden/",  # not the sign-out's /konto/abmelden/
            f"withdrawal of {number}",
            reason="Krank nach Hause",
            after_game=str(truth.withdrawn_after),
        )
        log(
            f"player {number} withdrew after game {truth.withdrawn_after} "
            f"of series {truth.series}"
        )

    async def restart(self, released: float) -> None:
        """The hall's laptop closed and opened in the middle of the series."""
        at = released + self.series_seconds * 0.5
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        self.server.up.clear()
        for _ in range(50):  # what is under way is answered first
            if self.server.inflight == 0:
                break
            await asyncio.sleep(0.1)
        self.cpu_before_restart += self.hall.cpu()
        started = time.perf_counter()
        self.stats.event("Neustart")
        await asyncio.to_thread(self.hall.kill)
        await asyncio.to_thread(self.hall.start)
        await self.hall.wait_ready()
        self.restart_s = round(time.perf_counter() - started, 1)
        self.server.up.set()
        log(f"server killed and started again: serving after {self.restart_s} s")

    # --- The whole day -------------------------------------------------------------

    async def run(self) -> None:
        from bench.selfentry import proxy

        flaky = Flaky()
        from bench.selfentry import Wifi

        self.wifi = Wifi()
        lossy = await proxy(
            self.server.port, flaky, random.Random(self.args.seed), self.wifi
        )  # type: ignore[arg-type]
        self.proxy_port = lossy.sockets[0].getsockname()[1]
        background = [asyncio.ensure_future(outages(self, flaky))]
        background.append(asyncio.ensure_future(self.hall.sample_memory(self.over)))
        background.append(
            asyncio.ensure_future(loop_lag(self.over, self.stats.loop_lags))
        )
        probed = self.hall.var_dir / "probe.txt"
        prober = multiprocessing.get_context("spawn").Process(
            target=probe, args=(self.server.port, PROBES, str(probed)), daemon=True
        )
        prober.start()
        org = Browser(self.server, self.stats, "organizer")
        await org.login("day-leitung")
        desks = [Browser(self.server, self.stats, f"desk {i}") for i in range(3)]
        for i, desk in enumerate(desks):
            await desk.login(f"day-theke-{i + 1}")
        await self.register(org)
        people = self.script.people
        background += [
            asyncio.ensure_future(self.referee(i + 1))
            for i in range(self.hall.referees)
        ]
        self.phones = self.make_phones()
        background += [asyncio.ensure_future(p.run()) for p in self.phones]
        await self.check_in(desks, [p for p in people if p.arrives == 0])
        log(f"{sum(p.arrives == 0 for p in people)} players checked in")
        await org.page(f"/t/{SLUG}/verwaltung/serien/")  # makes the series
        for number in range(1, SERIES + 1):
            if number in (2, 4):
                late = [p for p in people if p.arrives == number - 1]
                await self.check_in(desks[:1], late)
                log(f"late arrival checked in: {[p.number for p in late]}")
            await self.series(org, number)
            log(f"series {number}: every table confirmed")
        for truth in self.corrections:
            await self.correct(truth)
        await self.finals()
        self.over.set()
        await asyncio.gather(*background, return_exceptions=True)
        prober.terminate()
        prober.join(10)
        self.stats.probe_pushes = probe_pushes(
            probed, self.stats.confirmations, time.monotonic() - time.perf_counter()
        )
        self.stats.pushes = [
            ms
            for phone in self.phones
            for _at, ms in push_latencies(phone.standings, self.stats.confirmations)
        ]
        lossy.close()
        for b in [org, *desks]:
            b.close()

    def make_phones(self) -> list[Phone]:
        people = [p for p in self.script.people if p.arrives >= 0]
        rng = random.Random(f"phones-{self.args.seed}")
        phones: list[Phone] = []
        for i in range(round(2.5 * len(self.script.people))):
            person = rng.choice(people)
            share = rng.random()
            path = (
                f"/t/{SLUG}/tabelle/"
                if share < 0.4
                else f"/t/{SLUG}/wo-sitze-ich/?q={urllib.parse.quote(person.last)}"
                if share < 0.65
                else mine(person.token)
            )
            kind = LossyPhone if rng.random() < 0.10 else Phone
            phones.append(kind(self, path, i))
        phones += [
            Phone(self, f"/t/{SLUG}/projektor/", 100_000 + i, reloads=False)
            for i in range(3)
        ]
        return phones

    async def finals(self) -> None:
        """Every phone on the final standings (within 2 min), then the site's
        standings against the script's."""
        final = await Browser(self.server, self.stats, "final").request(
            "GET", f"/t/{SLUG}/live/standings/"
        )
        tag = (
            (final.header("etag") or "").removeprefix("W/").strip('"') if final else ""
        )
        # A phone on the lossy link polls every 15 s and may meet an outage
        # or two on the way: two minutes at most.
        deadline = time.perf_counter() + 120
        watching = [p for p in self.phones if "standings" in p.etags]
        while time.perf_counter() < deadline:
            if all(p.etags.get("standings") == tag for p in watching):
                break
            await asyncio.sleep(0.5)
        for phone in [p for p in watching if p.etags.get("standings") != tag][:5]:
            log(
                f"not on the final standings: {type(phone).__name__} "
                f"{phone.path} {phone.etags.get('standings')} (final {tag})"
            )
        self.hall.phones_watching = len(watching)
        self.hall.phones_final = sum(p.etags.get("standings") == tag for p in watching)
        self.hall.standings = await self.standings_check()

    async def standings_check(self) -> dict[str, bool]:
        browser = Browser(self.server, self.stats, "standings check")
        truth = truth_standings(self.script, self.hall.win_bonus)
        found: dict[str, bool] = {}
        answer = await browser.request("GET", f"/api/t/{SLUG}/standings/")
        rows = json.loads(answer.body)["rows"] if answer else []
        site = {
            r["start_number"]: {
                "points": r["points"],
                "games_won": r["games_won"],
                "series": r["series_points"],
            }
            for r in rows
        }
        found["overall"] = bool(truth) and site == truth
        if not found["overall"]:
            differ = [n for n in set(site) | set(truth) if site.get(n) != truth.get(n)]
            self.stats.error(
                f"standings differ for {len(differ)} players, e.g. "
                f"{[(n, site.get(n), truth.get(n)) for n in differ[:3]]}"
            )
        points = [r["points"] for r in rows]
        found["order"] = points == sorted(points, reverse=True)
        for category, page in CATEGORY_PAGES.items():
            answer = await browser.request(
                "GET", f"/api/t/{SLUG}/standings/?category={page}"
            )
            got = (
                {
                    r["start_number"]: r["points"]
                    for r in json.loads(answer.body)["rows"]
                }
                if answer
                else {}
            )
            want = {
                p.number: truth[p.number]["points"]
                for p in self.script.people
                if p.category == category and p.number in truth
            }
            found[f"category_{page}"] = got == want
        query = urllib.parse.urlencode({"document": "standings"})
        organizer = Browser(self.server, self.stats, "standings pdf")
        await organizer.login("day-leitung")
        pdf = await organizer.request(
            "GET", f"/t/{SLUG}/verwaltung/druck/datei/?{query}", timeout=PRINT
        )
        found["pdf"] = pdf is not None and await asyncio.to_thread(
            pdf_in_order,
            pdf.body,
            [self.script.by_number(r["start_number"]).last for r in rows],
        )
        organizer.close()
        browser.close()
        return found


def replace_way(truth: TableTruth, way: str) -> TableTruth:
    truth.way = way
    return truth


def pdf_in_order(pdf: bytes, names: list[str]) -> bool:
    """The PDF standings name the players in the site's order."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "standings.pdf"
        source.write_bytes(pdf)
        text = subprocess.run(
            ["pdftotext", "-layout", str(source), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    places = [text.find(name) for name in names]
    return -1 not in places and places == sorted(places)


def multipart(
    fields: list[tuple[str, str]], name: str, filename: str, data: bytes
) -> tuple[str, bytes]:
    boundary = f"----day{random.getrandbits(64):x}"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n'
        f"{v}\r\n".encode()
        for k, v in fields
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
        f'filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(parts)


def club_list(people: list[Person]) -> bytes:
    """The club list as the clubs send it: an .xlsx with a title line."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append(["Meldeliste Rheinland-Meisterschaft"])
    sheet.append([])
    sheet.append(["Lfd. Nr.", "Familienname", "Vorname", "Verein", "Klasse"])
    for i, p in enumerate(people, 1):
        sheet.append([i, p.last, p.first, p.club, p.category])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def category_value(category: str) -> str:
    """The desk form's value of a club list's class."""
    return {"Damen": "ladies", "Senioren": "seniors", "Jugend": "youth"}.get(
        category, "open"
    )


# --- Reading the database (the cards printed, the seating, the truth) ----------------


def read_cards(script: Script) -> None:
    """Each person's start number and personal link, as his player card
    gives them."""
    from tournament.models import Entry

    entries = {
        (e.player.first_name, e.player.last_name): e
        for e in Entry.objects.filter(tournament__slug=SLUG).select_related("player")
    }
    for person in script.people:
        entry = entries[person.first, person.last]
        person.number, person.token = entry.start_number, entry.link_token


def read_seating(number: int) -> dict[int, list[int]]:
    from tournament.models import Seat

    tables: dict[int, list[int]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(series__tournament__slug=SLUG, series__number=number)
        .select_related("table", "entry")
        .order_by("table__number", "number")
    ):
        tables[seat.table.number].append(seat.entry.start_number)
    return dict(tables)


def sheet_photo(pdf: bytes, truth: TableTruth, seed: int) -> bytes | None:
    """The table's printed sheet, struck by hand with its games and taken
    with a phone (bench/sheetphoto.py)."""
    import cv2
    import numpy as np

    from bench.sheetphoto import DPI, Page, photograph_as, random_hand, write_by_hand
    from tournament.models import Series, Tournament
    from tournament.paper import sheets

    if not pdf or shutil.which("pdftoppm") is None:
        return None
    tournament = Tournament.objects.get(slug=SLUG)
    series = Series.objects.get(tournament=tournament, number=truth.series)
    ids = [
        s.sheet_id
        for s in sheets.score_sheets(
            tournament=tournament, series=series, filled=False
        ).sheets
    ]
    index = next(i for i, s in enumerate(ids) if s.table == truth.number)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "sheets.pdf"
        source.write_bytes(pdf)
        page_no = str(index + 1)
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                str(DPI),
                "-f",
                page_no,
                "-l",
                page_no,
                "-png",
                str(source),
                f"{folder}/p",
            ],
            check=True,
        )
        image = cv2.imread(str(next(Path(folder).glob("p-*.png"))), cv2.IMREAD_COLOR)
    rng = np.random.default_rng(seed * 1000 + truth.series * 100 + truth.number)
    struck = write_by_hand(Page(image, ids[index]), truth.games, rng, random_hand(rng))
    return photograph_as(struck, rng, "phone")


def db_check(script: Script, stats: Stats, win_bonus: int) -> dict[str, int]:
    """What the database holds, against the script and what the clients
    were told."""
    from bench.selfentry import repeats
    from tournament.models import ResultVersion, Table

    versions = list(
        ResultVersion.objects.filter(
            table__series__tournament__slug=SLUG
        ).select_related("table__series")
    )
    per_table: Counter[tuple[int, int]] = Counter(
        (v.table.series.number, v.table.number) for v in versions
    )
    lost = len(stats.unanswered)
    duplicated = 0
    for key in set(per_table) | set(stats.told):
        lost += max(0, stats.told[key] - per_table[key])
        duplicated += max(0, per_table[key] - stats.told[key])
    confirmed: dict[tuple[int, int], list[Any]] = defaultdict(list)
    for v in versions:
        if v.status == ResultVersion.Status.CONFIRMED:
            confirmed[v.table.series.number, v.table.number].append(v)
    once = 0
    for key, truth in script.tables.items():
        got = confirmed.get(key, [])
        if len(got) != 1:
            continue
        games = got[0].data["games"]
        want = [{"winner": w, "points": m + win_bonus} for w, m in truth.games]
        have = [{"winner": g["winner"], "points": g["points"]} for g in games]
        once += have == want
    duplicated += repeats(SLUG)
    tables = Table.objects.filter(series__tournament__slug=SLUG).count()
    return {
        "tables": tables,
        "confirmed_once": once,
        "lost": lost,
        "duplicated": duplicated,
    }


# --- The hall: the server, its database, its processes --------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Hall:
    """The site as the hall (or, `--server`, the server recipe) runs it."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.var_dir = Path(tempfile.mkdtemp(prefix="day-"))
        self.port = args.port or free_port()
        self.upstream = free_port() if args.server else self.port
        self.process: subprocess.Popen[bytes] | None = None
        self.nginx: subprocess.Popen[bytes] | None = None
        self.referees = max(2, round(args.players * 30 / 400))
        self.win_bonus = 7
        self.peak_rss_mb = 0.0
        self.photo_games = 0
        self.photo_misread = 0
        self.phones_watching = 0
        self.phones_final = 0
        self.standings: dict[str, bool] = {}
        self.database = ""
        self.log = open(self.var_dir / "server.log", "ab")  # noqa: SIM115
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SECRET_KEY": "day-bench-" + uuid.uuid4().hex,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "VAR_DIR": str(self.var_dir),
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "SECURE_HSTS_SECONDS": "0",
            # Every phone of this bench comes from 127.0.0.1; in the hall
            # they are a thousand addresses.
            "PLAYER_LINK_REQUESTS": "1000000",
            "PYTHONPATH": str(ROOT),
        }
        self.env.pop("DATABASE_URL", None)
        self.env.pop("REDIS_URL", None)
        if args.server:
            base = os.environ.get(
                "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"
            )
            self.database = f"day_bench_{os.getpid()}"
            self.env["DATABASE_URL"] = pg_database(base, self.database, create=True)
            self.base_database_url = base
            redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14")
            import redis

            redis.Redis.from_url(redis_url).flushdb()
            self.env["REDIS_URL"] = redis_url

    def manage(self, *command: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=self.env,
            check=True,
            stdout=self.log,
            stderr=self.log,
        )

    def prepare(self) -> None:
        """`make run`'s steps before the server: migrate, static files
        collected (only when changed), in one start of the site."""
        self.manage("prepare", "--static", "migrate --noinput -v0")

    def setup_django(self) -> None:
        os.environ.update(self.env)
        if not self.args.server:
            os.environ.pop("DATABASE_URL", None)
            os.environ.pop("REDIS_URL", None)
        import django

        django.setup()

    def start(self) -> None:
        if self.process is not None:  # a restart: as `make run` does it
            self.prepare()
        command = [sys.executable, "manage.py", "serve", "--host", HOST]
        command += ["--port", str(self.upstream)]
        command += ["--workers", "2"] if self.args.server else ["--check"]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        if self.args.server and self.nginx is None:
            self.nginx = start_nginx(self.var_dir, self.port, self.upstream)

    async def wait_ready(self, seconds: float = 180) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise SystemExit(f"the server ended; see {self.var_dir}/server.log")
            connection = Connection(self.port)
            with contextlib.suppress(OSError, asyncio.IncompleteReadError, ValueError):
                response = await connection.send("GET", "/readyz", {})
                if response.status == 200:
                    connection.close()
                    return
            connection.close()
            await asyncio.sleep(0.2)
        raise SystemExit(f"the server did not answer within {seconds} s")

    def kill(self) -> None:
        """The laptop closed: every process of the server ends at once."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.terminate()
            self.nginx.wait(10)
            self.nginx = None
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def cpu(self) -> float:
        return tree_cpu(self.process.pid) if self.process else 0.0

    def rss_mb(self) -> float:
        """The server's processes' resident memory together (Linux)."""
        if self.process is None:
            return 0.0
        parents: dict[int, int] = {}
        rss: dict[int, float] = {}
        for status in Path("/proc").glob("[0-9]*/status"):
            with contextlib.suppress(OSError, ValueError):
                text = status.read_text()
                pid = int(status.parent.name)
                parents[pid] = int(re.search(r"PPid:\s+(\d+)", text).group(1))  # type: ignore[union-attr]
                found = re.search(r"VmRSS:\s+(\d+) kB", text)
                rss[pid] = int(found.group(1)) / 1024 if found else 0.0
        total, todo = 0.0, [self.process.pid]
        while todo:
            pid = todo.pop()
            total += rss.get(pid, 0.0)
            todo += [c for c, p in parents.items() if p == pid]
        return total

    async def sample_memory(self, over: asyncio.Event) -> None:
        while not over.is_set():
            self.peak_rss_mb = max(
                self.peak_rss_mb, await asyncio.to_thread(self.rss_mb)
            )
            await asyncio.sleep(1.0)

    def clean(self) -> None:
        self.log.close()
        if not self.args.keep:
            shutil.rmtree(self.var_dir, ignore_errors=True)
        if self.database:
            from django.db import connections

            connections.close_all()
            pg_database(self.base_database_url, self.database, create=False)


def pg_database(url: str, name: str, *, create: bool) -> str:
    from bench.load import pg_database as make

    return make(url, name, create=create)


def start_nginx(folder: Path, listen: int, upstream: int) -> subprocess.Popen[bytes]:
    """nginx with deploy/nginx-site.conf as shipped, on the bench's ports."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise SystemExit("--server needs nginx (Debian: nginx-light)")
    site = (ROOT / "deploy" / "nginx-site.conf").read_text()
    site = site.replace("listen 80;", f"listen {HOST}:{listen};")
    site = site.replace("server 127.0.0.1:8000;", f"server {HOST}:{upstream};")
    (folder / "site.conf").write_text(site)
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        # As root, nginx's workers would be nobody, who may not write the
        # upload buffers into the run's private folder.
        f"daemon off; {'user root; ' if os.geteuid() == 0 else ''}"
        f"worker_processes 1; pid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'nginx.log'} warn;\n"
        "events { worker_connections 4096; }\n"
        f"http {{ access_log off; {temp} include {folder / 'site.conf'}; }}\n"
    )
    return subprocess.Popen(
        [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    )


def seed(referees: int) -> int:
    """The accounts of the day (the organizer, three desk phones, the
    referees) and the tournament with entry at the table on; its win bonus."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group

    from tournament.models import Tournament
    from tournament.tournaments.services import tournament_save

    users = get_user_model()
    hashed = make_password(PASSWORD)
    organizers = Group.objects.get_or_create(name="organizer")[0]
    referee_group = Group.objects.get_or_create(name="referee")[0]

    def user(name: str, group: Group) -> Any:
        made = users.objects.create(username=name, password=hashed)
        made.groups.add(group)
        return made

    organizer = user("day-leitung", organizers)
    for i in range(1, 4):
        user(f"day-theke-{i}", organizers)
    for i in range(1, referees + 1):
        user(f"day-schiri-{i:02d}", referee_group)
    tournament = Tournament(
        name="Rheinland-Meisterschaft – der ganze Tag",
        slug=SLUG,
        date=datetime.date.today(),
        venue="Stadthalle",
        table_entry="one",
    )
    tournament_save(actor=organizer, tournament=tournament, created=True, referees=[])
    return int(tournament.win_bonus)


# --- The figures ----------------------------------------------------------------------


def per_minute(stats: Stats, path: str, bucket: float = 60.0) -> None:
    """p50/p95/p99 of every request per minute of the day (per `bucket`
    seconds: `minute` is where each starts), the probe's push p95, p95 per
    kind, and what began in it (`events`: "Serie 2@7.42", the minute after
    a @; bench/day_chart.py draws it)."""
    minutes: dict[int, list[float]] = defaultdict(list)
    kinds: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    pushes: dict[int, list[float]] = defaultdict(list)
    events: dict[int, list[str]] = defaultdict(list)
    for at, kind, ms in stats.timeline:
        minutes[int(at // bucket)].append(ms)
        kinds[int(at // bucket)][kind].append(ms)
    for at, ms in stats.probe_pushes:
        pushes[int((at - stats.started) // bucket)].append(ms)
    for at, what in stats.events:
        events[int(at // bucket)].append(f"{what}@{at / 60:.2f}")
    every_kind = sorted(stats.latencies)
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(
            ["minute", "requests", "p50_ms", "p95_ms", "p99_ms", "push_p95_ms"]
            + [f"p95_{k}_ms" for k in every_kind]
            + ["events"]
        )
        for slot in sorted(set(minutes) | set(events)):
            ms = minutes[slot]
            writer.writerow(
                [round(slot * bucket / 60, 2), len(ms)]
                + [round(percentile(ms, q), 1) if ms else "" for q in (0.5, 0.95, 0.99)]
                + [round(percentile(pushes[slot], 0.95), 1) if pushes[slot] else ""]
                + [
                    round(percentile(kinds[slot][k], 0.95), 1) if kinds[slot][k] else ""
                    for k in every_kind
                ]
                + [";".join(events[slot])]
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument(
        "--speed", type=float, default=10.0, help="times real time (10: 6 min a series)"
    )
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument(
        "--server",
        action="store_true",
        help="PostgreSQL, Redis, two workers behind nginx (docs/OPERATING.md)",
    )
    parser.add_argument("--port", type=int, default=0, help="the site's port")
    parser.add_argument("--csv", help="write the p95 per minute of the day here")
    parser.add_argument(
        "--bucket",
        type=float,
        default=60.0,
        help="seconds per row of --csv and point of --chart (default: a minute)",
    )
    parser.add_argument(
        "--chart", help="draw p50/p95 per minute into this PNG (needs matplotlib)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the VAR_DIR")
    args = parser.parse_args()
    if args.players < 16:
        raise SystemExit("a day needs at least 16 players")

    started = time.perf_counter()
    hall = Hall(args)
    day: Day | None = None
    try:
        hall.prepare()
        hall.setup_django()
        hall.win_bonus = seed(hall.referees)
        from django.db import connections

        connections.close_all()
        log(
            f"hall ready in {hall.var_dir} ({'server' if args.server else 'hall'} "
            f"configuration), {hall.referees} referees"
        )
        hall.start()

        async def whole_day() -> Day:
            await hall.wait_ready()
            day = Day(args, hall)
            await day.run()
            return day

        try:
            day = asyncio.run(whole_day())
            cpu = day.cpu_before_restart + hall.cpu()
        finally:
            hall.stop()
        assert day is not None
        found = db_check(day.script, day.stats, hall.win_bonus)
        connections.close_all()
    finally:
        hall.clean()
    stats = day.stats
    every = [ms for values in stats.latencies.values() for ms in values]
    referee = [ms for k in REFEREE_KINDS for ms in stats.latencies.get(k, [])]
    probed = [ms for _at, ms in stats.probe_pushes]
    truth_tables = len(day.script.tables)
    if found["tables"] != truth_tables:
        stats.error(f"the site has {found['tables']} tables, the script {truth_tables}")
    standings_equal = bool(hall.standings) and all(hall.standings.values())
    result = {
        "players": args.players,
        "speed": args.speed,
        "configuration": "server" if args.server else "hall",
        "tables": truth_tables,
        "confirmed_once": found["confirmed_once"],
        "lost": found["lost"],
        "duplicated": found["duplicated"],
        "standings_equal": standings_equal,
        "standings_checks": hall.standings,
        "phones": len(day.phones),
        "phones_final": hall.phones_final,
        "phones_watching_standings": hall.phones_watching,
        "errors": len(stats.errors),
        "requests": len(every),
        "p50_ms": round(percentile(every, 0.5), 1),
        "p95_ms": round(percentile(every, 0.95), 1),
        "p99_ms": round(percentile(every, 0.99), 1),
        "p95_by_kind_ms": {
            k: round(percentile(v, 0.95), 1) for k, v in sorted(stats.latencies.items())
        },
        "referee_p95_ms": round(percentile(referee, 0.95), 1),
        "push_p95_ms": round(percentile(probed, 0.95), 1),
        "push_p50_ms": round(percentile(probed, 0.5), 1),
        "pushes": len(stats.probe_pushes),
        "push_p95_on_phones_ms": round(percentile(stats.pushes, 0.95), 1),
        "pushes_on_phones": len(stats.pushes),
        "bench_loop_lag_p95_ms": round(percentile(stats.loop_lags, 0.95), 1),
        "bench_loop_lag_max_ms": round(max(stats.loop_lags, default=0.0), 1),
        "reconnects": stats.reconnects,
        "socket_cuts": dict(stats.cuts.most_common(5)),
        "print_ready_max_s": round(max(stats.print_waits, default=0.0), 1),
        "restart_s": day.restart_s,
        "server_cpu_s": round(cpu, 1),
        "peak_rss_mb": round(hall.peak_rss_mb, 1),
        "photo_fields_misread": f"{hall.photo_misread}/{hall.photo_games}",
        "wifi": {
            "requests": day.wifi.requests,
            "refused": day.wifi.refused,
            "dropped": day.wifi.dropped,
        },
        "seconds": round(time.perf_counter() - started, 1),
    }
    table = args.csv or (
        str(Path(tempfile.mkdtemp(prefix="day-chart-")) / "day.csv")
        if args.chart
        else None
    )
    if table:
        per_minute(stats, table, args.bucket)
    if args.chart:
        from bench.day_chart import draw

        draw(table, args.chart)
    print(json.dumps(result))
    ok = (
        result["errors"] == 0
        and result["lost"] == 0
        and result["duplicated"] == 0
        and result["confirmed_once"] == result["tables"]
        and standings_equal
        and hall.phones_final == hall.phones_watching
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
