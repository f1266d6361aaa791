"""Limits on requests: their size (`BodySizeLimit`) and how many are in
Django at once (`Lanes`).

A request larger than anything the site takes is refused before its body
is read: Django's ASGI handler reads the whole body (to disk) before any
middleware or view runs, so a 60 MB anonymous POST cost its full upload and
disk space only to be refused by the CSRF check afterwards.

`BodySizeLimit` wraps the HTTP side of the ASGI application. A declared
Content-Length above the limit gets 413 at once; a body sent without one
(chunked) is counted as it arrives and cut off at the limit.
"""

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Mapping
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

# As Django's ASGIHandler types them.
Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value)
    return None


def _language(scope: Scope) -> str:
    raw = _header(scope, b"cookie")
    if raw is not None:
        cookie = SimpleCookie()
        try:
            cookie.load(raw.decode("latin-1"))
        except Exception:  # a broken cookie header: the default language
            return settings.LANGUAGE_CODE
        chosen = cookie.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen is not None and chosen.value in dict(settings.LANGUAGES):
            return chosen.value
    return settings.LANGUAGE_CODE


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    with translation.override(_language(scope)):
        text = _(
            "Diese Anfrage ist zu groß (höchstens %(max)d MB). Bitte eine kleinere "
            "Datei wählen."
        ) % {"max": max(1, limit // 2**20)}
        language = translation.get_language() or settings.LANGUAGE_CODE
        home = _("Zur Startseite")
    body = (
        f'<!DOCTYPE html><html lang="{language}"><meta charset="utf-8">'
        f'<p>{escape(text)}</p><p><a href="/">{escape(home)}</a></p></html>'
    )
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body.encode()})


class BodySizeLimit:
    """Refuse HTTP request bodies above `settings.REQUEST_MAX_BYTES`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit: int = settings.REQUEST_MAX_BYTES
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > limit:
                await _too_large(scope, send, limit)
                return
            await self.app(scope, receive, send)
            return
        # No length given (chunked): count what arrives, and stop at the limit.
        received = 0
        cut_off = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, cut_off
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    cut_off = True
                    # Django stops reading and answers nothing.
                    return {"type": "http.disconnect"}
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        await self.app(scope, counting_receive, watching_send)
        if cut_off and not started:
            await _too_large(scope, send, limit)


class Lanes:
    """At most so many requests in Django at once, in two lanes: visitors
    without a session (the phones) and signed-in users (referees, the
    organizer). The rest wait here, in the event loop, for a free place.

    Every request in Django runs in a thread of its own, and they all take
    turns at one GIL with the event loop, which answers the kept pages
    (`tournament.live.edge`). With 1,000 phones, dozens of threads rendered
    at once: each took longer, the loop's answers waited behind them, and a
    referee's page waited behind every phone's (bench/load.py: the entry
    overview's p95 was 14.8 s). A few threads get the same work done, and
    the referees' own lane keeps the phones from ever filling it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # A semaphore belongs to one event loop; a test may run several.
        self._lanes: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[bool, asyncio.Semaphore]
        ] = weakref.WeakKeyDictionary()

    def _lane(self, signed_in: bool) -> asyncio.Semaphore:
        lanes = self._lanes.setdefault(asyncio.get_running_loop(), {})
        lane = lanes.get(signed_in)
        if lane is None:
            size = settings.REQUEST_LANES["signed_in" if signed_in else "public"]
            lane = lanes[signed_in] = asyncio.Semaphore(size)
        return lane

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies = parse_cookie((_header(scope, b"cookie") or b"").decode("latin-1"))
        signed_in = settings.SESSION_COOKIE_NAME in cookies
        async with self._lane(signed_in):
            await self.app(scope, receive, send)
