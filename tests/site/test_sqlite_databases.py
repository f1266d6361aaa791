"""Every SQLite database gets the embedded default's safety (issue 19),
whether it is the default file under VAR_DIR or named by DATABASE_URL:
WAL (readers never wait for the writer), a busy timeout (a writer waits
for another instead of failing) and IMMEDIATE transactions (a transaction
takes the write lock when it begins, so two never deadlock halfway, which
SQLite answers at once with "database is locked").

The settings are read once, at import: the settings function is tested
directly (a file named by DATABASE_URL gets the default's options), and a
real server (uvicorn, tests/support/servers.py) on a file named by
DATABASE_URL shows that writers at once lose nothing: practice tables whose
bots answer at once (DIGITAL_BOT_DELAY=0, the real runner threads) while
their players move, and two referees entering results at the same time.
"""

import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import urllib.parse

import pytest

from config import settings as site_settings
from tests.support import servers as support

SLUG = "zwei-schiris"
PASSWORD = "zweimal-pruefen"
TABLES = 12  # six per referee
PLAYERS = 3  # practice tables played at once


# --- the settings function -------------------------------------------------


def _sqlite_safety(database):
    assert database["ENGINE"] == site_settings.SQLITE_ENGINE
    options = database["OPTIONS"]
    init = options["init_command"]
    assert "journal_mode=WAL" in init
    assert re.search(r"busy_timeout=\d{4,}", init)
    assert options["transaction_mode"] == "IMMEDIATE"
    # The test database of an SQLite site is in memory, as before.
    assert database["TEST"] == {"NAME": ":memory:"}


def test_the_default_sqlite_file_is_safe(tmp_path):
    database = site_settings.database_settings("", tmp_path)
    assert database["NAME"] == str(tmp_path / "siebenschraem.sqlite3")
    _sqlite_safety(database)


@pytest.mark.parametrize(
    "url",
    ["sqlite:///{dir}/named.sqlite3", "sqlite:///relative.sqlite3"],
)
def test_an_sqlite_file_named_by_database_url_is_as_safe(url, tmp_path):
    database = site_settings.database_settings(url.format(dir=tmp_path), tmp_path)
    _sqlite_safety(database)
    assert database["NAME"] == url.format(dir=tmp_path).removeprefix("sqlite:///")
    default = site_settings.database_settings("", tmp_path)
    assert database["OPTIONS"] == default["OPTIONS"]


def test_options_in_an_sqlite_url_are_kept_beside_the_safe_ones(tmp_path):
    url = f"sqlite:///{tmp_path}/named.sqlite3?timeout=20"
    database = site_settings.database_settings(url, tmp_path)
    _sqlite_safety(database)
    assert database["OPTIONS"]["timeout"] == 20


def test_a_postgresql_url_keeps_its_pool_and_gets_no_sqlite_options(tmp_path):
    database = site_settings.database_settings(
        "postgres://u:p@127.0.0.1:5432/schraem", tmp_path
    )
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["OPTIONS"] == {
        "pool": {"min_size": 1, "max_size": 10, "timeout": 30}
    }
    assert "TEST" not in database


# --- writers at once on a real server --------------------------------------


def seed() -> None:
    """Run in a subprocess: migrate the server's database, then a
    tournament of TABLES tables of four and two referees."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.support.factories import TournamentFactory, make_series, make_user

    make_series(TournamentFactory(slug=SLUG), sizes=(4,) * TABLES)
    make_user("schiri-a", "referee", password=PASSWORD)
    make_user("schiri-b", "referee", password=PASSWORD)


@pytest.fixture
def server(tmp_path):
    """A real server on an SQLite file named by DATABASE_URL (the default
    file gets the same options: the settings tests above), whose bots play
    in threads of their own and answer at once; its database file and what
    it wrote to stderr. Only where the suite runs on SQLite: under another
    DATABASE_URL it would test the same file again."""
    if os.environ.get("DATABASE_URL"):
        pytest.skip("a real server on SQLite: the run on SQLite tests it")
    database = tmp_path / "elsewhere" / "named.sqlite3"
    database.parent.mkdir()
    env = support.server_env(
        tmp_path,
        DIGITAL_BOTS_INLINE="0",
        DIGITAL_BOT_DELAY="0",
        DATABASE_URL=f"sqlite:///{database}",
    )
    subprocess.run(
        [sys.executable, "-c", f"import {__name__} as t; t.seed()"],
        cwd=support.ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert database.exists()
    port = support.free_port()
    log = tmp_path / "server.log"
    with log.open("w") as stderr:
        process = support.start_server(env, port, stderr=stderr)
        try:
            support.wait_until_up(port, process)
            yield port, database, log
        finally:
            support.stop(process)


class Browser:
    """One person's cookies and CSRF token, over plain HTTP."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.errors: list[str] = []

    def _header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def call(self, method, path, body="", headers=None):
        headers = {"Cookie": self._header(), **(headers or {})}
        if method == "POST":
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Origin"] = f"http://127.0.0.1:{self.port}"
        status, answer, content = support.request(
            self.port, method, path, body, headers, timeout=30
        )
        for cookie in answer.get_all("Set-Cookie") or []:
            name, value = cookie.split(";")[0].split("=", 1)
            self.cookies[name] = value
        if status >= 500:
            self.errors.append(f"{method} {path}: {status}")
        return status, answer, content

    def form(self, path, fields):
        if "csrftoken" not in self.cookies:
            self.call("GET", path)
        body = urllib.parse.urlencode(
            {**fields, "csrfmiddlewaretoken": self.cookies["csrftoken"]}
        )
        return self.call(
            "POST",
            path,
            body,
            {"Content-Type": "application/x-www-form-urlencoded"},
        )


def _choose(hand):
    """What a player taps: look, hold a knock, the first legal card, else
    what is due (the hammer: a knock); None while the bots move."""
    legal = hand["legal"]
    for act in ("look", "hold"):
        if act in legal["acts"]:
            return {"act": act}
    if legal["cards"]:
        return {"act": "play", "card": legal["cards"][0]}
    return {"act": legal["acts"][0]} if legal["acts"] else None


def _socket(port: int, token: str):
    """The seat's socket, as its phone opens it: the table's state at once
    and after every change (no polling, no waiting for time to pass)."""
    from websockets.sync.client import connect

    return connect(
        f"ws://127.0.0.1:{port}/ws/d/{token}/",
        origin=f"http://127.0.0.1:{port}",
        open_timeout=30,
    )


def _next_state(socket) -> dict:
    """The next state the socket sends; fails if none comes in 20 s (the
    bots stopped)."""
    while True:
        message = json.loads(socket.recv(timeout=20))
        if message.get("type") == "state":
            return message


def _practice(port: int, stop: threading.Event, report: dict) -> None:
    """A visitor plays practice tables against bots until `stop` (and one
    accepted move at least); records per table token the moves the site
    accepted."""
    browser = Browser(port)
    report["browser"] = browser
    accepted: dict[str, int] = {}
    report["accepted"] = accepted
    while not (stop.is_set() and sum(accepted.values())):
        status, answer, _ = browser.form("/ueben/", {"new": "1"})
        assert status == 302, f"no practice table: {status}"
        token = answer["Location"].strip("/").split("/")[-1]
        accepted[token] = 0
        done = 0  # the last sequence number the site accepted
        with _socket(port, token) as socket:
            while not (stop.is_set() and sum(accepted.values())):
                state = _next_state(socket)
                if state["status"] != "playing":
                    break  # the game is over: another table
                if state["next_seq"] <= done:
                    continue  # sent before our move was in
                hand = (state.get("game") or {}).get("hand")
                move = _choose(hand) if hand else None
                if move is None:  # the bots' turn: the socket says when
                    continue
                message = {
                    "type": "act",
                    "seq": state["next_seq"],
                    "version": state["version"],
                    **move,
                }
                status, _, _ = browser.call(
                    "POST",
                    f"/d/{token}/zug/",
                    json.dumps(message),
                    {"Content-Type": "application/json"},
                )
                if status == 200:
                    accepted[token] += 1
                    done = message["seq"]
                else:  # the state was old already: ask for the current one
                    socket.send(json.dumps({"type": "sync"}))


def _referee(port: int, username: str, tables: range, report: dict) -> None:
    """A referee signs in and enters the five games of each of `tables`."""
    browser = Browser(port)
    report["browser"] = browser
    status, _, _ = browser.form(
        "/konto/anmelden/", {"username": username, "password": PASSWORD}
    )
    assert status == 302, f"{username} could not sign in"
    saved = report.setdefault("saved", [])
    for number in tables:
        path = f"/t/{SLUG}/eingabe/serie/1/tisch/{number}/"
        _, _, page = browser.call("GET", path)
        revision = re.search(rb'name="revision" value="(\d+)"', page)
        assert revision, f"no entry form for table {number}"
        fields = {"mode": "quick", "revision": revision.group(1).decode()}
        for game in range(1, 6):
            fields[f"g{game}_winner"] = str((number + game) % 4 + 1)
            fields[f"g{game}_marks"] = str(game)
        status, _, _ = browser.form(path, fields)
        if status == 302:
            saved.append(number)


def _run_together(players, referees):
    """The players start, then the referees; once the referees are done
    the players stop. Each job's report, and what failed."""
    stop = threading.Event()
    failures = []

    def run(job, report):
        try:
            job[0](*job[1:], report)
        except Exception as error:  # collected for the asserts
            failures.append(repr(error))

    def start(jobs):
        reports = [{} for _ in jobs]
        threads = [
            threading.Thread(target=run, args=(job, report))
            for job, report in zip(jobs, reports, strict=True)
        ]
        for thread in threads:
            thread.start()
        return reports, threads

    playing, players_threads = start([(*job, stop) for job in players])
    entering, referees_threads = start(referees)
    for thread in referees_threads:
        thread.join(120)
    stop.set()
    for thread in players_threads:
        thread.join(120)
    return playing, entering, failures


def _bots_idle(port: int, token: str) -> dict:
    """The table's state once its bots wait for the person (or it is over);
    fails if they stop before that (a runner that gave up)."""
    with _socket(port, token) as socket:
        while True:
            state = _next_state(socket)
            hand = (state.get("game") or {}).get("hand")
            if state["status"] != "playing" or (hand and _choose(hand)):
                return state


@pytest.mark.slow
@pytest.mark.server
def test_writers_at_once_on_sqlite_lose_nothing(server):
    port, database, log = server
    half = TABLES // 2
    players, referees, failures = _run_together(
        [(_practice, port) for _ in range(PLAYERS)],
        [
            (_referee, port, "schiri-a", range(1, half + 1)),
            (_referee, port, "schiri-b", range(half + 1, TABLES + 1)),
        ],
    )
    errors = [e for report in players + referees for e in report["browser"].errors]
    assert not failures, failures
    assert not errors, errors
    assert "database is locked" not in log.read_text()
    # Nothing lost: every accepted move is the seat's (its last sequence
    # number), every table's result is saved, and the bots played on.
    accepted = [report["accepted"] for report in players]
    assert all(sum(moves.values()) for moves in accepted)
    for moves_of in accepted:
        for token, moves in moves_of.items():
            assert _bots_idle(port, token)["next_seq"] == moves + 1
    saved = sorted(referees[0]["saved"] + referees[1]["saved"])
    assert saved == list(range(1, TABLES + 1))
    with sqlite3.connect(database) as db:
        versions = db.execute(
            "SELECT t.number FROM tournament_resultversion v "
            "JOIN tournament_table t ON t.id = v.table_id ORDER BY t.number"
        ).fetchall()
    assert [number for (number,) in versions] == list(range(1, TABLES + 1))
