"""Channel layers for the websocket tests."""

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
    live_consumers._executor.submit(connections.close_all).result()
