"""Limits on requests: their body (`BodyLimits`: read whole, in time and
within a size, before anything else sees the request) and how many are in
Django at once (`Lanes`).

A request larger than anything the site takes is refused before its body
is read: Django's ASGI handler reads the whole body (to disk) before any
middleware or view runs, so a 60 MB anonymous POST cost its full upload and
disk space only to be refused by the CSRF check afterwards.

A body is read before the request takes a place in a lane, and within
`REQUEST_BODY_SECONDS`: uvicorn has no timeout of its own for a body, so a
few requests that declare a length and send a byte now and then would
otherwise hold every place in Django for as long as they like, and a
referee's page would wait behind them.
"""

import asyncio
import tempfile
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from importlib import import_module
from typing import IO

from asgiref.typing import (
    ASGI3Application,
    ASGIReceiveCallable,
    ASGIReceiveEvent,
    ASGISendCallable,
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

from tournament.core.middleware import supported_language


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
    with translation.override(_language(scope)):
        if status == 413:
            # No figure: the limit here is the largest any page takes (the
            # photo's and its form), above what the page sending it says
            # (the import's 10 MB, the photo's 25 MB).
            text = _(
                "Diese Datei ist zu groß. Bitte zurückgehen und eine kleinere "
                "wählen; die Seite sagt, wie groß sie sein darf."
            )
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
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"connection", b"close"),
            ],
            "trailers": False,
        }
    )
    await send(
        {"type": "http.response.body", "body": body.encode(), "more_body": False}
    )


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


class BodyLimits:
    """Read each HTTP request's whole body before the application sees it:
    at most `settings.REQUEST_MAX_BYTES` (else 413: at once for a declared
    Content-Length above it, else when the count passes it) and within
    `settings.REQUEST_BODY_SECONDS` (else 408). Either refusal closes the
    connection; a client that leaves gets nothing. The application then
    gets the body as one message, and from there on the server's own
    messages (Django listens for the client leaving while it works).

    The body waits in memory, one above `FILE_UPLOAD_MAX_MEMORY_SIZE` on
    disk, as Django's handler keeps it."""

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app

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


# The session store is asked in one thread of its own: made-up cookies by
# the thousand wait their turn there, and hold at most one database
# connection (PostgreSQL's pool has 10 per worker, for the lanes' threads).
_store_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lanes")


def _signed_in_session(key: str) -> bool:
    """Whether `key` names a live session of a signed-in user in the
    session store (a database query with the default engine)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    return store.session_key is not None and SESSION_KEY in store.load()


class Lanes:
    """At most so many requests in Django at once, in two lanes: visitors
    who are not signed in (the phones) and signed-in users (referees, the
    organizer). The rest wait here, in the event loop, for a free place.

    Every request in Django runs in a thread of its own, and they all take
    turns at one GIL with the event loop, which answers the kept pages
    (`tournament.live.edge`). With a hall full of phones, dozens of threads
    rendering at once each take longer, the loop's answers wait behind them,
    and a referee's page waits behind every phone's (bench/load.py times
    the referees' pages under that load). A few threads get the same work
    done, and the referees' own lane keeps the phones from ever filling it.

    A request is in the signed-in lane only if its session cookie names a
    signed-in user's session in the session store, not for having a cookie
    of that name: anyone can send one. The store is asked in a thread of
    its own, and its answer is remembered for `ANSWER_SECONDS`, so a referee's next
    requests (or a practice table's polls, with a session but not signed
    in) do not ask again, nor wait behind the made-up cookies being asked
    about. A session key never changes sides (signing in gives a new one,
    signing out deletes it), except that one who signs out may stay in the
    lane that long: he gets no more than his place in it.
    """

    ANSWER_SECONDS = 60.0
    ANSWERS_KEPT = 10_000  # then all are forgotten (made-up keys fill it)

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app
        # A semaphore belongs to one event loop; a test may run several.
        self._lanes: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[bool, asyncio.Semaphore]
        ] = weakref.WeakKeyDictionary()
        # Session key: when the store was asked, and whether signed in.
        self._answers: dict[str, tuple[float, bool]] = {}

    def _lane(self, signed_in: bool) -> asyncio.Semaphore:
        lanes = self._lanes.setdefault(asyncio.get_running_loop(), {})
        lane = lanes.get(signed_in)
        if lane is None:
            size = settings.REQUEST_LANES["signed_in" if signed_in else "public"]
            lane = lanes[signed_in] = asyncio.Semaphore(size)
        return lane

    async def _is_signed_in(self, scope: HTTPScope) -> bool:
        cookies = parse_cookie((_header(scope, b"cookie") or b"").decode("latin-1"))
        key = cookies.get(settings.SESSION_COOKIE_NAME)
        if not key:
            return False
        now = time.monotonic()
        answer = self._answers.get(key)
        if answer is None or now - answer[0] >= self.ANSWER_SECONDS:
            ask = database_sync_to_async(
                _signed_in_session, thread_sensitive=False, executor=_store_thread
            )
            if len(self._answers) >= self.ANSWERS_KEPT:
                self._answers.clear()
            answer = self._answers[key] = (now, await ask(key))
        return answer[1]

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        async with self._lane(await self._is_signed_in(scope)):
            await self.app(scope, receive, send)
