"""Live benchmark (issue 6): a real server process, N websocket clients on the
standings (default 300), results confirmed through the referee's HTTP form;
how long until every client has the new standings (p50, p95, max, from the
moment the confirmation is sent). Then requests/s of the standings page
against a trivial page under the same concurrent load, with the clients
still connected.

Loopback only: uvicorn on a free 127.0.0.1 port, a temp SQLite database
(migrated, a 400-player tournament built in it). Every loop is bounded; the
server is stopped at the end. Last line: one JSON object.

    python bench/live.py [--clients 300] [--rounds 10] [--seconds 3] [--pairs 3]
"""

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SLUG = "live"
PASSWORD = "bench-referee"


# --- The server process --------------------------------------------------------


def server_app() -> Any:
    """uvicorn's app factory: the site plus the trivial baseline page."""
    from bench._django import asgi_app

    return asgi_app(urlconf="bench.urls")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    from bench._django import start_uvicorn

    # manage.py serve sends websockets without per-message deflate: large
    # fragments come gzipped once per update (tournament/live/consumers.py);
    # deflating them again per socket would cost 0.4 ms × 300 sockets.
    return start_uvicorn("bench.live:server_app", port, os.environ.copy())


def wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server process ended while starting")
        with contextlib.suppress(OSError):
            status, _, _ = request(port, "GET", "/bench/trivial/")
            if status == 200:
                return
        time.sleep(0.2)
    raise SystemExit("the server did not start within 30 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


# --- Data -------------------------------------------------------------------------


def registrations(players: int) -> list[Any]:
    """`players` registrations (Player), each with a person of his own
    (Vorname0 Name000 of Club 0, …, 30 clubs), in the order made."""
    from tournament.models import Person, Player

    persons = Person.objects.bulk_create(
        Person(
            first_name=f"Vorname{i}", last_name=f"Name{i:03d}", club=f"Club {i % 30}"
        )
        for i in range(players)
    )
    Player.objects.bulk_create(
        Player(first_name=p.first_name, last_name=p.last_name, club=p.club, person=p)
        for p in persons
    )
    return list(Player.objects.order_by("id")[:players])


def build(players: int, tables_pending: int) -> dict[str, Any]:
    """A tournament of `players`: three series complete (written in bulk),
    the fourth released with `tables_pending` results entered by one
    referee and waiting for the other's confirmation."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from tournament.models import (
        Entry,
        GameScore,
        ResultVersion,
        Seat,
        Series,
        Table,
        Tournament,
    )
    from tournament.results.services import GameInput, result_enter, totals_refresh

    rng = random.Random(6)
    users = get_user_model()
    group, _ = Group.objects.get_or_create(name="referee")
    referee = users.objects.create_user("bench-referee", password=PASSWORD)
    referee2 = users.objects.create_user("bench-referee2", password=PASSWORD)
    for user in (referee, referee2):
        user.groups.add(group)
    tournament = Tournament.objects.create(
        name="Rheinlandmeisterschaft (Benchmark)", slug=SLUG, date="2026-12-05"
    )
    people = registrations(players)
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=i + 1)
        for i, p in enumerate(people)
    )
    for number in range(1, 5):
        complete = number < 4
        series = Series.objects.create(
            tournament=tournament,
            number=number,
            status="complete" if complete else "released",
        )
        order = entries[:]
        rng.shuffle(order)
        tables = Table.objects.bulk_create(
            Table(series=series, number=t + 1, size=4) for t in range(players // 4)
        )
        Seat.objects.bulk_create(
            Seat(series=series, table=table, number=s + 1, entry=e)
            for t, table in enumerate(tables)
            for s, e in enumerate(order[4 * t : 4 * t + 4])
        )
        if not complete:
            break
        versions = ResultVersion.objects.bulk_create(
            ResultVersion(table=t, number=1, status="confirmed", mode="quick", data={})
            for t in tables
        )
        scores = []
        for t, (table, version) in enumerate(zip(tables, versions, strict=True)):
            for game in range(1, 6):
                winner, marks = rng.randrange(4), rng.randint(1, 7)
                scores += [
                    GameScore(
                        series=series,
                        table=table,
                        version=version,
                        entry=e,
                        game=game,
                        seat=s + 1,
                        won=s == winner,
                        marks=marks if s == winner else 0,
                        points=marks + 7 if s == winner else 0,
                    )
                    for s, e in enumerate(order[4 * t : 4 * t + 4])
                ]
        GameScore.objects.bulk_create(scores, batch_size=2000)
    totals_refresh(entry_ids=[e.pk for e in entries], tournament=tournament)
    pending = []
    for table in tables[:tables_pending]:
        games = [
            GameInput(winner=rng.randint(1, 4), marks=rng.randint(1, 7))
            for _ in range(5)
        ]
        result_enter(
            actor=referee, table=table, games=games, mode="quick", revision=None
        )
        table.refresh_from_db()
        pending.append((table.number, 1, table.result_revision))
    return {"series": 4, "pending": pending}


# --- A small HTTP/1.1 client (keep-alive, for the load) ------------------------


def request(
    port: int,
    method: str,
    path: str,
    body: str = "",
    headers: dict[str, str] | None = None,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.msg, response.read()
    finally:
        connection.close()


async def _get(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str
) -> int:
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    status = int((await reader.readline()).split()[1])
    length, chunked = 0, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "transfer-encoding" and "chunked" in value:
            chunked = True
    if chunked:
        while size := int((await reader.readline()).strip(), 16):
            await reader.readexactly(size + 2)
        await reader.readline()
    else:
        await reader.readexactly(length)
    return status


async def load(port: int, path: str, connections: int, seconds: float) -> float:
    """Requests per second of `path` with `connections` keep-alive clients
    asking back to back for `seconds`."""
    done = 0
    until = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < until:
                if await _get(reader, writer, path) != 200:
                    raise SystemExit(f"{path} did not answer 200")
                done += 1
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(connections)))
    return done / (time.perf_counter() - start)


# --- Websocket clients --------------------------------------------------------


ETAG = re.compile(r'"etag": "([0-9a-f]+)"')


class Phone:
    """One websocket client showing the standings, like a phone in the hall."""

    def __init__(self, websocket: Any, etag: str) -> None:
        self.websocket = websocket
        self.etag = etag
        self.arrived: dict[str, float] = {}

    async def listen(self) -> None:
        with contextlib.suppress(Exception):
            async for message in self.websocket:
                now = time.perf_counter()
                # Only the head is read: each phone unpacks and parses its own
                # message on its own CPU; this one process should not do 300.
                if isinstance(message, bytes):
                    head = zlib.decompressobj(wbits=31).decompress(message, 300)
                    message = head.decode(errors="ignore")
                match = ETAG.search(message[:300])
                if match and message.startswith('{"type": "fragment"'):
                    self.arrived.setdefault(match.group(1), now)


async def connect_phones(port: int, count: int, etag: str) -> list[Phone]:
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(50)
    url = f"ws://127.0.0.1:{port}/ws/t/{SLUG}/?lang=de"
    subscribe = json.dumps(
        {
            "type": "subscribe",
            "regions": [{"key": "standings", "etag": etag}],
            "gzip": True,  # as a browser with DecompressionStream says
        }
    )

    async def one() -> Phone:
        async with gate:
            # Like a browser, this client offers permessage-deflate.
            websocket = await connect(
                url, origin=f"http://127.0.0.1:{port}", max_size=None, open_timeout=20
            )
            await websocket.send(subscribe)
            while True:
                reply = json.loads(await asyncio.wait_for(websocket.recv(), 20))
                if reply["type"] == "subscribed":
                    return Phone(websocket, etag)

    return list(await asyncio.gather(*(one() for _ in range(count))))


# --- The run --------------------------------------------------------------------


def cookie(headers: http.client.HTTPMessage, name: str) -> str:
    for header in headers.get_all("Set-Cookie") or []:
        if header.startswith(f"{name}="):
            return header.split("=", 1)[1].split(";")[0]
    raise SystemExit(f"no {name} cookie")


def login(port: int, username: str) -> str:
    """Sign in through the login form; returns the Cookie header."""
    status, headers, body = request(port, "GET", "/konto/anmelden/")
    csrf = cookie(headers, "csrftoken")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert token is not None
    form = urllib.parse.urlencode(
        {
            "username": username,
            "password": PASSWORD,
            "csrfmiddlewaretoken": token.group(1).decode(),
        }
    )
    status, headers, _ = request(
        port,
        "POST",
        "/konto/anmelden/",
        form,
        {
            "Cookie": f"csrftoken={csrf}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert status == 302, f"login failed ({status})"
    return f"csrftoken={csrf}; sessionid={cookie(headers, 'sessionid')}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(
    args: argparse.Namespace, port: int, data: dict[str, Any]
) -> dict[str, Any]:
    cookies = login(port, "bench-referee2")
    csrf = cookies.split("csrftoken=")[1].split(";")[0]
    _, headers, _ = request(port, "GET", f"/t/{SLUG}/live/standings/")
    etag = headers["ETag"].strip('"')
    started = time.perf_counter()
    phones = await connect_phones(port, args.clients, etag)
    print(
        f"{len(phones)} websocket clients connected and subscribed in "
        f"{time.perf_counter() - started:.1f} s"
    )
    listeners = [asyncio.ensure_future(p.listen()) for p in phones]
    latencies: list[float] = []
    try:
        for table, version, revision in data["pending"][: args.rounds]:
            await asyncio.sleep(0.5)
            form = urllib.parse.urlencode(
                {"version": version, "revision": revision, "csrfmiddlewaretoken": csrf}
            )
            path = (
                f"/t/{SLUG}/eingabe/serie/{data['series']}/tisch/{table}/bestaetigen/"
            )
            sent = time.perf_counter()
            status, _, _ = await asyncio.to_thread(
                request,
                port,
                "POST",
                path,
                form,
                {
                    "Cookie": cookies,
                    "Content-Type": "application/x-www-form-urlencoded",
                },
            )
            assert status == 302, f"confirmation failed ({status})"
            deadline = time.perf_counter() + 15
            while time.perf_counter() < deadline:
                fresh = [p for p in phones if set(p.arrived) - {p.etag}]
                if len(fresh) == len(phones):
                    break
                await asyncio.sleep(0.005)
            else:
                raise SystemExit("not every client got the update within 15 s")
            round_ms = []
            for phone in phones:
                new = {t: at for t, at in phone.arrived.items() if t != phone.etag}
                tag, at = min(new.items(), key=lambda item: item[1])
                round_ms.append((at - sent) * 1000)
                phone.etag = tag
                phone.arrived.clear()
            latencies += round_ms
            print(
                f"table {table:3d} confirmed: all {len(phones)} clients updated, "
                f"p50 {statistics.median(round_ms):6.1f} ms, "
                f"max {max(round_ms):6.1f} ms"
            )
        # Throughput with the same clients connected: the two pages in turn,
        # each pair close in time; the ratio is the median of the pairs'.
        paths = {"trivial": "/bench/trivial/", "standings": f"/t/{SLUG}/tabelle/"}
        await load(port, paths["standings"], 4, 0.5)  # warm both
        await load(port, paths["trivial"], 4, 0.5)
        ratios = []
        for _ in range(args.pairs):
            trivial = await load(port, paths["trivial"], args.connections, args.seconds)
            standings = await load(
                port, paths["standings"], args.connections, args.seconds
            )
            ratios.append(standings / trivial)
            print(
                f"HTTP, {args.connections} concurrent connections, "
                f"{len(phones)} sockets open: trivial page {trivial:6.1f} req/s, "
                f"standings page {standings:6.1f} req/s, ratio {ratios[-1]:.2f}"
            )
    finally:
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(
            *(p.websocket.close() for p in phones), return_exceptions=True
        )
    return {
        "clients": len(phones),
        "p50_ms": round(percentile(latencies, 0.5), 1),
        "p95_ms": round(percentile(latencies, 0.95), 1),
        "max_ms": round(max(latencies), 1),
        "throughput_ratio": round(statistics.median(ratios), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=10, help="confirmations")
    parser.add_argument("--connections", type=int, default=32, help="HTTP load")
    parser.add_argument("--seconds", type=float, default=3.0, help="per HTTP run")
    parser.add_argument("--pairs", type=int, default=3, help="HTTP runs per page")
    args = parser.parse_args()
    args.rounds = max(1, min(args.rounds, args.players // 4))
    args.pairs = max(1, min(args.pairs, 10))

    # The server gets the default, in-memory channel layer and its own file.
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
    sys.path.insert(0, str(ROOT))
    from bench._django import setup

    setup()  # a fresh VAR_DIR with a migrated SQLite file
    started = time.perf_counter()
    data = build(args.players, args.rounds)
    from django.db import connections

    connections.close_all()
    took = time.perf_counter() - started
    print(f"built {args.players} players, 3 series played, in {took:.1f} s")
    port = free_port()
    process = start_server(port)
    try:
        wait_until_up(port, process)
        result = asyncio.run(measure(args, port, data))
    finally:
        stop_server(process)
        shutil.rmtree(os.environ["VAR_DIR"], ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
