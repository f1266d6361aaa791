"""The hall's front door: what the HTTP server holds to before a request
reaches the site (the site's own limits follow in `tournament.core.limits`).

The server is uvicorn with its h11 parser and this protocol
(`HallProtocol`), started by `manage.py serve`; docs/ARCHITECTURE.md says
why uvicorn and not Granian or Hypercorn. uvicorn alone gathers a request's
head without end (endless headers froze every page), waits without end
for a client that does not read its answer, and keeps a connection that
never finishes its head; each of those holds a file descriptor, and a
laptop allows 1,024 of them. Here:

- a request's head (its line and headers) is at most HEAD_BYTES: h11
  refuses it (400) as it arrives, nothing more is gathered;
- it must arrive within `FRONT_HEAD_SECONDS` of the connection's start or
  of the previous answer's end, else the connection closes;
- a client that takes nothing of its answer for `FRONT_WRITE_SECONDS` is
  cut off: for the site its request ends as if the client had left;
- a worker keeps at most `budget().connections` connections (from the
  open-files limit): beyond, the connection that has waited longest (for
  its head, or for its client to read) makes room; with none waiting, the
  new one is told to come back and closed.
"""

import asyncio
import contextlib
import ctypes
import ctypes.util
import functools
import os
import resource
import socket
import struct
from dataclasses import dataclass
from typing import Any

import h11
from django.conf import settings
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

# A request's line and headers together. The site's largest is a signed-in
# browser's with its few cookies, about 1 KB; nginx allows 8 KB a line.
HEAD_BYTES = 16 * 1024

_FULL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 5\r\n"
    b"connection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)
_RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, after 0 s

# Before its request is read nobody's language is known: both of the site's.
_FULL_TEXT = (
    b"Gerade zu viele Verbindungen. Bitte in ein paar Sekunden neu laden.\n"
    b"Too many connections right now. Please reload in a few seconds.\n"
)


@dataclass(frozen=True)
class Budget:
    """How many connections a worker keeps open at once (`connections`,
    HTTP and websockets alike) and of those how many may be websockets
    (`sockets`): the rest is the reserve for requests, so the phones'
    sockets never keep a referee out. Each takes a file descriptor; the
    files, database connections and threads of the site need the rest."""

    files: int
    connections: int
    sockets: int

    @classmethod
    def of(cls, files: int) -> "Budget":
        connections = files - max(128, files // 8)
        return cls(files, connections, connections - max(64, connections // 8))


@functools.cache
def budget() -> Budget:
    """This process's budget, from its open-files limit (which `manage.py
    serve` raised before the server started)."""
    return Budget.of(resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def raise_open_files() -> int:
    """The soft open-files limit raised to the hard one, as far as the
    system lets it (macOS refuses more than its own maximum); the limit
    now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    while wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            wanted //= 2
        else:
            return wanted
    return soft


# glibc's malloc: blocks of at least this size get mappings of their own,
# given back to the system when freed, and all threads share two arenas.
# By default the first large block freed raises that threshold to its own
# size, so the blocks of a burst of large photo uploads stayed in the heap
# afterwards, as did the pieces of the threads' own arenas.
MMAP_THRESHOLD = 4 * 1024 * 1024
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8


def give_memory_back() -> None:
    """glibc's malloc as the module says, in this process and (through
    its environment) in the worker processes it starts; nothing elsewhere
    (macOS)."""
    os.environ.setdefault("MALLOC_MMAP_THRESHOLD_", str(MMAP_THRESHOLD))
    os.environ.setdefault("MALLOC_ARENA_MAX", "2")
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    mallopt(_M_ARENA_MAX, 2)


class HallProtocol(H11Protocol):
    """uvicorn's h11 protocol with the bounds above (the module's
    docstring)."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_BYTES)
        # Waiting for a request's head, and for the client to read: each with
        # its deadline and since when (the longest waiting makes room for a
        # new connection when the budget is full).
        self._head = _Wait()
        self._write = _Wait()

    @property
    def waiting_since(self) -> float | None:
        """Since when this connection waits for its client (None: a request
        is under way, its answer flowing)."""
        since = [w.since for w in (self._head, self._write) if w.since is not None]
        return min(since, default=None)

    # A request's head, in time.

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        if len(self.connections) > budget().connections and not self._make_room():
            text = _FULL_TEXT
            self.transport.write(_FULL % (len(text), text))
            self.transport.close()
            return
        self._head.start(self, settings.FRONT_HEAD_SECONDS)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's head arrived
            self._head.stop()

    def on_response_complete(self) -> None:
        # Before the next head is looked for (a pipelined one may be there).
        if not self.transport.is_closing():
            self._head.start(self, settings.FRONT_HEAD_SECONDS)
        super().on_response_complete()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._head.stop()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._head.stop()
        self._write.stop()
        super().connection_lost(exc)

    # An answer the client takes, in time: while the transport holds more
    # than it may (its high-water mark), the client must take some within
    # the time, whatever requests come and go meanwhile.

    def pause_writing(self) -> None:
        super().pause_writing()
        self._write.start(self, settings.FRONT_WRITE_SECONDS)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._write.stop()

    def cut_off(self) -> None:
        """Close at once, without the answer's rest: a request under way
        then ends as if its client had left (uvicorn tells it so)."""
        self._head.stop()
        self._write.stop()
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            # Reset, not closed: what the client did not take is dropped at
            # once, not kept by the system until it gives up sending.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
        self.transport.abort()

    def _make_room(self) -> bool:
        """Close the connection that has waited longest; False if none
        waits."""
        longest: HallProtocol | None = None
        oldest = 0.0
        for connection in self.connections:
            if isinstance(connection, HallProtocol):
                since = connection.waiting_since
                if since is not None and (longest is None or since < oldest):
                    longest, oldest = connection, since
        if longest is None:
            return False
        longest.cut_off()
        return True


class _Wait:
    """A connection waiting for its client: since when, and its deadline."""

    def __init__(self) -> None:
        self.since: float | None = None
        self._timer: asyncio.TimerHandle | None = None

    def start(self, protocol: HallProtocol, seconds: float) -> None:
        self.stop()
        self.since = protocol.loop.time()
        self._timer = protocol.loop.call_later(seconds, protocol.cut_off)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.since = None
