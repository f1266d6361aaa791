"""The operator's two questions, answered before the site's own layers:
`/healthz` -- is this process alive (its event loop turns)? -- and
`/readyz` -- can it serve: does the database answer, and Redis (the channel
layer and cache) where one is configured, each within `CHECK_SECONDS`?

Both are answered by the event loop itself, never kept, never queued behind
the pages in a lane: a busy worker is alive, and a supervisor must not
restart it for being busy. `/readyz` answers 503 and names what failed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable

from asgiref.typing import (
    ASGI3Application,
    ASGIReceiveCallable,
    ASGISendCallable,
    Scope,
)
from django.conf import settings
from django.db import connection

CHECK_SECONDS = 2.0


def _database() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()  # back to the pool; this thread is not a request's


async def _redis() -> None:
    import redis.asyncio

    client = redis.asyncio.from_url(
        settings.REDIS_URL,
        socket_timeout=CHECK_SECONDS,
        socket_connect_timeout=CHECK_SECONDS,
    )
    try:
        await client.ping()  # type: ignore[misc]  # redis's stubs: bool | Awaitable
    finally:
        await client.aclose()


async def readiness() -> dict[str, str]:
    """Each dependency's state: "ok", or why it failed."""
    checks: dict[str, Awaitable[None]] = {"database": asyncio.to_thread(_database)}
    if settings.REDIS_URL:
        checks["redis"] = _redis()
    states: dict[str, str] = {}
    for name, check in checks.items():
        try:
            await asyncio.wait_for(check, CHECK_SECONDS)
            states[name] = "ok"
        except TimeoutError:
            states[name] = f"no answer within {CHECK_SECONDS:g} s"
        except Exception as error:  # the answer names it; nothing else to do
            states[name] = type(error).__name__
    return states


class Health:
    """ASGI middleware answering `/healthz` and `/readyz` (module docstring)."""

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        path = scope.get("path") if scope["type"] == "http" else None
        if path == "/healthz":
            await _answer(send, 200, {"alive": "ok"})
        elif path == "/readyz":
            states = await readiness()
            ready = all(state == "ok" for state in states.values())
            await _answer(send, 200 if ready else 503, states)
        else:
            await self.app(scope, receive, send)


async def _answer(send: ASGISendCallable, status: int, body: dict[str, str]) -> None:
    content = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "trailers": False,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content, "more_body": False})
