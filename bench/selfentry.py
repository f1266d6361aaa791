"""Entry at the table through a bad Wi-Fi (issue 16): every table enters and
confirms its own result from the players' phones, through a proxy that loses
answers; nothing may be lost and nothing may count twice.

Server: uvicorn (one worker by default) on a free 127.0.0.1 port, with a
400-player tournament whose series 1 is released (100 tables of four) and
entry at the table on ("one other player confirms"). A fresh SQLite file
(WAL) in a temp folder by default; with DATABASE_URL, a database of its own
on that PostgreSQL server (dropped at the end). Settings: config.test_settings
(DEBUG off, static files without collectstatic), the personal links' rate
limit raised: every phone here comes from 127.0.0.1.

The hall's Wi-Fi is a proxy inside this benchmark, between the phones and the
server: of the requests it gets it refuses `--refuse` (5 %) before they reach
the server (the connection is cut), and of the answers it drops `--drop`
(20 %) after the server handled the request (the server saved the entry, the
phone never hears of it). With `--twice` a share of the requests reaches
the server twice at the same moment (a repeat overtaking its first try: the
key's unique row decides). Seeded (`--seed`): the same losses every run.

Each table is two phones, all 100 tables at once: seat 1 asks "Mein Turnier"
(JSON) for the table's revision, then posts the five games as the outbox
does (static/js/outbox.js: the form's fields, a fresh Idempotency-Key, Accept:
application/json); seat 2 asks "Mein Turnier" for the waiting version and
posts *Stimmt* the same way. A phone that gets no answer (a cut, a dropped
answer, a 5xx or a 429) sends the same submission again with the same key,
after 0.2, 0.4, 0.8 … 2 s (the phone waits 2, 4, 8 … 30 s: ten times
faster here); a GET is simply asked again. Any other answer is final and
checked: the entry "entered", the confirmation "confirmed".

At the end the database is asked, not the phones: `confirmed` tables with a
confirmed result of the five games seat 1 sent; `lost` submissions the phones
were told were saved (or never got an answer for) that the database lacks;
`duplicated` writes beyond one per submission (audit rows of entries and
answers, result versions, answers per player); `retries` the submissions
sent again; `replayed` the answers that were a repeat's first answer;
`p50_ms`/`p95_ms` from a submission's first send to its final answer,
retries included (`request_p50_ms`: single requests that got an answer).

    python bench/selfentry.py [--tables 100] [--drop 0.2] [--refuse 0.05]
                              [--twice 0] [--workers 1] [--seed 16]
    DATABASE_URL=postgres://… REDIS_URL=redis://… python bench/selfentry.py --workers 2

The last line is one JSON object; the exit status is 1 unless every table is
confirmed with nothing lost and nothing duplicated.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SLUG = "selfentry"
PLAYERS = 400
TIMEOUT = 30.0  # per request
ATTEMPTS = 40  # a submission sent this often without an answer is lost
BACKOFF = (0.2, 0.4, 0.8, 1.6, 2.0)
# Seat 1 of every table wins game g keeping MARKS[g] marks.
MARKS = (7, 5, 3, 6, 1)


# --- The server ---------------------------------------------------------------


def server_app() -> Any:
    """uvicorn's app factory: the site (its own Redis key prefix, if any)."""
    from bench._django import asgi_app

    return asgi_app(redis_prefix_variable="BENCH_SELFENTRY_PREFIX")


def start_server(
    port: int, workers: int, env: dict[str, str]
) -> subprocess.Popen[bytes]:
    from bench._django import start_uvicorn

    return start_uvicorn("bench.selfentry:server_app", port, env, workers=workers)


# --- HTTP, one request per connection -----------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # lower-case names, last value
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


async def read_message(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """One HTTP message: its head (up to the blank line) and its body (by
    Content-Length, else up to the end of the connection)."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = None
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if length is None:
        return head, await reader.read()
    return head, await reader.readexactly(length)


async def http(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> Response:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        lines += [f"Content-Length: {len(body)}", "Connection: close"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin1") + body)
        await writer.drain()
        head, data = await read_message(reader)
    finally:
        writer.close()
    status_line, *header_lines = head.decode("latin1").split("\r\n")
    received = {}
    for line in header_lines:
        if line:
            name, _, value = line.partition(":")
            received[name.strip().lower()] = value.strip()
    if "chunked" in received.get("transfer-encoding", ""):
        data = unchunk(data)
    return Response(int(status_line.split()[1]), received, data)


def unchunk(data: bytes) -> bytes:
    out, rest = [], data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


# --- The hall's Wi-Fi ---------------------------------------------------------


@dataclass
class Wifi:
    """What the proxy did."""

    requests: int = 0
    refused: int = 0
    dropped: int = 0
    doubled: int = 0


async def forward(upstream: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", upstream)
    try:
        writer.write(request)
        await writer.drain()
        return await reader.read()  # the server closes after its answer
    finally:
        writer.close()


async def proxy(
    upstream: int,
    args: argparse.Namespace,
    rng: random.Random,
    wifi: Wifi,
) -> asyncio.Server:
    """A proxy on a free port: one request per connection, passed on to the
    server with Connection: close; a share refused before the server, a
    share of answers dropped after it, and (`--twice`) a share sent twice at
    the same moment, as by a phone whose repeat overtakes its first try."""

    async def handle(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            head, body = await read_message(reader)
        except (
            asyncio.IncompleteReadError,
            ConnectionError,
            asyncio.LimitOverrunError,
        ):
            writer.transport.abort()
            return
        wifi.requests += 1
        if rng.random() < args.refuse:
            wifi.refused += 1
            writer.transport.abort()  # never reached the server
            return
        lines = [
            line
            for line in head.decode("latin1").split("\r\n")
            if line and not line.lower().startswith("connection:")
        ]
        lines.append("Connection: close")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin1") + body
        copies = 2 if rng.random() < args.twice else 1
        wifi.doubled += copies - 1
        try:
            answers = await asyncio.gather(
                *(forward(upstream, request) for _ in range(copies))
            )
        except ConnectionError:
            writer.transport.abort()
            return
        answer = answers[0]
        if rng.random() < args.drop:
            wifi.dropped += 1
            writer.transport.abort()  # handled by the server, lost on the way
            return
        writer.write(answer)
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0, limit=1 << 20)


# --- The phones -----------------------------------------------------------------


@dataclass
class Stats:
    submissions: list[float] = field(default_factory=list)  # ms, first try to answer
    requests: list[float] = field(default_factory=list)  # ms, answered requests
    retries: int = 0  # submissions sent again
    get_retries: int = 0
    replayed: int = 0
    told_saved: set[tuple[str, int]] = field(default_factory=set)
    unanswered: set[tuple[str, int]] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    def error(self, message: str) -> None:
        self.errors.append(message)
        if len(self.errors) <= 10:
            print(f"ERROR: {message}", file=sys.stderr)


RETRY_STATUS = {408, 429, 500, 502, 503, 504}


async def ask(port: int, path: str, stats: Stats) -> Any:
    """GET JSON, asked again until it answers (a GET changes nothing)."""
    for attempt in range(ATTEMPTS):
        try:
            response = await asyncio.wait_for(
                http(port, "GET", path, {"Accept": "application/json"}), TIMEOUT
            )
            if response.status not in RETRY_STATUS:
                return response.json()
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
            pass
        stats.get_retries += 1
        await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
    raise RuntimeError(f"GET {path}: no answer")


async def submit(
    port: int, path: str, fields: list[tuple[str, str]], stats: Stats
) -> Response | None:
    """POST as the outbox does: one key for every try until an answer."""
    key = str(uuid.uuid4())
    body = urllib.parse.urlencode(fields).encode()
    headers = {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "Idempotency-Key": key,
    }
    started = time.perf_counter()
    for attempt in range(ATTEMPTS):
        if attempt:
            stats.retries += 1
            await asyncio.sleep(BACKOFF[min(attempt - 1, len(BACKOFF) - 1)])
        sent = time.perf_counter()
        try:
            response = await asyncio.wait_for(
                http(port, "POST", path, headers, body), TIMEOUT
            )
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            continue
        stats.requests.append((time.perf_counter() - sent) * 1000)
        if response.status in RETRY_STATUS:
            continue
        stats.submissions.append((time.perf_counter() - started) * 1000)
        if response.headers.get("idempotency-replayed") == "true":
            stats.replayed += 1
        return response
    return None


def mine(entry: dict[str, Any]) -> str:
    return f"/t/{SLUG}/mein/{entry['token']}/"


async def table_phones(port: int, table: dict[str, Any], stats: Stats) -> None:
    """Seat 1 enters the five games, seat 2 says Stimmt."""
    number = table["number"]
    first, second = table["seats"][0], table["seats"][1]
    base = f"{mine(first)}serie/1/tisch/{number}/"
    state = await ask(port, mine(first), stats)
    fields = [("mode", "quick"), ("revision", str(state["revision"]))]
    for game, marks in enumerate(MARKS, 1):
        fields += [(f"g{game}_winner", "1"), (f"g{game}_marks", str(marks))]
    answer = await submit(port, base + "eingeben/", fields, stats)
    if answer is None:
        stats.unanswered.add(("enter", number))
        return
    if answer.status != 200 or answer.json().get("state") != "entered":
        stats.error(
            f"table {number}: entry answered {answer.status} {answer.body[:200]!r}"
        )
        return
    stats.told_saved.add(("enter", number))
    state = await ask(port, mine(second), stats)
    if not state.get("may_confirm"):
        stats.error(f"table {number}: seat 2 may not confirm: {state}")
        return
    path = f"{mine(second)}serie/1/tisch/{number}/stimmt/"
    answer = await submit(port, path, [("version", str(state["version"]))], stats)
    if answer is None:
        stats.unanswered.add(("confirm", number))
        return
    if answer.status != 200 or answer.json().get("state") != "confirmed":
        stats.error(
            f"table {number}: Stimmt answered {answer.status} {answer.body[:200]!r}"
        )
        return
    stats.told_saved.add(("confirm", number))


# --- Data and the check at the end ----------------------------------------------


def build(tables: int) -> list[dict[str, Any]]:
    """400 players checked in; series 1 released, `tables` tables of four;
    entry at the table on. Returns per table its number and seats' links."""
    from bench.live import registrations
    from tournament.models import Entry, Seat, Series, Table, Tournament

    rng = random.Random(16)
    tournament = Tournament.objects.create(
        name="Rheinlandmeisterschaft (Eingabe am Tisch)",
        slug=SLUG,
        date="2026-12-05",
        table_entry="one",
    )
    people = registrations(max(PLAYERS, 4 * tables))
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=i + 1, checked_in=True)
        for i, p in enumerate(people)
    )
    entries = list(Entry.objects.filter(tournament=tournament).order_by("start_number"))
    rng.shuffle(entries)
    series = Series.objects.create(tournament=tournament, number=1, status="released")
    rows = Table.objects.bulk_create(
        Table(series=series, number=t + 1, size=4) for t in range(tables)
    )
    Seat.objects.bulk_create(
        Seat(series=series, table=table, number=s + 1, entry=e)
        for t, table in enumerate(rows)
        for s, e in enumerate(entries[4 * t : 4 * t + 4])
    )
    return [
        {
            "number": table.number,
            "seats": [
                {"start_number": e.start_number, "token": e.link_token}
                for e in entries[4 * t : 4 * t + 4]
            ],
        }
        for t, table in enumerate(rows)
    ]


def check(stats: Stats, tables: int) -> dict[str, int]:
    """What the database holds, against what the phones were told."""
    from collections import Counter

    from tournament.models import ResultVersion

    versions = ResultVersion.objects.filter(
        table__series__tournament__slug=SLUG
    ).select_related("table")
    per_table = Counter(v.table.number for v in versions)
    expected_points = sum(marks + 7 for marks in MARKS)
    confirmed = {
        v.table.number
        for v in versions
        if v.status == "confirmed"
        and sum(g["points"] for g in v.data["games"] if g["winner"] == 1)
        == expected_points
    }
    entered = {number for number in per_table}
    duplicated = sum(n - 1 for n in per_table.values() if n > 1) + repeats(SLUG)
    lost = len(stats.unanswered)
    for kind, number in stats.told_saved:
        saved = number in confirmed if kind == "confirm" else number in entered
        lost += not saved
    return {"confirmed": len(confirmed), "lost": lost, "duplicated": duplicated}


def repeats(slug: str) -> int:
    """Players' answers and audited entries, confirmations and agreements
    of the tournament `slug` stored more than once: each one too many."""
    from collections import Counter

    from tournament.models import AuditEvent, ResultAnswer

    answers = Counter(
        (a.version_id, a.entry_id)
        for a in ResultAnswer.objects.filter(
            version__table__series__tournament__slug=slug
        )
    )
    audit = Counter(
        (e.action, e.object_id)
        for e in AuditEvent.objects.filter(
            tournament__slug=slug,
            action__in=[
                "result.table_enter",
                "result.table_confirm",
                "result.table_agree",
            ],
        )
    )
    return sum(n - 1 for n in answers.values() if n > 1) + sum(
        n - 1 for n in audit.values() if n > 1
    )


# --- Running it ---------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    from bench._django import wait_for_server

    async def home() -> int:
        return (await http(port, "GET", "/", {})).status

    await wait_for_server(process, home)


async def measure(
    port: int,
    process: subprocess.Popen[bytes],
    tables: list[dict[str, Any]],
    args: argparse.Namespace,
) -> tuple[Stats, Wifi, float]:
    await wait_until_up(port, process)
    wifi = Wifi()
    server = await proxy(port, args, random.Random(args.seed), wifi)
    through = server.sockets[0].getsockname()[1]
    stats = Stats()
    started = time.perf_counter()
    async with server:
        await asyncio.gather(*(table_phones(through, t, stats) for t in tables))
    return stats, wifi, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--drop", type=float, default=0.2, help="answers lost")
    parser.add_argument("--refuse", type=float, default=0.05, help="requests cut")
    parser.add_argument(
        "--twice", type=float, default=0.0, help="requests sent twice at once"
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()

    redis_url = os.environ.pop("REDIS_URL", "")  # the server's, not ours
    database_url = os.environ.get("DATABASE_URL", "")
    if args.workers > 1 and not redis_url:
        raise SystemExit(
            "several workers share their cache only through Redis: set REDIS_URL"
        )
    run = f"bench_selfentry_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    sys.path.insert(0, str(ROOT))
    from bench.load import isolated_run, server_cpu

    with isolated_run(run, redis_url):
        from bench.live import free_port, stop_server

        started = time.perf_counter()
        tables = build(args.tables)
        from django.db import connections

        connections.close_all()
        print(
            f"built {max(PLAYERS, 4 * args.tables)} players, series 1 released with "
            f"{args.tables} tables, entry at the table on, in "
            f"{time.perf_counter() - started:.1f} s"
        )
        env = os.environ.copy()
        env |= {"SECURE_COOKIES": "0", "PLAYER_LINK_REQUESTS": "1000000"}
        if redis_url:
            env |= {"REDIS_URL": redis_url, "BENCH_SELFENTRY_PREFIX": run}
        port = free_port()
        process = start_server(port, args.workers, env)
        try:
            stats, wifi, took = asyncio.run(measure(port, process, tables, args))
            cpu = server_cpu(process.pid)
        finally:
            stop_server(process)
        found = check(stats, args.tables)
        connections.close_all()
    print(
        f"{args.tables} tables in {took:.1f} s through the Wi-Fi: {wifi.requests} "
        f"requests, {wifi.refused} cut before the server, {wifi.dropped} answers "
        f"dropped after it; {stats.retries} submissions sent again "
        f"({stats.replayed} answered with their first answer), {stats.get_retries} "
        f"pages asked again; server CPU {cpu:.1f} s"
    )
    result = {
        "tables": args.tables,
        "confirmed": found["confirmed"],
        "lost": found["lost"],
        "duplicated": found["duplicated"],
        "retries": stats.retries,
        "p50_ms": round(percentile(stats.submissions, 0.5), 1),
        "p95_ms": round(percentile(stats.submissions, 0.95), 1),
        "request_p50_ms": round(percentile(stats.requests, 0.5), 1),
        "replayed": stats.replayed,
        "refused_by_wifi": wifi.refused,
        "dropped_by_wifi": wifi.dropped,
        "doubled_by_wifi": wifi.doubled,
        "errors": len(stats.errors),
        "workers": args.workers,
        "database": "postgresql" if database_url else "sqlite",
    }
    print(json.dumps(result))
    ok = (
        result["confirmed"] == result["tables"]
        and result["lost"] == 0
        and result["duplicated"] == 0
        and not stats.errors
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
