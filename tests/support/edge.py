"""Requests through the edge (`tournament.live.edge.KeptPages`) as a
server hands them over: ASGI scopes, without a server."""

import asyncio
from urllib.parse import urlencode

from tests.support.threads import run_async
from tournament.core.handler import OneThreadASGIHandler
from tournament.core.limits import Visitors
from tournament.live.edge import KeptPages


class Django:
    """Django's handler, counting the requests that reach it."""

    def __init__(self):
        self.app = OneThreadASGIHandler()
        self.calls = 0

    async def __call__(self, scope, receive, send):
        self.calls += 1
        await self.app(scope, receive, send)


def site() -> tuple[Visitors, Django]:
    """The edge around Django, behind the decision who a request is from
    (as config.asgi has it): (the application, Django's counter)."""
    django = Django()
    return Visitors(KeptPages(django)), django


async def get(app, path, query=None, headers=()):
    """One GET through `app`: status, headers (lower-case names), body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": urlencode(query or {}).encode(),
        "root_path": "",
        "headers": [
            *(
                []
                if any(n == b"host" for n, _ in headers)
                else [(b"host", b"testserver")]
            ),
            *headers,
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    sent = []
    asked = False

    async def receive():
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # no disconnect until Django is done

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    start = sent[0]
    found = {}
    for name, value in start["headers"]:
        found.setdefault(name.decode().lower(), []).append(value.decode("latin-1"))
    return start["status"], found, b"".join(m.get("body", b"") for m in sent[1:])


def gets(app, *requests):
    async def scenario():
        return [await get(app, *r) for r in requests]

    return run_async(scenario)
