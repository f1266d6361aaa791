"""Django's ASGI handler with a request's middleware and view in one thread.

Under ASGI, Django runs each middleware in async mode wherever the
middleware allows it, and this site's views are synchronous. So every
`MiddlewareMixin` (sessions, CSRF, auth, messages, CSP, …) would run its
`process_request` and `process_response` through `sync_to_async`, and a
sync-only one (the language middleware) would go back through
`async_to_sync`: some twenty hand-overs between the event loop and the
request's thread per request. Each hand-over costs its switch and, under
load, a wait for the GIL behind every other busy thread, so the pages with
the most middleware steps and queries (a referee's) would wait longest
while the hall's phones read the standings.

Here the chain is loaded in sync mode, as under WSGI, and a request enters
its thread once: the middleware, the view and the response run there
together. That thread is one of its lane's (`core.limits.Lanes`), kept for
the lane's next requests: a thread started for each request made the event
loop wait for each start, while the phones' kept pages waited for the loop.
Websockets are not Django's (Channels), and the site has no async view;
one would still work, called from that thread.
"""

from concurrent.futures import Executor
from typing import Any, cast

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from asgiref.typing import ASGI3Application
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from tournament.core import serving

# The thread a request's middleware and view run in, when the way into
# Django gives one (`core.limits.Lanes`: a lane's threads are kept for its
# next requests); else Django makes one for the request.
EXECUTOR_KEY = "siebenschraem.executor"


class OneThreadASGIHandler(ASGIHandler):
    """ASGIHandler whose middleware chain is synchronous: one switch to the
    request's thread (Django's thread-sensitive one) per request."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        executor: Executor | None = scope.get(EXECUTOR_KEY)
        if executor is None or scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        # As ASGIHandler.__call__, in the thread given.
        async with ThreadSensitiveContext(executor=executor):
            await self.handle(scope, receive, send)

    def load_middleware(self, is_async: bool = False) -> None:
        # ASGIHandler asks for the async chain; this handler's is sync.
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        response = await sync_to_async(self.get_response, thread_sensitive=True)(
            request
        )
        return cast(HttpResponse, response)


def get_asgi_application() -> ASGI3Application:
    """As django.core.asgi.get_asgi_application, with the handler above
    (Django's own with the layer `onethread` off: `core.serving`)."""
    django.setup(set_prefix=False)
    if not serving.on("onethread"):
        return cast(ASGI3Application, ASGIHandler())
    return OneThreadASGIHandler()
