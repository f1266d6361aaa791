"""Kept pages served before Django: a cache read and the prepared bytes.

A public page that has not changed is the same bytes for every anonymous
visitor (`tournament.live.pages`). Through Django each such answer still
cost a thread of its own, the whole middleware chain and the GIL's turns
with every other busy thread: 1,000 phones reading the standings made the
referees' pages wait seconds. `KeptPages` wraps the ASGI application and
answers those requests in the event loop itself, no thread: a GET without
a session or message cookie, for a view that shares its page (`Sharing`),
whose state the cache remembers (`state.remembered`), gets 304 or the
kept gzipped bytes with the headers Django's middleware gave that page (of
its list only, `REPLAYED`). The page is the one its address shows
(`Sharing.query`): a value not allowed gets the default page here too.

Anything else goes to Django unchanged, and so does a page the edge does
not know yet: Django renders (or reads) it and marks its answer
(`pages.EDGE_HEADER`); the edge keeps the headers of that answer beside the
page if they are all on its list (`REPLAYED`: no cookie, nothing of one
visitor), and serves it itself from then on. While
one request is in Django for such a page (or for a source's state), the
others asking for the same wait for it here in the loop and are then
answered from the cache: after a change, the phones that ask at once cost
one thread, not one each queueing for Django (`core.limits.Lanes`). Both
ask the same cache with the same keys, so the pages are shared by all
workers with Redis. Cache reads here block the loop for a moment (Django's
Redis cache has no native async): a few local round trips per page.
"""

import asyncio
import contextlib
import functools
import gzip
import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from asgiref.typing import (
    ASGI3Application,
    ASGIReceiveCallable,
    ASGISendCallable,
    ASGISendEvent,
    HTTPScope,
    Scope,
)
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import BaseCache, caches
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.core.signals import setting_changed
from django.urls import Resolver404, ResolverMatch, resolve
from django.utils.cache import get_conditional_response
from django.utils.http import http_date

from tournament.core import serving
from tournament.core.limits import Visitor, visitor
from tournament.core.middleware import language_of
from tournament.live import pages, state

logger = logging.getLogger(__name__)

Headers = list[tuple[bytes, bytes]]

# How long a request waits for the one in Django that makes its page (then
# it goes to Django itself).
FLIGHT_WAIT = 10.0

# What the edge sets itself, per answer. The type comes with the kept page
# (a 304 has none).
_PER_ANSWER = {
    b"content-type",
    b"etag",
    b"last-modified",
    b"content-length",
    b"content-encoding",
    b"date",
    b"server",
    pages.EDGE_HEADER.lower().encode(),
}

# What the edge replays of the headers Django gave a kept page, to everybody
# (from a 200 or a 304 alike): the language, caching and security headers,
# the same for every visitor. A page whose answer has any other header (a
# cookie, a middleware's header of one visitor) is not taken by the edge:
# Django answers it each time, and a warning names the header.
REPLAYED = frozenset(
    {
        b"content-language",
        b"vary",
        b"cache-control",
        b"content-security-policy",
        b"content-security-policy-report-only",
        b"x-frame-options",
        b"x-content-type-options",
        b"referrer-policy",
        b"cross-origin-opener-policy",
        b"cross-origin-resource-policy",
        b"strict-transport-security",
        b"permissions-policy",
    }
)


def replayable(headers: Headers) -> Headers | None:
    """The headers of a kept page's answer the edge replays, or None if it
    has one it must not replay to everybody (`REPLAYED`)."""
    own = [(k.lower(), v) for k, v in headers if k.lower() not in _PER_ANSWER]
    other = sorted({k for k, _ in own} - REPLAYED)
    if other:
        logger.warning("kept page not taken by the edge: header %s", other)
        return None
    return own


def headers_key(tag: str, secure: bool) -> str:
    """Where the edge keeps the headers of the page of ETag `tag` (HSTS is
    sent over HTTPS only)."""
    return f"live-headers:{tag}:{'https' if secure else 'http'}"


@dataclass(frozen=True)
class _Answer:
    status: int
    headers: Headers
    body: bytes = b""

    async def send(self, send: ASGISendCallable) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": self.status,
                "headers": self.headers,
                "trailers": False,
            }
        )
        await send(
            {"type": "http.response.body", "body": self.body, "more_body": False}
        )


@dataclass(frozen=True)
class _Unknown:
    """A page the edge may serve but has not: its state not remembered, the
    page not kept, or its headers not seen yet."""

    secure: bool
    # What the request that goes to Django makes: the state of a source, or
    # a page (its ETag). Others asking for it meanwhile wait for that one.
    flight: str


class KeptPages:
    """ASGI middleware around Django: kept public pages from the cache."""

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app
        self._store: BaseCache | None = None
        self._flights: dict[str, asyncio.Future[None]] = {}
        setting_changed.connect(self._settings_changed, weak=False)

    def _settings_changed(self, setting: str, **kwargs: Any) -> None:
        if setting == "CACHES":
            self._store = None
        if setting == "ROOT_URLCONF":
            _resolved.cache_clear()

    @property
    def store(self) -> BaseCache:
        # One backend object for the loop: `django.core.cache.cache` is one
        # per asyncio task, and Django's Redis client one connection pool
        # per object.
        if self._store is None:
            self._store = caches.create_connection("default")
        return self._store

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if (
            scope["type"] == "http"
            and scope.get("method") == "GET"
            and serving.on("edge")
        ):
            found = self._find(scope)
            if isinstance(found, _Unknown) and found.flight in self._flights:
                # Another request is in Django for this page right now: the
                # page of the last state known meanwhile (that request may
                # wait for its lane), else wait for it here, in the loop,
                # instead of in a thread of our own.
                stale = self._find(scope, stale=True)
                if isinstance(stale, _Answer):
                    await stale.send(send)
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        asyncio.shield(self._flights[found.flight]), FLIGHT_WAIT
                    )
                found = self._find(scope)
            if isinstance(found, _Answer):
                await found.send(send)
                return
            if isinstance(found, _Unknown):
                # A key of the site's own, which asgiref's HTTPScope does not
                # name (servers and Django pass unknown keys on).
                scope = cast(HTTPScope, {**scope, pages.EDGE_SCOPE_KEY: True})
                send = self._keeping(send, found.secure)
                flight = asyncio.get_running_loop().create_future()
                self._flights.setdefault(found.flight, flight)
                try:
                    await self.app(scope, receive, send)
                finally:
                    if self._flights.get(found.flight) is flight:
                        del self._flights[found.flight]
                    flight.set_result(None)
                return
        await self.app(scope, receive, send)

    def _find(self, scope: HTTPScope, stale: bool = False) -> _Answer | _Unknown | None:
        try:
            return self.find(scope, stale)
        except Exception:  # the fast path must never break a request
            logger.exception("kept page lookup failed for %s", scope.get("path"))
            return None

    def find(self, scope: HTTPScope, stale: bool = False) -> _Answer | _Unknown | None:
        """The answer to `scope` from the cache, _Unknown for a shared page
        the edge cannot answer yet, or None for Django's. `stale`: the page
        of the last state this process knew, however old."""
        if _has_body(scope.get("headers", ())):
            return None
        if visitor(scope) is not Visitor.ANONYMOUS:
            return None  # a session the store knows: Django decides
        request = ASGIRequest(scope, io.BytesIO())
        if CookieStorage.cookie_name in request.COOKIES:
            return None  # a message to show: Django's
        secure = request.is_secure()
        if settings.SECURE_SSL_REDIRECT and not secure:
            return None
        try:
            request.get_host()
        except DisallowedHost:
            return None
        match = _resolved(request.path_info)
        if match is None:
            return None
        sharing = pages.sharing_of(match.func, request, match.kwargs)
        if sharing is None or any(p not in sharing.params for p in request.GET):
            return None  # a parameter the middleware may act on (`?lang=`)
        query = sharing.query(request)
        if query is None:
            return None
        store = self.store
        slug = str(match.kwargs.get("slug", ""))
        known = (
            state.last_known(slug, sharing.source)
            if stale
            else state.remembered(store, slug, sharing.source)
        )
        if known is None:
            # Django reads the state (and marks the page).
            return _Unknown(secure, f"known:{slug}:{sharing.source}")
        tag = sharing.tag(request, known, language_of(request), query)
        gzipped = pages.accepts_gzip(request)
        header = sharing.header(tag, gzipped)
        kept, headers = _get_two(store, pages.page_key(tag), headers_key(tag, secure))
        if headers is None:
            return _Unknown(secure, tag)
        validators = [
            (b"etag", header.encode()),
            (b"last-modified", http_date(known.modified).encode()),
        ]
        unchanged = get_conditional_response(
            request, etag=header, last_modified=int(known.modified)
        )
        if unchanged is not None:
            if unchanged.status_code != 304:
                return None  # a failed precondition: Django answers it
            return _Answer(304, headers + validators)
        if not isinstance(kept, pages.Kept):
            return _Unknown(secure, tag)
        body = kept.body if gzipped else gzip.decompress(kept.body)
        extra = [
            (b"content-type", kept.content_type.encode("latin-1")),
            (b"content-length", str(len(body)).encode()),
        ]
        if gzipped:
            extra.append((b"content-encoding", b"gzip"))
        return _Answer(200, headers + validators + extra, body)

    def _keeping(self, send: ASGISendCallable, secure: bool) -> ASGISendCallable:
        """`send`, keeping the headers of Django's answer if it is a kept
        page (marked) with no header but those replayed (`replayable`)."""

        async def keeping(message: ASGISendEvent) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                marker = pages.EDGE_HEADER.lower().encode()
                tags = [v for k, v in headers if k.lower() == marker]
                if tags:
                    headers = [(k, v) for k, v in headers if k.lower() != marker]
                    message = {**message, "headers": headers}
                    own = replayable(headers)
                    if message["status"] in (200, 304) and own is not None:
                        key = headers_key(tags[0].decode("latin-1"), secure)
                        self.store.set(key, own, timeout=pages.PAGE_TIMEOUT)
            await send(message)

        return keeping


@functools.lru_cache(maxsize=4096)
def _resolved(path: str) -> ResolverMatch | None:
    """The view `path` names (None: none), remembered: Django's resolver
    tries the site's patterns one by one for every request."""
    try:
        return resolve(path)
    except Resolver404:
        return None


def _has_body(headers: Iterable[tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        name = name.lower()
        if name == b"transfer-encoding" or (
            name == b"content-length" and value != b"0"
        ):
            return True
    return False


def _get_two(store: BaseCache, first: str, second: str) -> tuple[Any, Any]:
    found = store.get_many([first, second])
    return found.get(first), found.get(second)
