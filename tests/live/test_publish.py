"""A commit's message to the live pages is handed to the server's event
loop, not waited for (tournament/live/invalidation.py through
`background.soon`): the request's thread gives its place in the lane back
while the loop is still busy with the hall's sockets, and the pages get
the message once the loop is free."""

import asyncio
import threading

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tests.support.threads import served
from tournament.live import invalidation
from tournament.live.invalidation import Part

WAIT = 5  # seconds the loop stays busy at most


def test_a_request_tells_the_pages_without_waiting_for_a_busy_event_loop():
    returned = threading.Event()
    returned_while_busy: list[bool] = []

    def busy() -> None:  # the loop in a series' results: no message taken
        returned_while_busy.append(returned.wait(WAIT))

    def request(loop: asyncio.AbstractEventLoop) -> None:  # after its commit
        loop.call_soon_threadsafe(busy)
        invalidation.publish(947_120_001, [Part.STANDINGS, Part.RESULTS])
        returned.set()

    async def scenario() -> dict:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        group = invalidation.group_name(947_120_001)
        await layer.group_add(group, channel)
        try:
            async with served():
                # A request's thread, as Django's handler runs it.
                await sync_to_async(request, thread_sensitive=False)(
                    asyncio.get_running_loop()
                )
                return await asyncio.wait_for(layer.receive(channel), WAIT)
        finally:
            await layer.group_discard(group, channel)

    message = asyncio.run(scenario())
    assert returned_while_busy == [True]
    assert message["type"] == "live.update"
    assert message["parts"] == ["results", "standings"]
