"""A server process killed while it saves a result (issue 9): no confirmed
result is lost and nothing half-written is left.

Real server processes (uvicorn on config.asgi) come from the test-only
launcher `tests/site/fault_server.py`, which can make a result service
stop dead inside the request's transaction. The test kills the server
process with SIGKILL right there and then looks at the database: every row
it had before is still there unchanged (confirmed results, versions,
revisions, scores, totals, audit), the scores and totals are what the
services make of the confirmed versions, and a new server process serves
the standings and takes the same request again. Three kills in a row:
during a first entry, during an organizer's correction of a confirmed
result, during a confirmation. (The launcher imports the site once and
forks each server from it: a start then takes a fraction of a second.)

Database: with PostgreSQL (DATABASE_URL) the servers use pytest-django's
test database itself; with SQLite (an in-memory test database) the test
copies its database into a file for them, and copies that file back to look
at it. Either way the test reads it with the ORM.
"""

import contextlib
import json
import os
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction

from tests.support import servers as support
from tests.support.factories import TournamentFactory, make_series, make_user
from tests.support.results import games, quick_form
from tournament.models import (
    AuditEvent,
    EntryTotal,
    GameScore,
    ResultVersion,
    Series,
    Table,
    Tournament,
)
from tournament.results.services import (
    rebuild_table_scores,
    result_confirm,
    result_enter,
    totals_refresh,
)

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]

SLUG = "stromausfall"
PASSWORD = "pw"  # make_user's
START_SECONDS = 60  # the launcher's imports, on a busy machine
HANG_WAIT_SECONDS = 20

# Per table: (winner seat, marks kept) for the five games.
SEEDED = {
    1: [(1, 7), (2, 3), (1, 5), (4, 1), (3, 2)],
    2: [(2, 6), (2, 6), (3, 4), (1, 2), (4, 7)],
    3: [(3, 1), (4, 2), (1, 3), (2, 4), (3, 5)],
}
FIRST_ENTRY = [(1, 2), (3, 7), (2, 4), (2, 1), (3, 3)]  # table 4 (three seats)
CORRECTION = [(2, 6), (2, 6), (4, 4), (1, 2), (4, 7)]  # table 2, game 3 fixed
REASON = "Spiel 3: Gewinner falsch übertragen"


# --- the database, as the servers and the test see it ----------------------


class Database:
    """The servers' database. PostgreSQL: the test database itself. SQLite:
    a file, filled from the in-memory test database (`push`) and read back
    into it (`pull`) with SQLite's backup API."""

    def __init__(self, var_dir: Path) -> None:
        self.sqlite = connection.vendor == "sqlite"
        self.file = var_dir / "siebenschraem.sqlite3"  # where settings put it

    def env(self) -> dict[str, str]:
        if self.sqlite:
            return {}
        url = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
        name = connection.settings_dict["NAME"]  # the test database
        return {"DATABASE_URL": urllib.parse.urlunsplit(url._replace(path=f"/{name}"))}

    def push(self) -> None:
        if self.sqlite:
            connection.ensure_connection()
            with contextlib.closing(sqlite3.connect(self.file)) as target:
                connection.connection.backup(target)

    def pull(self) -> None:
        if self.sqlite:
            connection.ensure_connection()
            with contextlib.closing(sqlite3.connect(self.file)) as source:
                source.backup(connection.connection)


def _state() -> dict[str, Any]:
    """Everything a result save writes, as plain data."""
    versions = ResultVersion.objects.filter(table__series__tournament__slug=SLUG)
    return {
        "versions": {
            (v["table__number"], v["number"]): v
            for v in versions.values(
                "id",
                "table__number",
                "number",
                "status",
                "mode",
                "data",
                "reason",
                "entered_by__username",
                "entered_at",
                "decided_by__username",
                "decided_at",
                "complete",
            )
        },
        "revisions": dict(
            Table.objects.filter(series__tournament__slug=SLUG).values_list(
                "number", "result_revision"
            )
        ),
        "series": list(
            Series.objects.filter(tournament__slug=SLUG).values_list(
                "number", "status", "version"
            )
        ),
        **_scores(),
        "audit": list(
            AuditEvent.objects.filter(tournament__slug=SLUG)
            .order_by("id")
            .values(
                "id",
                "action",
                "object_type",
                "object_id",
                "actor__username",
                "before",
                "after",
                "note",
                "at",
            )
        ),
    }


def _scores() -> dict[str, Any]:
    return {
        "scores": list(
            GameScore.objects.filter(series__tournament__slug=SLUG)
            .order_by("table__number", "game", "seat")
            .values_list(
                "series__number",
                "table__number",
                "version_id",
                "game",
                "seat",
                "entry__start_number",
                "won",
                "marks",
                "points",
                "three_table",
            )
        ),
        "totals": {
            t[0]: t[1:]
            for t in EntryTotal.objects.filter(
                entry__tournament__slug=SLUG
            ).values_list(
                "entry__start_number",
                "points",
                "games_won",
                "best_game",
                "three_table_games",
                "series_points",
            )
        },
    }


def _recomputed() -> dict[str, Any]:
    """The scores and totals the services make of the confirmed versions
    (computed in a transaction that is rolled back)."""
    with transaction.atomic():
        kept = list(
            EntryTotal.objects.filter(entry__tournament__slug=SLUG).values_list(
                "entry_id", flat=True
            )
        )
        GameScore.objects.filter(series__tournament__slug=SLUG).delete()
        EntryTotal.objects.filter(entry__tournament__slug=SLUG).delete()
        confirmed = ResultVersion.objects.filter(
            table__series__tournament__slug=SLUG,
            status=ResultVersion.Status.CONFIRMED,
        ).select_related("table__series__tournament")
        for version in confirmed:
            rebuild_table_scores(version.table, version)
        # Totals kept for anybody else must come out as nothing at all.
        totals_refresh(entry_ids=kept, tournament=Tournament.objects.get(slug=SLUG))
        out = _scores()
        transaction.set_rollback(True)
    return out


def _points_from_confirmed() -> dict[int, int]:
    """Each player's points, worked out from the confirmed versions' games
    by hand: the standings a server shows must be exactly these (a player
    at no confirmed table is not in them)."""
    tournament = Tournament.objects.get(slug=SLUG)
    points: dict[int, int] = {}
    for version in ResultVersion.objects.filter(
        table__series__tournament=tournament, status=ResultVersion.Status.CONFIRMED
    ).select_related("table"):
        seats = dict(version.table.seats.values_list("number", "entry__start_number"))
        for number in seats.values():
            points.setdefault(number, 0)
        for game in version.data["games"]:
            points[seats[game["winner"]]] += game["marks"] + tournament.win_bonus
    return points


def _games(version: dict[str, Any]) -> list[tuple[int, int]]:
    return [(g["winner"], g["marks"]) for g in version["data"]["games"]]


def _confirmed(state: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {
        table: v
        for (table, _), v in state["versions"].items()
        if v["status"] == ResultVersion.Status.CONFIRMED
    }


def _seed() -> None:
    """A released series of four tables: 1 and 2 confirmed, 3 entered and
    waiting for a second referee, 4 (three seats) not entered yet."""
    tournament = TournamentFactory(slug=SLUG, name="Stromausfall-Test")
    series = make_series(tournament, sizes=(4, 4, 4, 3))
    referee, second = make_user("schiri", "referee"), make_user("schiri2", "referee")
    make_user("orga", "organizer")
    tables = {t.number: t for t in Table.objects.filter(series=series)}
    for number, pairs in SEEDED.items():
        version = result_enter(
            actor=referee,
            table=tables[number],
            games=games(pairs),
            mode="quick",
            revision=None,
        )
        if number != 3:
            result_confirm(actor=second, version=version, revision=None)


# --- servers and browsers ----------------------------------------------------


class Launcher:
    """fault_server.py: imports the site once, then forks server processes
    (see its docstring for the commands)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log
        self.control = Path(env["FAULT_DIR"])
        # The servers report the fault point they reached into the other
        # end of this pair, which the launcher and every server it forks
        # inherit.
        self.reports, self.report_to = socket.socketpair(
            socket.AF_UNIX, socket.SOCK_DGRAM
        )
        fd = self.report_to.fileno()
        with log.open("ab") as out:
            self.process = support.spawn(
                [sys.executable, "-m", "tests.site.fault_server"],
                cwd=support.ROOT,
                env={**env, "FAULT_REPORT_FD": str(fd)},
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=out,
                bufsize=0,
                pass_fds=[fd],
            )

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def ask(self, command: str, seconds: float = 10) -> str:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{command}\n".encode())
        reply = b""
        deadline = time.monotonic() + seconds
        while not reply.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(left, 0))
            assert ready, f"no answer to {command!r}:\n{self.log_tail()}"
            chunk = os.read(self.process.stdout.fileno(), 100)
            assert chunk, f"the launcher ended at {command!r}:\n{self.log_tail()}"
            reply += chunk
        return reply.decode().strip()

    def serve(self) -> "Server":
        # The first answer waits for the launcher's imports.
        pid, port = map(int, self.ask("serve", START_SECONDS).split())
        server = Server(self, port, pid)
        server.wait_until_up()
        return server

    def next_report(self, seconds: float) -> dict[str, Any] | None:
        """The next report: a server's at the fault point it stands at (see
        fault_server.py), or the test's own (`report`); None if none came
        within `seconds`."""
        self.reports.settimeout(seconds)
        try:
            return json.loads(self.reports.recv(65536))
        except TimeoutError:
            return None

    def report(self, **what: Any) -> None:
        """Report into the same queue as the servers (wakes `next_report`)."""
        self.report_to.send(json.dumps(what).encode())

    def close(self) -> None:
        """End of stdin: the launcher stops its servers and exits."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.reports.close()
        self.report_to.close()


class Server:
    """One server process, forked by the launcher."""

    def __init__(self, launcher: Launcher, port: int, pid: int) -> None:
        self.launcher, self.port, self.pid = launcher, port, pid

    def running(self) -> bool:
        return self.launcher.ask(f"poll {self.pid}") == "running"

    def wait_until_up(self) -> None:
        """The first answer: the port listened before the fork, so the
        request waits in its queue until the server takes it (and fails at
        once if the server ends first)."""
        try:
            status = support.request(self.port, "GET", "/", timeout=START_SECONDS)[0]
        except OSError as error:
            raise AssertionError(
                f"the server did not answer ({error!r}; running: "
                f"{self.running()}):\n{self.launcher.log_tail()}"
            ) from error
        assert status == 200, f"first answer {status}:\n{self.launcher.log_tail()}"

    def kill(self) -> None:
        """SIGKILL: no cleanup, no rollback, no atexit – a pulled plug."""
        os.kill(self.pid, signal.SIGKILL)
        assert self.launcher.ask(f"wait {self.pid}") == str(-signal.SIGKILL)


class Browser:
    """A signed-in user, by session cookie (sessions live in the database,
    so one sign-in lasts across server restarts)."""

    def __init__(self, server: Server, username: str) -> None:
        self.csrf, self.cookies = support.http_sign_in(server.port, username, PASSWORD)

    def post(self, server: Server, path: str, fields: dict[str, Any]):
        return support.post_form(
            server.port, path, fields, csrf=self.csrf, cookies=self.cookies
        )


def _table_path(table: int, action: str = "") -> str:
    return f"/t/{SLUG}/eingabe/serie/1/tisch/{table}/{action}"


def _result_form(pairs, revision: int, reason: str = "") -> dict[str, Any]:
    return quick_form(games(pairs), revision=revision, reason=reason)


def _arm(control: Path, point: str) -> None:
    partial = control / "arm.part"
    partial.write_text(point)
    partial.replace(control / "arm")


def _kill_during(server: Server, point: str, send) -> bool:
    """Arm the fault point, send the request (`send(server)`) in a thread,
    wait for the server's report that it stands at the point, kill it
    there. Returns whether a transaction was open at that moment."""
    launcher = server.launcher
    _arm(launcher.control, point)
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["response"] = send(server)
        except Exception as error:  # the connection dies with the server
            outcome["error"] = error
            return
        launcher.report(answered=True)  # too early: wake the test

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    where = launcher.next_report(HANG_WAIT_SECONDS)
    if where is None or "point" not in where:
        answer = outcome.get("error")
        if "response" in outcome:
            status, _, body = outcome["response"]
            answer = f"{status} {body[:2000]!r}"
        raise AssertionError(
            f"the request did not reach {point} (answer: {answer!r}; server "
            f"running: {server.running()}):\n{launcher.log_tail()}"
        )
    server.kill()
    thread.join(10)
    assert (where["point"], where["pid"]) == (point, server.pid)
    assert "response" not in outcome, "a killed server answered"
    return where["in_transaction"]


# --- what must hold after a kill and after the retry -------------------------


def _assert_kill_leaves_nothing(
    server: Server, db: Database, before: dict[str, Any], what: str, point: str, send
) -> None:
    """Kill the server at `point` of the request `send` makes; then the
    database must be exactly as it was `before`."""
    in_transaction = _kill_during(server, point, send)
    _assert_nothing_written(db, before, what)
    # Checked last, so that a save that is not atomic fails above, on what it
    # left behind; here only a point that is no longer inside the save.
    assert in_transaction, f"{what}: {point} is not inside the transaction"


def _assert_nothing_written(db: Database, before: dict[str, Any], what: str) -> None:
    db.pull()
    after = _state()
    for table, version in _confirmed(before).items():
        assert _confirmed(after).get(table) == version, (
            f"{what}: the confirmed result of table {table} changed"
        )
    assert after["versions"] == before["versions"], f"{what}: versions changed"
    assert after["revisions"] == before["revisions"], f"{what}: revisions changed"
    assert after["series"] == before["series"], f"{what}: series changed"
    assert after["audit"] == before["audit"], f"{what}: audit events written"
    assert after["scores"] == before["scores"], f"{what}: game scores changed"
    assert after["totals"] == before["totals"], f"{what}: totals changed"
    assert _recomputed() == _scores(), f"{what}: scores disagree with the results"


def _assert_serves_standings(server: Server) -> None:
    status, _, _ = support.request(server.port, "GET", f"/t/{SLUG}/tabelle/")
    assert status == 200
    status, _, body = support.request(server.port, "GET", f"/api/t/{SLUG}/standings/")
    assert status == 200
    shown = {r["start_number"]: r["points"] for r in json.loads(body)["rows"]}
    assert shown == _points_from_confirmed()


def _retry(
    server: Server, db: Database, browser: Browser, path: str, fields: dict[str, Any]
) -> dict[str, Any]:
    """On the new server: the standings are served, the same request is
    taken (redirect to the entry overview, not back to the table)."""
    _assert_serves_standings(server)
    status, headers, body = browser.post(server, path, fields)
    assert (status, headers["Location"]) == (302, f"/t/{SLUG}/eingabe/"), body[:2000]
    db.pull()
    return _state()


def _assert_only_this_changed(
    before: dict[str, Any], after: dict[str, Any], table: int, action: str
) -> list[dict[str, Any]]:
    """The retried request changed its table only, bumped its revision once
    and wrote one audit event; returns the table's versions."""
    assert {k: v for k, v in after["versions"].items() if k[0] != table} == {
        k: v for k, v in before["versions"].items() if k[0] != table
    }
    assert after["revisions"] == {
        **before["revisions"],
        table: before["revisions"][table] + 1,
    }
    assert after["audit"][: len(before["audit"])] == before["audit"]
    new_events = after["audit"][len(before["audit"]) :]
    assert [e["action"] for e in new_events] == [action]
    assert _recomputed() == _scores()
    return [v for k, v in sorted(after["versions"].items()) if k[0] == table]


# --- the test -------------------------------------------------------------------


def test_a_killed_server_loses_no_result_and_leaves_none_half_written(tmp_path):
    db = Database(tmp_path)
    control = tmp_path / "fault"
    control.mkdir()
    env = {**support.server_env(tmp_path, FAULT_DIR=str(control)), **db.env()}
    # It imports the site meanwhile; it opens the database at the first serve.
    launcher = Launcher(env, tmp_path / "log")
    try:
        _seed()
        db.push()
        server = launcher.serve()
        referee, second, organizer = (
            Browser(server, name) for name in ("schiri", "schiri2", "orga")
        )
        db.pull()
        seeded = _state()
        assert sorted(_confirmed(seeded)) == [1, 2]
        assert _recomputed() == _scores()

        # 1. A first entry (table 4; double entry: it will wait for a second
        # referee), killed when everything is written but not committed.
        first = _result_form(FIRST_ENTRY, seeded["revisions"][4])
        _assert_kill_leaves_nothing(
            server,
            db,
            seeded,
            "killed first entry",
            "audit_record:after",
            lambda s: referee.post(s, _table_path(4), first),
        )
        server = launcher.serve()
        entered = _retry(server, db, referee, _table_path(4), first)
        [version] = _assert_only_this_changed(seeded, entered, 4, "result.enter")
        assert version["status"] == ResultVersion.Status.PENDING
        assert _games(version) == FIRST_ENTRY
        assert version["entered_by__username"] == "schiri"

        # 2. The organizer corrects table 2's confirmed result (it counts at
        # once), killed halfway through rebuilding the scores: old version
        # superseded, new one confirmed, game scores rewritten, totals not.
        correction = _result_form(CORRECTION, entered["revisions"][2], REASON)
        _assert_kill_leaves_nothing(
            server,
            db,
            entered,
            "killed correction",
            "totals_refresh:before",
            lambda s: organizer.post(s, _table_path(2), correction),
        )
        server = launcher.serve()
        corrected = _retry(server, db, organizer, _table_path(2), correction)
        old, new = _assert_only_this_changed(entered, corrected, 2, "result.correct")
        assert old == {**entered["versions"][2, 1], "status": "superseded"}
        assert new["status"] == ResultVersion.Status.CONFIRMED
        assert (_games(new), new["reason"]) == (CORRECTION, REASON)
        assert new["decided_by__username"] == "orga"

        # 3. A second referee confirms table 3, killed right after its scores
        # and totals were built (series status, revision and audit to come).
        decision = {"version": 1, "revision": corrected["revisions"][3]}
        confirm = _table_path(3, "bestaetigen/")
        _assert_kill_leaves_nothing(
            server,
            db,
            corrected,
            "killed confirmation",
            "rebuild_table_scores:after",
            lambda s: second.post(s, confirm, decision),
        )
        server = launcher.serve()
        confirmed = _retry(server, db, second, confirm, decision)
        [version] = _assert_only_this_changed(corrected, confirmed, 3, "result.confirm")
        assert version["decided_at"] is not None
        assert version == {
            **corrected["versions"][3, 1],
            "status": "confirmed",
            "decided_by__username": "schiri2",
            "decided_at": version["decided_at"],
        }
        assert sorted(_confirmed(confirmed)) == [1, 2, 3]
        _assert_serves_standings(server)
    finally:
        launcher.close()
