"""Websockets are opened only by the site's own pages.

A browser sends a page's cookies with every websocket it opens, whichever
site's page opens it, and the same-origin policy does not cover websockets:
a page of another site could open ``/ws/t/<slug>/`` in a referee's browser,
with the referee's session, and read what only referees see (cross-site
websocket hijacking). Only the handshake's Origin header tells the pages
apart. Channels' AllowedHostsOriginValidator compares it with ALLOWED_HOSTS
alone, so once they are ``*`` it lets every origin through, and no origin
at all.

`SameOriginValidator` wraps every websocket route and refuses the handshake
unless

- the Host header names one of ALLOWED_HOSTS (as Django asks of every HTTP
  request), and
- the Origin header is present and names that same scheme, host and port
  (the socket's own origin: ``wss`` is opened by ``https`` pages, ``ws`` by
  ``http`` ones), or is one of CSRF_TRUSTED_ORIGINS -- the origins Django's
  CSRF check trusts for forms (e.g. a TLS proxy that does not say it is one).

This holds whatever ALLOWED_HOSTS is, ``*`` included.

`tell(group, message)`: a message to a group of sockets through the channel
layer, handed to the server's event loop and not waited for
(`core.background.soon`), as the services do after a commit.
"""

import logging
from typing import Any
from urllib.parse import urlsplit

from asgiref.typing import (
    ASGI3Application,
    ASGIReceiveCallable,
    ASGISendCallable,
    Scope,
    WebSocketScope,
)
from channels.layers import get_channel_layer
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

from tournament.core import background

logger = logging.getLogger(__name__)

# An origin: scheme, host (lower case, IPv6 without brackets), port.
Origin = tuple[str, str, int]

DEFAULT_PORTS = {"http": 80, "https": 443}
# The close code of a refused handshake, as the consumers' own refusals.
REFUSED = 4403


def _only_header(scope: WebSocketScope, name: bytes) -> str | None:
    """The header's value if it was sent exactly once (in ASCII)."""
    values = [
        bytes(value) for key, value in scope.get("headers", ()) if key.lower() == name
    ]
    if len(values) != 1:
        return None
    try:
        return values[0].decode("ascii")
    except UnicodeDecodeError:
        return None


def _allowed_hosts() -> list[str]:
    # As HttpRequest.get_host: DEBUG without ALLOWED_HOSTS means local names.
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return allowed


def socket_origin(scope: WebSocketScope) -> Origin | None:
    """The origin of the socket itself: the scheme it was opened with and
    its Host header, if that names one of ALLOWED_HOSTS; else None."""
    host = _only_header(scope, b"host")
    if host is None:
        return None
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme]


def parse_origin(text: str) -> Origin | None:
    """An Origin header as (scheme, host, port); None for anything that is
    not an http(s) origin (``null``, a path, user info, a bad port)."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    if (
        parts.scheme not in DEFAULT_PORTS
        or not parts.hostname
        or parts.username is not None
        or parts.path
        or parts.query
        or parts.fragment
    ):
        return None
    host = parts.hostname.removesuffix(".")
    return parts.scheme, host, port or DEFAULT_PORTS[parts.scheme]


def _trusted(origin: Origin) -> bool:
    """One of CSRF_TRUSTED_ORIGINS (``https://*.example.org``: any
    subdomain), as Django's CSRF check reads them."""
    scheme, host, port = origin
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:
            parts = urlsplit(trusted)
            pattern = parts.netloc[parts.netloc.index("*") + 1 :]
            netloc = host if port == DEFAULT_PORTS[scheme] else f"{host}:{port}"
            if parts.scheme == scheme and is_same_domain(netloc, pattern):
                return True
        elif parse_origin(trusted) == origin:
            return True
    return False


def origin_allowed(scope: WebSocketScope) -> bool:
    """Whether a websocket handshake comes from the site's own page."""
    own = socket_origin(scope)
    if own is None:
        return False
    header = _only_header(scope, b"origin")
    origin = None if header is None else parse_origin(header)
    return origin is not None and (origin == own or _trusted(origin))


class SameOriginValidator:
    """ASGI middleware for websockets: the handshake goes on to `app` only
    from the site's own pages (`origin_allowed`); any other is refused
    (HTTP 403 before the socket opens; close code REFUSED)."""

    def __init__(self, app: ASGI3Application) -> None:
        self.app = app

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator guards websockets only")
        if origin_allowed(scope):
            await self.app(scope, receive, send)
            return
        logger.warning(
            "websocket refused: origin %r for host %r",
            _only_header(scope, b"origin"),
            _only_header(scope, b"host"),
        )
        # Closed before it is accepted: the server answers the handshake 403.
        if (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": REFUSED, "reason": None})


def tell(group: str, message: dict[str, Any]) -> None:
    """Send `message` to the sockets of `group` (nothing without a channel
    layer); the caller's thread does not wait for the event loop."""
    layer = get_channel_layer()
    if layer is not None:
        background.soon(layer.group_send, group, message)
