"""Limits on requests between the server and Django: who a request is from
(`Visitors`), its body (`BodyLimits`: read whole, in time, within a size
and within the bodies in flight), how many requests are in Django at once
(`Lanes`) and how many websockets are open (`SocketBudget`). What the
server itself bounds before any of this (a request's head, a client that
does not read, the connections) is `tournament.core.front`.

A request larger than anything the site takes is refused before its body
is read: Django's ASGI handler reads the whole body (to disk) before any
middleware or view runs, so a 60 MB anonymous POST cost its full upload and
disk space only to be refused by the CSRF check afterwards.

A body is read before the request takes a place in a lane, and within
`REQUEST_BODY_SECONDS`: uvicorn has no timeout of its own for a body, so a
few requests that declare a length and send a byte now and then would
otherwise hold every place in Django for as long as they like, and a
referee's page would wait behind them. And only so many bodies, of so many
bytes, are in flight at once (`REQUEST_BODIES`): hundreds of large bodies
waiting for their deadline took a server's memory by the gigabyte.
"""

import asyncio
import enum
import tempfile
import time
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from http.cookies import SimpleCookie
from importlib import import_module
from typing import IO, Any, cast

from asgiref.typing import (
    ASGI3Application,
    ASGIReceiveCallable,
    ASGIReceiveEvent,
    ASGISendCallable,
    ASGISendEvent,
    HTTPScope,
    Scope,
    WWWScope,
)
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from tournament.core import background, serving
from tournament.core.front import budget
from tournament.core.handler import EXECUTOR_KEY
from tournament.core.middleware import supported_language

# Keys of the site's own in a request's scope (servers and Django pass
# unknown keys on).
VISITOR_KEY = "siebenschraem.visitor"


def _header(scope: WWWScope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value)
    return None


def _language(scope: WWWScope) -> str:
    raw = _header(scope, b"cookie")
    if raw is not None:
        cookie = SimpleCookie()
        try:
            cookie.load(raw.decode("latin-1"))
        except Exception:  # a broken cookie header: the default language
            return settings.LANGUAGE_CODE
        chosen = cookie.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen is not None:
            return supported_language(chosen.value)
    return settings.LANGUAGE_CODE


async def _refuse(scope: WWWScope, send: ASGISendCallable, status: int) -> None:
    """A short page in the visitor's language, and the connection closes
    (the rest of the body is not read)."""
    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"connection", b"close"),
    ]
    with translation.override(_language(scope)):
        if status == 413:
            # No figure: the limit here is the largest any page takes (the
            # photo's and its form), above what the page sending it says
            # (the import's 10 MB, the photo's 25 MB).
            text = _(
                "Diese Datei ist zu groß. Bitte zurückgehen und eine kleinere "
                "wählen; die Seite sagt, wie groß sie sein darf."
            )
        elif status == 503:
            text = _(
                "Gerade kommen zu viele Anfragen auf einmal an. Bitte in ein paar "
                "Sekunden noch einmal versuchen."
            )
            headers.append((b"retry-after", b"5"))
        else:
            text = _(
                "Die Anfrage kam zu langsam an. Bitte die Seite neu laden und "
                "noch einmal senden."
            )
        language = translation.get_language() or settings.LANGUAGE_CODE
        home = _("Zur Startseite")
    body = (
        f'<!DOCTYPE html><html lang="{language}"><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Siebenschräm</title>"
        f'<p>{escape(text)}</p><p><a href="/">{escape(home)}</a></p></html>'
    )
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": headers,
            "trailers": False,
        }
    )
    await send(
        {"type": "http.response.body", "body": body.encode(), "more_body": False}
    )


# --- Who a request is from ---------------------------------------------------


class Visitor(enum.Enum):
    """Who a request is from, as far as the way into Django needs to know."""

    SIGNED_IN = "signed_in"  # a signed-in user's session (referee, organizer)
    SESSION = "session"  # a session the store knows, not signed in
    ANONYMOUS = "anonymous"  # no session: none sent, or one the store does not know


def visitor(scope: Scope) -> Visitor:
    """Who `scope`'s request is from (`Visitors` decided it)."""
    found = cast(dict[str, Any], scope).get(VISITOR_KEY)
    return found if isinstance(found, Visitor) else Visitor.ANONYMOUS


# The session store is asked in one thread of its own (the pool "visitors",
# core.background): made-up cookies by the thousand wait their turn there,
# and hold at most one database connection (PostgreSQL's pool has 10 per
# worker, for the lanes' threads). Beyond the bound a cookie is not asked
# about: its request goes in as one without a session would (the phones'
# lane, the kept pages), and Django's own session middleware still reads it.
STORE = background.Bound(workers=1, queued=1024)


def _session_visitor(key: str) -> Visitor:
    """What the session store says of the session `key` (a database query
    with the default engine)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    data = store.load()
    if store.session_key is None:  # no such session: load() made none
        return Visitor.ANONYMOUS
    return Visitor.SIGNED_IN if SESSION_KEY in data else Visitor.SESSION


class Visitors:
    """Decide who each request is from, before anything else looks at it:
    the session its cookie names, as the session store knows it. Anyone
    can send a cookie of that name, so only a signed-in user's session
    takes the referees' lane and room (`Lanes`, `BodyLimits`), and a cookie
    the store does not know is no session at all: the kept public pages
    answer it as any phone (`tournament.live.edge`). A request without a
    session cookie (every phone's) asks nothing.

    The store's answer is remembered for `ANSWER_SECONDS`, so a referee's
    next requests (or a practice table's polls) do not ask again, nor wait
    behind made-up cookies being asked about. A session key never changes
    sides (signing in gives a new one, signing out deletes it), except that
    one who signs out may keep his side that long: he gets no more than his
    place in the lane."""

    ANSWER_SECONDS = 60.0
    ANSWERS_KEPT = 10_000  # then all are forgotten (made-up keys fill it)

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app
        # Session key: when the store was asked, and its answer.
        self._answers: dict[str, tuple[float, Visitor]] = {}

    async def visitor_of(self, scope: WWWScope) -> Visitor:
        cookies = parse_cookie((_header(scope, b"cookie") or b"").decode("latin-1"))
        key = cookies.get(settings.SESSION_COOKIE_NAME)
        if not key:
            return Visitor.ANONYMOUS
        now = time.monotonic()
        answer = self._answers.get(key)
        if answer is None or now - answer[0] >= self.ANSWER_SECONDS:
            try:
                store = background.pool("visitors", STORE)
                ask = database_sync_to_async(
                    _session_visitor, thread_sensitive=False, executor=store
                )
                asked = await ask(key)
            except background.Full:
                return Visitor.ANONYMOUS
            if len(self._answers) >= self.ANSWERS_KEPT:
                self._answers.clear()
            answer = self._answers[key] = (now, asked)
        return answer[1]

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] == "http":
            decided = await self.visitor_of(scope)
            scope = cast(Scope, {**scope, VISITOR_KEY: decided})
        await self.app(scope, receive, send)


# --- Bodies ------------------------------------------------------------------


class _TooLarge(Exception):
    pass


async def _read(receive: ASGIReceiveCallable, into: IO[bytes], limit: int) -> bool:
    """The whole body into the file, chunk by chunk (with a length or
    without: chunked); False if the client left before its end."""
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # http.disconnect
            return False
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        into.write(chunk)
        if not message.get("more_body", False):
            return True


@dataclass
class _InFlight:
    """The bodies of one kind of visitor being read or held, and their
    bytes (declared, or the largest allowed for one without a length)."""

    count: int = 0
    size: int = 0


class BodyLimits:
    """Read each HTTP request's whole body before the application sees it:
    at most `settings.REQUEST_MAX_BYTES` (else 413: at once for a declared
    Content-Length above it, else when the count passes it) and within
    `settings.REQUEST_BODY_SECONDS` (else 408). Either refusal closes the
    connection; a client that leaves gets nothing. The application then
    gets the body as one message, and from there on the server's own
    messages (Django listens for the client leaving while it works).

    At most so many bodies and bytes are in flight at once, from the time
    the body begins until the request ends (`settings.REQUEST_BODIES`):
    signed-in users have their own room, so a flood of anonymous uploads
    never refuses a referee's save. Beyond it: 503, the body unread.

    The body waits in memory, one above `FILE_UPLOAD_MAX_MEMORY_SIZE` on
    disk, as Django's handler keeps it."""

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app
        self._flights = {kind: _InFlight() for kind in (True, False)}

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit: int = settings.REQUEST_MAX_BYTES
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _refuse(scope, send, 413)
            return
        if (
            scope.get("http_version") in ("1.0", "1.1")
            and declared in (None, b"0")
            and _header(scope, b"transfer-encoding") is None
        ):
            # HTTP/1 without a length or chunks has no body (RFC 9112, 6.3):
            # a GET as a rule. Nothing to wait for, and the kept pages' way
            # stays as short as it was.
            await self.app(scope, receive, send)
            return
        size = int(declared) if declared is not None else limit
        signed_in = visitor(scope) is Visitor.SIGNED_IN
        flight = self._flights[signed_in]
        room = settings.REQUEST_BODIES["signed_in" if signed_in else "public"]
        if flight.count >= room["count"] or flight.size + size > room["bytes"]:
            await _refuse(scope, send, 503)
            return
        flight.count += 1
        flight.size += size
        try:
            await self._read_then_pass(scope, receive, send, limit)
        finally:
            flight.count -= 1
            flight.size -= size

    async def _read_then_pass(
        self,
        scope: HTTPScope,
        receive: ASGIReceiveCallable,
        send: ASGISendCallable,
        limit: int,
    ) -> None:
        with tempfile.SpooledTemporaryFile(
            max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE
        ) as body:
            try:
                async with asyncio.timeout(settings.REQUEST_BODY_SECONDS):
                    complete = await _read(receive, body, limit)
            except TimeoutError:
                await _refuse(scope, send, 408)
                return
            except _TooLarge:
                await _refuse(scope, send, 413)
                return
            if not complete:
                return  # nobody to answer
            given = False

            async def replay() -> ASGIReceiveEvent:
                nonlocal given
                if given:
                    return await receive()
                given = True
                body.seek(0)
                return {"type": "http.request", "body": body.read(), "more_body": False}

            await self.app(scope, replay, send)


# --- Lanes into Django ---------------------------------------------------------


class _Place:
    """A request's place in its lane. The lane is left when the answer
    starts (sending it needs no thread), and the request's thread may step
    out of it while it waits for something else (`outside_lane`)."""

    def __init__(self, lane: asyncio.Semaphore, loop: asyncio.AbstractEventLoop):
        self.lane = lane
        self.loop = loop
        self.held = True

    def leave(self) -> None:
        if self.held:
            self.held = False
            self.lane.release()

    async def take(self) -> None:
        await self.lane.acquire()
        self.held = True


# The place of the request whose work runs here (the request's coroutines
# and, copied with their context, its thread).
_place: ContextVar[_Place | None] = ContextVar("lane_place", default=None)


@contextmanager
def outside_lane() -> Iterator[None]:
    """Give up the request's place in its lane while the block runs in the
    request's thread (a photo waiting for the readers' pool, which bounds
    itself), and take a place again after it. Outside a lane (a test's
    client, a command) nothing happens."""
    place = _place.get()
    if place is None:
        yield
        return
    place.loop.call_soon_threadsafe(place.leave)
    try:
        yield
    finally:
        asyncio.run_coroutine_threadsafe(place.take(), place.loop).result()


class _Threads:
    """The threads a lane's requests run Django in, one at a time each:
    taken for a request, given back when it ends, and kept (up to `keep`)
    for the next ones."""

    def __init__(self, keep: int, name: str) -> None:
        self.keep = keep
        self.name = name
        self.idle: list[ThreadPoolExecutor] = []

    def take(self) -> ThreadPoolExecutor:
        if self.idle:
            return self.idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)

    def give(self, thread: ThreadPoolExecutor) -> None:
        if len(self.idle) < self.keep:
            self.idle.append(thread)
        else:
            thread.shutdown(wait=False)


@dataclass
class _Lane:
    places: asyncio.Semaphore
    threads: _Threads


class Lanes:
    """At most so many requests in Django at once, in two lanes: visitors
    who are not signed in (the phones) and signed-in users (referees, the
    organizer; `Visitors` decided who is). The rest wait here, in the event
    loop, for a free place (as many as the connections the server keeps,
    `core.front`); a request whose client leaves meanwhile never goes in.

    Every request in Django runs in a thread of its own, and they all take
    turns at one GIL with the event loop, which answers the kept pages
    (`tournament.live.edge`). With a hall full of phones, dozens of threads
    rendering at once each take longer, the loop's answers wait behind them,
    and a referee's page waits behind every phone's (bench/load.py times
    the referees' pages under that load). A few threads get the same work
    done, and the referees' own lane keeps the phones from ever filling it.

    A place is held while Django makes the answer, not while it is sent:
    a client that does not read would otherwise keep it (the server cuts
    it off only after `FRONT_WRITE_SECONDS`). Static files take no place:
    WhiteNoise answers them from memory (`core.static`). Each lane keeps
    its threads for its next requests (`_Threads`, handed to Django's
    handler: `core.handler`)."""

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app
        # A semaphore belongs to one event loop; a test may run several.
        self._lanes: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[str, _Lane]
        ] = weakref.WeakKeyDictionary()

    def _lane(self, name: str) -> _Lane:
        lanes = self._lanes.setdefault(asyncio.get_running_loop(), {})
        lane = lanes.get(name)
        if lane is None:
            size = settings.REQUEST_LANES.get(name, 2)  # static files: no limit
            lane = lanes[name] = _Lane(
                asyncio.Semaphore(size), _Threads(size, f"lane-{name}")
            )
        return lane

    @staticmethod
    async def _place_or_gone(
        lane: asyncio.Semaphore, gone: "asyncio.Future[ASGIReceiveEvent]"
    ) -> bool:
        """Wait for a place in `lane` or for the client to leave (`gone`),
        whichever comes first: whether the place is taken and the client is
        still there."""
        taking = asyncio.ensure_future(lane.acquire())
        await asyncio.wait((taking, gone), return_when=asyncio.FIRST_COMPLETED)
        if not gone.done():
            return True
        if taking.done() and not taking.cancelled():
            lane.release()  # taken as the client left: given back
        else:
            taking.cancel()  # a place it was given meanwhile goes back too
        return False

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "http" or not serving.on("lanes"):
            # Off: every request straight into Django, in a thread of its own.
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith("/" + settings.STATIC_URL.lstrip("/")):
            # A static file takes no place (WhiteNoise answers it from
            # memory, `core.static`), only a thread kept for them.
            await self._in_thread(self._lane("static"), scope, receive, send)
            return
        lane = self._lane(
            "signed_in" if visitor(scope) is Visitor.SIGNED_IN else "public"
        )
        places = lane.places
        # The request's body (read whole by BodyLimits, or none); while it
        # waits for a place, also the next message, which comes only when
        # the client leaves: a request whose client left meanwhile never
        # goes into Django (a flood of connections that asked and left kept
        # every phone behind them).
        first = await receive()
        if first["type"] == "http.disconnect":
            return
        gone: asyncio.Future[ASGIReceiveEvent] | None = None
        if places.locked():
            gone = asyncio.ensure_future(receive())
            if not await self._place_or_gone(places, gone):
                return  # nobody to answer
        else:
            await places.acquire()  # free: taken at once
        place = _Place(places, asyncio.get_running_loop())
        body: ASGIReceiveEvent | None = first
        del first

        async def receiving() -> ASGIReceiveEvent:
            # The body once, and no longer held here (a photo's bytes would
            # live as long as this frame, in a cycle until the collector's
            # next full pass).
            nonlocal body
            if body is not None:
                given, body = body, None
                return given
            return await (gone if gone is not None else receive())

        async def sending(message: ASGISendEvent) -> None:
            if message["type"] == "http.response.start":
                place.leave()
            await send(message)

        token = _place.set(place)
        try:
            await self._in_thread(lane, scope, receiving, sending)
        finally:
            _place.reset(token)
            place.leave()
            if gone is not None:
                gone.cancel()

    async def _in_thread(
        self,
        lane: _Lane,
        scope: Scope,
        receive: ASGIReceiveCallable,
        send: ASGISendCallable,
    ) -> None:
        """The request in Django, in one of the lane's threads."""
        thread = lane.threads.take()
        try:
            await self.app(cast(Scope, {**scope, EXECUTOR_KEY: thread}), receive, send)
        finally:
            lane.threads.give(thread)


class SocketBudget:
    """At most `front.budget().sockets` websockets open in this process at
    once; a socket beyond is refused (the page polls instead, as when the
    Wi-Fi drops it). The rest of the connections a process may hold stay
    for requests: a hall's sockets never keep a referee's page out."""

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app
        self.open = 0

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        if self.open >= budget().sockets:
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1013, "reason": ""})
            return
        self.open += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open -= 1
