"""The hall's front door under attack: clients that misbehave at a server
started as the hall starts it (`manage.py serve`: uvicorn with the hall's
front door; config.settings with DEBUG off and collectstatic's manifest),
while a referee and a phone keep asking for their pages.

Each attack is one finding of a black-box probe of the hall's server, with
its socket counts, sizes and timings:

  unread      3 connections pipeline 100 GETs of a 0.7 MB static file each
              and read nothing for 45 s
  headers     one request with 40 MB of tiny headers
  header      one request with one header of 47 MB
  idle        1,050 connections that send nothing, for 20 s
  sockets     1,500 websockets subscribed to the live standings
  images      a player's link sends a 60-megapixel PNG 6 at a time, 20 s
  images-referee   a referee does the same
  disk        a player's link sends a sheet's photo with 20 MB of bytes
              after its end, 6 at a time, 20 s
  bodies      600 anonymous bodies of 2.4 MB, each a byte short of its end
  large-bodies     100 such bodies of 25 MB
  early-close 600 connections pipeline 20 GETs each and close at once
  flood       24 MiB of pipelined GETs on 8 connections, their answers read
  made-up     300 connections ask for the standings with a made-up session
              cookie each time, 20 s

Meanwhile the phone asks for the kept standings and its "Mein Turnier"
(a personal link: always Django, in the phones' lane), the referee for his
entry overview (the signed-in lane), each a new connection every 0.25 s.
For each attack: their p95 and failures (any answer but 200, or none
within 10 s), the server's memory before and after (its resident set, the
attack's connections closed and 3 s later) and what the attack saw.
`--files N` starts the server with a soft open-files limit of N (the
server raises it to the hard one; `--hard-files` too, which it cannot).

    python bench/frontdoor.py [ATTACK ...] [--files 1024] [--hard-files 1024]

The last line is one JSON object: each attack's figures. What
tests/site/test_front_door.py holds each to: both p95 within 1 s, no
failure, memory within +200 MB.
"""

import argparse
import asyncio
import bisect
import contextlib
import io
import json
import os
import random
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import servers  # noqa: E402

SLUG = "vor-der-tuer"
PASSWORD = "tuersteher"
MB = 1024 * 1024
FONT = "/static/fonts/DejaVuSans.ttf"  # 0.7 MB
PROBE_EVERY = 0.25
# The referee and the phone ask from an address of their own, as in the hall
# (the attacks come from 127.0.0.1): the personal links' limits count per
# address. Linux answers to all of 127.0.0.0/8.
PROBES_FROM = "127.0.0.2"
PROBE_TIMEOUT = 10.0
SETTLE = 2.0
# The hall's REQUEST_BODY_SECONDS (config/settings.py), where the server's
# environment sets none.
BODY_SECONDS = 15.0


# --- The world: run in the server's database ------------------------------------


def seed() -> None:
    """A tournament with a released series of four tables, a referee, the
    personal links of the players on seats 1 and 2 of table 1 (players
    enter at their table) and a photo of table 1's sheet kept with a
    result. Prints JSON."""
    import django

    django.setup()
    from django.conf import settings

    from tests.support.factories import TournamentFactory, make_series, make_user
    from tests.support.sheetphotos import sheet_photo
    from tournament.models import Table

    tournament = TournamentFactory(slug=SLUG, name="Vor der Tür", table_entry="one")
    series = make_series(tournament, sizes=(4, 4, 4, 4))
    make_user("schiri", "referee", password=PASSWORD)
    table = Table.objects.get(series=series, number=1)
    photo = Path(settings.VAR_DIR) / "tisch-1.jpg"
    if os.environ.get("FRONTDOOR_PHOTO", "1") == "1":  # seconds to print and shoot
        photo.write_bytes(
            sheet_photo(table, [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)], seed=3)
        )
    links = [table.seats.get(number=n).entry.link_token for n in (1, 2)]
    print(json.dumps({"links": links, "photo": str(photo)}))


# --- The server ------------------------------------------------------------------


@dataclass
class Hall:
    """A server in the hall's configuration, its world and its referee."""

    port: int
    process: subprocess.Popen[bytes]
    var: Path
    links: list[str]  # seats 1 and 2 of table 1: the phone's, the photos'
    photo: Path
    referee: str = ""  # the signed-in referee's cookies
    csrf: str = ""
    body_seconds: float = BODY_SECONDS

    def mine(self, seat: int = 1) -> str:
        """A player's "Mein Turnier" (seat 1 or 2 of table 1)."""
        return f"/t/{SLUG}/mein/{self.links[seat - 1]}/"

    def photo_page(self, seat: int) -> str:
        return f"{self.mine(seat)}serie/1/tisch/1/foto/"

    def rss_mb(self) -> float:
        """The server's resident memory, its worker processes' included."""
        return sum(_status(pid, "VmRSS") for pid in _family(self.process.pid)) / 1024

    def threads(self) -> int:
        return sum(_status(pid, "Threads") for pid in _family(self.process.pid))

    def open_files(self) -> int:
        return sum(
            len(os.listdir(f"/proc/{pid}/fd")) for pid in _family(self.process.pid)
        )

    def photos_mb(self) -> float:
        folder = self.var / "sheetphotos"
        return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / MB


def _family(pid: int) -> list[int]:
    children = subprocess.run(
        ["pgrep", "-P", str(pid)], capture_output=True, text=True
    ).stdout.split()
    return [pid, *(int(c) for c in children)]


def _status(pid: int, name: str) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{name}:"):
                return int(line.split()[1])
    return 0


def _limit(files: int | None, hard: int | None) -> Callable[[], None] | None:
    """The server process's open-files limit, set before it starts."""
    if files is None:
        return None

    def limit() -> None:
        top = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard or top))

    return limit


def raise_own_limit() -> None:
    """This process's open-files limit raised (1,500 sockets of its own)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))


@contextlib.contextmanager
def hall(
    var: Path,
    *,
    files: int | None = None,
    hard: int | None = None,
    deadlines: dict[str, str] | None = None,
    photo: bool = True,
) -> Iterator[Hall]:
    """The hall's server on a fresh database in `var`, its stderr in
    var/server.log, the referee signed in and the pages warm. `deadlines`:
    the server's FRONT_HEAD_SECONDS, FRONT_WRITE_SECONDS and
    REQUEST_BODY_SECONDS, if not the hall's (a test's attacks end
    sooner); `photo`: a photo of table 1's sheet (for the `disk` attack)."""
    env = {**servers.hall_env(var), **(deadlines or {})}
    seeding = {**env, "FRONTDOOR_PHOTO": "1" if photo else "0"}
    world = servers.run_seed(seeding, "bench.frontdoor")
    port = servers.free_port()
    log = (var / "server.log").open("w")
    process = servers.start_server(
        env, port, stderr=log, preexec_fn=_limit(files, hard)
    )
    try:
        servers.wait_until_up(port, process)
        csrf, cookies = servers.http_sign_in(port, "schiri", PASSWORD)
        found = Hall(port, process, var, world["links"], Path(world["photo"]))
        found.body_seconds = float(env.get("REQUEST_BODY_SECONDS", BODY_SECONDS))
        found.referee, found.csrf = cookies, csrf
        asyncio.run(_warm(found))
        yield found
    finally:
        servers.stop(process)
        log.close()


async def _warm(found: Hall) -> None:
    for _ in range(3):
        for path, cookie in _probes(found):
            await get(found.port, path, cookie=cookie)


def server_log(found: Hall) -> str:
    return (found.var / "server.log").read_text(errors="replace")


# --- HTTP on bare sockets ----------------------------------------------------------


async def get(
    port: int,
    path: str,
    *,
    cookie: str = "",
    timeout: float = PROBE_TIMEOUT,
    source: str | None = None,
) -> tuple[int | str, float]:
    """A GET on a new connection (from the address `source`, if given): its
    status (or what went wrong) and how long it took, in seconds."""
    started = time.monotonic()
    writer = None
    local = (source, 0) if source else None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=local
            )
            head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            head += "Accept-Encoding: gzip\r\nConnection: close\r\n"
            if cookie:
                head += f"Cookie: {cookie}\r\n"
            writer.write(head.encode() + b"\r\n")
            status_line = await reader.readline()
            await reader.read()
        status: int | str = int(status_line.split()[1]) if status_line else "closed"
    except (OSError, TimeoutError, ValueError, IndexError) as error:
        status = type(error).__name__
    finally:
        if writer is not None:
            writer.transport.abort()
    return status, time.monotonic() - started


def _probes(found: Hall) -> list[tuple[str, str]]:
    return [
        (f"/t/{SLUG}/tabelle/", ""),
        (found.mine(), ""),
        (f"/t/{SLUG}/eingabe/", found.referee),
    ]


@dataclass
class Watch:
    """The phone's and the referee's requests during an attack."""

    phone: list[tuple[int | str, float]] = field(default_factory=list)
    referee: list[tuple[int | str, float]] = field(default_factory=list)

    @staticmethod
    def _p95(answers: list[tuple[int | str, float]]) -> float:
        times = sorted(t for _, t in answers)
        return round(times[int(0.95 * (len(times) - 1))], 3) if times else 0.0

    def figures(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for who, answers in (("phone", self.phone), ("referee", self.referee)):
            statuses = Counter(str(s) for s, _ in answers)
            found[who] = {
                "requests": len(answers),
                "p95_s": self._p95(answers),
                "max_s": round(max((t for _, t in answers), default=0.0), 3),
                "failures": sum(n for s, n in statuses.items() if s != "200"),
                "statuses": dict(statuses),
            }
        return found


async def watch(found: Hall, stop: asyncio.Event, seen: Watch) -> None:
    phone, mine, referee = _probes(found)

    async def person(paths: list[tuple[str, str]], into: list[Any]) -> None:
        turn = 0
        while not stop.is_set():
            path, cookie = paths[turn % len(paths)]
            into.append(await get(found.port, path, cookie=cookie, source=PROBES_FROM))
            turn += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PROBE_EVERY)

    await asyncio.gather(
        person([phone, mine], seen.phone), person([referee], seen.referee)
    )


def run(found: Hall, attack: Callable[[Hall], Awaitable[dict[str, Any]]]) -> dict:
    """`attack` against the hall while the phone and the referee ask; the
    figures."""

    async def scenario() -> dict[str, Any]:
        before = found.rss_mb()
        stop = asyncio.Event()
        seen = Watch()
        watching = asyncio.create_task(watch(found, stop, seen))
        await asyncio.sleep(0.5)
        started = time.monotonic()
        saw = await attack(found)
        took = time.monotonic() - started
        await asyncio.sleep(SETTLE)
        stop.set()
        await watching
        return {
            **seen.figures(),
            "attack": saw,
            "attack_s": round(took, 1),
            "rss_before_mb": round(before),
            "rss_after_mb": round(found.rss_mb()),
        }

    return asyncio.run(scenario())


def held(figures: dict[str, Any], p95_s: float = 1.0) -> list[str]:
    """What of the acceptance an attack's figures break: the referee's and
    the phone's p95 within ``p95_s`` (1 s on a quiet machine), no failure,
    memory within +200 MB."""
    broken = []
    for who in ("phone", "referee"):
        if figures[who]["p95_s"] > p95_s:
            broken.append(f"{who} p95 {figures[who]['p95_s']} s")
        if figures[who]["failures"]:
            broken.append(f"{who} failed: {figures[who]['statuses']}")
        if not figures[who]["requests"]:
            broken.append(f"{who} asked nothing")
    grown = figures["rss_after_mb"] - figures["rss_before_mb"]
    if grown > 200:
        broken.append(f"memory +{grown} MB")
    return broken


# --- The attacks -------------------------------------------------------------------


def _get(path: str, port: int, extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}\r\n".encode()


async def _connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


def _abort(writers: list[asyncio.StreamWriter]) -> None:
    for writer in writers:
        writer.transport.abort()


async def unread(
    found: Hall, *, connections: int = 3, requests: int = 100, seconds: float = 45
) -> dict[str, Any]:
    """Clients that never read: each pipelines GETs of a large static file
    and takes nothing of the answers."""
    opened = []
    for _ in range(connections):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", found.port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 16)
        writer.write(_get(FONT, found.port) * requests)
        opened.append((reader, writer))
    await asyncio.sleep(seconds)
    closed = 0
    for reader, writer in opened:
        closed += await _cut_off(reader)
        writer.transport.abort()
    return {"closed_by_server": closed}


async def _cut_off(reader: asyncio.StreamReader) -> bool:
    """Whether the server has closed the connection: what it had sent
    before ends within a second or two of reading; an open one sends on
    (a hundred answers of 0.7 MB)."""
    try:
        async with asyncio.timeout(2):
            while await reader.read(1 << 20):
                pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


async def _send_head(found: Hall, parts: Iterator[bytes]) -> dict[str, Any]:
    """A GET whose head is `parts`: what the server answered, and how much
    it took before it did (or closed)."""
    reader, writer = await _connect(found.port)
    sent = 0
    try:
        writer.write(f"GET /t/{SLUG}/tabelle/ HTTP/1.1\r\nHost: x\r\n".encode())
        for part in parts:
            writer.write(part)
            await writer.drain()
            sent += len(part)
        writer.write(b"\r\n")
        await writer.drain()
    except OSError:
        pass
    try:
        answer = await asyncio.wait_for(reader.readline(), 30)
    except (OSError, TimeoutError):
        answer = b""
    writer.transport.abort()
    return {"sent_mb": round(sent / MB, 1), "answer": answer.decode("latin-1").strip()}


async def headers(found: Hall, *, megabytes: float = 40) -> dict[str, Any]:
    """One request with `megabytes` of tiny headers."""
    chunk = b"a: b\r\n" * 10_000

    def parts() -> Iterator[bytes]:
        for _ in range(int(megabytes * MB / len(chunk))):
            yield chunk

    return await _send_head(found, parts())


async def header(found: Hall, *, megabytes: float = 47) -> dict[str, Any]:
    """One request with one header of `megabytes`."""

    def parts() -> Iterator[bytes]:
        yield b"X-Long: "
        for _ in range(int(megabytes)):
            yield b"a" * MB
        yield b"\r\n"

    return await _send_head(found, parts())


async def idle(found: Hall, *, count: int = 1050, seconds: float = 20) -> dict:
    """Connections that send nothing."""
    loop = asyncio.get_running_loop()
    socks = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, ("127.0.0.1", found.port))
        except OSError:
            sock.close()
            continue
        socks.append(sock)
    await asyncio.sleep(seconds)
    closed = 0
    for sock in socks:
        try:
            closed += sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    return {"opened": len(socks), "closed_by_server": closed}


async def sockets(found: Hall, *, count: int = 1500, seconds: float = 10) -> dict:
    """Websockets subscribed to the live standings, as many pages open
    them: how many the server took ("subscribed" answered) and refused."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    url = f"ws://127.0.0.1:{found.port}/ws/t/{SLUG}/"
    origin = f"http://127.0.0.1:{found.port}"
    subscribe = json.dumps(
        {"type": "subscribe", "regions": [{"key": "standings", "etag": ""}]}
    )
    opened: list[Any] = []
    outcome: Counter[str] = Counter()
    gate = asyncio.Semaphore(50)  # handshakes at once, as pages load

    async def one() -> None:
        async with gate:
            try:
                websocket = await connect(url, origin=origin, open_timeout=60)  # type: ignore[arg-type]
            except InvalidStatus:
                outcome["refused"] += 1
                return
            except (OSError, TimeoutError) as error:
                outcome[type(error).__name__] += 1
                return
            opened.append(websocket)
            try:
                await websocket.send(subscribe)
                while True:
                    message = json.loads(await asyncio.wait_for(websocket.recv(), 60))
                    if message["type"] == "subscribed":
                        outcome["subscribed"] += 1
                        return
            except Exception as error:  # counted: a socket the server dropped
                outcome[type(error).__name__] += 1

    await asyncio.gather(*(one() for _ in range(count)))
    await asyncio.sleep(seconds)
    await asyncio.gather(*(w.close() for w in opened), return_exceptions=True)
    return dict(outcome)


def big_png() -> bytes:
    """A PNG of 60 megapixels (10,000 × 6,000, in colour) that packs into
    about 200 KB, as the probe's of 233 KB."""
    import numpy as np
    from PIL import Image

    pixels = np.full((6000, 10_000, 3), 255, dtype=np.uint8)
    pixels[::50, :, :] = 0
    pixels[:, ::97, 1] = 0
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG", optimize=True)
    return out.getvalue()


def multipart_photo(
    data: bytes, filename: str, fields: dict[str, str]
) -> tuple[str, bytes]:
    """A photo upload's body, as a phone's browser sends it: the form's
    `fields`, then `data` as the file `photo`; its Content-Type and bytes."""
    boundary = f"----frontdoor{random.getrandbits(64):x}"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
        f"{value}\r\n".encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; '
        f'filename="{filename}"\r\nContent-Type: image/jpeg\r\n\r\n'.encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(parts)


async def _post(
    port: int, path: str, body: bytes, content_type: str, cookie: str = ""
) -> int | str:
    writer = None
    try:
        async with asyncio.timeout(60):
            reader, writer = await _connect(port)
            head = (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                f"Origin: http://127.0.0.1:{port}\r\n"
                f"Referer: http://127.0.0.1:{port}{path}\r\nConnection: close\r\n"
            )
            if cookie:
                head += f"Cookie: {cookie}\r\n"
            writer.write(head.encode() + b"\r\n" + body)
            status_line = await reader.readline()
            await reader.read()
        return int(status_line.split()[1]) if status_line else "closed"
    except (OSError, TimeoutError, ValueError, IndexError) as error:
        return type(error).__name__
    finally:
        if writer is not None:
            writer.transport.abort()


async def _uploads(
    found: Hall, data: bytes, *, at_once: int, seconds: float, seat: int | None
) -> dict[str, Any]:
    """`at_once` uploads of `data` to table 1's photo page, again and again
    for `seconds`: by the link of the player on `seat`, or (None) by the
    referee."""
    if seat is None:
        path = f"/t/{SLUG}/eingabe/serie/1/tisch/1/foto/"
        fields, cookie = {"csrfmiddlewaretoken": found.csrf}, found.referee
    else:
        path, fields, cookie = found.photo_page(seat), {}, ""
    statuses: Counter[str] = Counter()
    deadline = time.monotonic() + seconds

    async def uploader() -> None:
        while time.monotonic() < deadline:
            content_type, body = multipart_photo(data, "foto.jpg", fields)
            statuses[
                str(await _post(found.port, path, body, content_type, cookie))
            ] += 1

    await asyncio.gather(*(uploader() for _ in range(at_once)))
    return {"statuses": dict(statuses)}


async def images(found: Hall, *, at_once: int = 6, seconds: float = 20) -> dict:
    """A player's link sends a 60-megapixel PNG, `at_once` at a time."""
    return await _uploads(found, big_png(), at_once=at_once, seconds=seconds, seat=1)


async def images_referee(found: Hall, *, at_once: int = 6, seconds: float = 20):
    """A referee sends a 60-megapixel PNG, `at_once` at a time."""
    return await _uploads(found, big_png(), at_once=at_once, seconds=seconds, seat=None)


async def disk(found: Hall, *, at_once: int = 6, seconds: float = 20) -> dict:
    """Another player's link sends a readable photo of its table's sheet
    with 20 MB of bytes after the image's end: how much the photos' folder
    grew."""
    before = found.photos_mb()
    data = found.photo.read_bytes() + os.urandom(20 * MB)
    saw = await _uploads(found, data, at_once=at_once, seconds=seconds, seat=2)
    return {**saw, "photos_grew_mb": round(found.photos_mb() - before, 1)}


async def _bodies(found: Hall, *, count: int, size: int) -> dict[str, Any]:
    """`count` anonymous POSTs of `size` bytes, each sent but its last byte:
    they wait for their deadline (or are refused at once). With the answers
    counted, the seconds after the attack's start at which each 408 came: a
    body read waits its whole deadline, so the 408s that come within less
    than one deadline of each other were in flight together."""
    statuses: Counter[str] = Counter()
    timed_out: list[float] = []
    began = time.monotonic()
    chunk = b"a" * MB
    gate = asyncio.Semaphore(100)

    async def one() -> None:
        writer = None
        try:
            async with gate:
                reader, writer = await _connect(found.port)
                writer.write(
                    (
                        f"POST /konto/anmelden/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        "Content-Type: application/x-www-form-urlencoded\r\n"
                        f"Content-Length: {size}\r\n\r\n"
                    ).encode()
                )
                left = size - 1
                while left > 0:
                    writer.write(chunk[: min(left, len(chunk))])
                    left -= min(left, len(chunk))
                    await writer.drain()
            status_line = await asyncio.wait_for(reader.readline(), 60)
            status = status_line.split(b" ")[1].decode() if status_line else "closed"
            statuses[status] += 1
            if status == "408":
                timed_out.append(round(time.monotonic() - began, 3))
        except (OSError, TimeoutError, IndexError) as error:
            statuses[type(error).__name__] += 1
        finally:
            if writer is not None:
                writer.transport.abort()

    await asyncio.gather(*(one() for _ in range(count)))
    # A body read waits its whole deadline for its last byte, so the 408s
    # within half a deadline of each other were bodies read at once.
    return {
        "statuses": dict(statuses),
        "read_at_once": most_within(sorted(timed_out), found.body_seconds / 2),
    }


def most_within(times: list[float], window: float) -> int:
    """The most of the sorted `times` within any `window` seconds."""
    ends = (bisect.bisect_right(times, start + window) for start in times)
    return max((end - i for i, end in enumerate(ends)), default=0)


async def bodies(found: Hall, *, count: int = 600, megabytes: float = 2.4) -> dict:
    return await _bodies(found, count=count, size=int(megabytes * MB))


async def large_bodies(found: Hall, *, count: int = 100, megabytes: float = 25):
    return await _bodies(found, count=count, size=int(megabytes * MB))


async def early_close(
    found: Hall, *, connections: int = 600, requests: int = 20
) -> dict[str, Any]:
    """Connections that pipeline GETs of a page made by Django (the
    player's "Mein Turnier") and close before reading anything; then
    what the server still holds: threads, open files."""
    before = {"threads": found.threads(), "open_files": found.open_files()}
    gate = asyncio.Semaphore(100)

    async def one() -> None:
        async with gate:
            with contextlib.suppress(OSError):
                _, writer = await _connect(found.port)
                writer.write(_get(found.mine(), found.port) * requests)
                await writer.drain()
                await asyncio.sleep(0.2)  # the server has begun its answers
                writer.transport.abort()

    await asyncio.gather(*(one() for _ in range(connections)))
    await asyncio.sleep(SETTLE)
    after = {"threads": found.threads(), "open_files": found.open_files()}
    return {"before": before, "after": after}


async def flood(
    found: Hall, *, megabytes: float = 24, connections: int = 8, seconds: float = 20
) -> dict[str, Any]:
    """`megabytes` of pipelined GETs of the kept standings on `connections`
    connections, their answers read (and thrown away), for `seconds` at
    most."""
    request = _get(f"/t/{SLUG}/tabelle/", found.port, "Accept-Encoding: gzip\r\n")
    share = int(megabytes * MB / connections)
    answered = 0

    async def one() -> None:
        nonlocal answered
        reader, writer = await _connect(found.port)

        async def drain() -> None:
            nonlocal answered
            with contextlib.suppress(OSError):
                while data := await reader.read(1 << 16):
                    answered += data.count(b"HTTP/1.1 ")

        reading = asyncio.create_task(drain())
        try:
            with contextlib.suppress(OSError):
                sent = 0
                while sent < share:
                    writer.write(request * 1000)
                    sent += len(request) * 1000
                    await writer.drain()
            await reading
        finally:
            reading.cancel()
            writer.transport.abort()

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(
            asyncio.gather(*(one() for _ in range(connections))), seconds
        )
    return {"answers_read": answered}


async def made_up(found: Hall, *, connections: int = 300, seconds: float = 20):
    """Connections asking for the kept standings again and again, each time
    with a made-up session cookie."""
    deadline = time.monotonic() + seconds
    statuses: Counter[str] = Counter()

    async def one() -> None:
        while time.monotonic() < deadline:
            cookie = f"sessionid={random.getrandbits(128):032x}"
            status, _ = await get(found.port, f"/t/{SLUG}/tabelle/", cookie=cookie)
            statuses[str(status)] += 1

    await asyncio.gather(*(one() for _ in range(connections)))
    return {"statuses": dict(statuses)}


ATTACKS: dict[str, Callable[[Hall], Awaitable[dict[str, Any]]]] = {
    "unread": unread,
    "headers": headers,
    "header": header,
    "idle": idle,
    "sockets": sockets,
    "images": images,
    "images-referee": images_referee,
    "disk": disk,
    "bodies": bodies,
    "large-bodies": large_bodies,
    "early-close": early_close,
    "flood": flood,
    "made-up": made_up,
}


def tracebacks(log: str) -> list[str]:
    """The tracebacks a server's log holds (their last lines)."""
    blocks = re.split(r"(?=Traceback \(most recent call last\))", log)
    return [b.strip().splitlines()[-1] for b in blocks if b.startswith("Traceback")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("attacks", nargs="*", default=list(ATTACKS), choices=ATTACKS)
    parser.add_argument("--files", type=int, help="the server's soft open-files limit")
    parser.add_argument("--hard-files", type=int, help="and its hard one")
    args = parser.parse_args()
    raise_own_limit()
    results = {}
    for name in args.attacks:
        with (
            tempfile.TemporaryDirectory(prefix="frontdoor-") as folder,
            hall(Path(folder), files=args.files, hard=args.hard_files) as found,
        ):
            figures = run(found, ATTACKS[name])
            figures["broken"] = held(figures)
            figures["tracebacks"] = tracebacks(server_log(found))
        results[name] = figures
        print(f"{name}: {json.dumps(figures)}", flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
