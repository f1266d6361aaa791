"""Websockets in the tests: this process's in-memory channel layer, and
sockets to the site as a page of the test server opens them."""

from channels.testing import WebsocketCommunicator

MEMORY_LAYER = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def layer_release() -> None:
    """After a websocket test: the channel layer emptied, and the live
    consumers' own thread lets go of its database connection (the test
    database must be free to be flushed or dropped)."""
    from channels.layers import get_channel_layer
    from django.db import connections

    from tests.support.threads import run_async
    from tournament.live import consumers as live_consumers

    run_async(get_channel_layer().flush)
    live_consumers.live_pool().submit(connections.close_all).result()


# A page of the test server opens its sockets on its own host, and the
# browser names the page's origin; the site refuses any other origin.
HOST = "testserver"
ORIGIN = f"http://{HOST}"


async def ws_connect(
    path: str,
    *,
    cookie: str | None = None,
    origin: str | None = ORIGIN,
    host: str = HOST,
) -> tuple[WebsocketCommunicator, bool, int | None]:
    """A socket to the site (config.asgi) opened on `host` from a page of
    `origin` (None: no Origin header), both the test server's unless given,
    with the session `cookie` if given. Returns the communicator, whether
    it connected, and the close code if not."""
    from config.asgi import application

    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


async def subscribed(
    slug: str, key_text: str, etag: str = "", *, timeout: float = 30
) -> WebsocketCommunicator:
    """A socket of the tournament `slug`'s pages with the region `key_text`
    subscribed as a page showing `etag` does, its catch-up (if any) read
    past: the socket's next message is a push."""
    socket, connected, _ = await ws_connect(f"/ws/t/{slug}/?lang=de")
    assert connected
    await socket.send_json_to(
        {"type": "subscribe", "regions": [{"key": key_text, "etag": etag}]}
    )
    while (await socket.receive_json_from(timeout=timeout))["type"] != "subscribed":
        pass
    return socket
