"""A process's room under a burst of updates (`tournament.live.consumers`):
it takes every update off its channel at once, however slow its renders,
and the region most pages watch goes out first."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from tests.support.results import confirm, enter, games
from tests.support.threads import run_async
from tests.support.websockets import layer_release, subscribed, ws_connect
from tournament.live import consumers
from tournament.live.fragments import fragment_key, region
from tournament.models import Table

# How long a test waits for what must come: a ceiling for a loaded machine,
# never waited out when the site works.
WAIT = 30
# The layer forgets a message left this long in a channel, and drops the
# channel from its groups with it (the in-memory layer; its default is a
# minute, which a backlog of renders on a loaded machine reached).
EXPIRY = 1


@pytest.fixture(autouse=True)
def channel_layer(settings, local_cache):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"expiry": EXPIRY},
        }
    }
    yield
    layer_release()


def current_etag(tournament, key_text):
    tournament.refresh_from_db()
    return region(tournament, fragment_key(key_text, {}), "de").etag


async def newest(socket, key_text, etag):
    """The fragments pushed to `socket` until one for `key_text` shows
    `etag`; True if it came."""
    try:
        while True:
            message = await socket.receive_json_from(timeout=WAIT)
            if message.get("key") == key_text and message.get("etag") == etag:
                return True
    except TimeoutError:
        return False


@pytest.mark.django_db(transaction=True)
def test_a_projector_follows_every_update_when_renders_outlast_the_layers_expiry(
    tournament, series, referee, referee2, monkeypatch
):
    tables = list(Table.objects.filter(series=series).order_by("number"))
    versions = [enter(table, referee) for table in tables]
    shown = current_etag(tournament, "standings")
    real_render = consumers._render
    slow = asyncio.Event()

    async def render(*args, **kwargs):
        if slow.is_set():  # the machine is busy: this render outlasts
            slow.clear()  # the layer's patience with the next update
            await asyncio.sleep(EXPIRY * 2)
        return await real_render(*args, **kwargs)

    monkeypatch.setattr(consumers, "_render", render)

    async def scenario():
        projector = await subscribed(tournament.slug, "standings", shown)
        slow.set()
        # Two results confirmed one after the other while the first one's
        # render is slow: the second update would wait beyond the expiry.
        await database_sync_to_async(confirm)(versions[0], referee2)
        await database_sync_to_async(confirm)(versions[1], referee2)
        both = await database_sync_to_async(current_etag)(tournament, "standings")
        assert await newest(projector, "standings", both)
        # A later change (a referee's correction) must still reach the
        # projector, which never reloads.
        await database_sync_to_async(_correct)(tables[0], referee, referee2)
        final = await database_sync_to_async(current_etag)(tournament, "standings")
        came = await newest(projector, "standings", final)
        if came:  # else the communicator ended the socket when it gave up
            await projector.disconnect()
        return came

    assert run_async(scenario)


def _correct(table, referee, referee2):
    # Game 1 went to seat 2, not seat 1.
    typo = games([(2, 5), (2, 3), (1, 7), (4, 1), (3, 2)])
    confirm(enter(table, referee, typo, reason="Tippfehler"), referee2)


@pytest.mark.django_db(transaction=True)
def test_the_standings_reach_their_pages_without_waiting_for_the_renders_of_fewer_pages(
    tournament, series, referee, referee2, monkeypatch
):
    version = enter(Table.objects.get(series=series, number=1), referee)
    standings = current_etag(tournament, "standings")
    results = region(tournament, fragment_key("results", {"series": "1"}), "de").etag
    real_render = consumers._render
    holding, arrived = asyncio.Event(), asyncio.Event()
    held_to_the_end = []

    async def render(tournament_id, key_text, *args, **kwargs):
        if holding.is_set() and key_text != "standings":  # few watch it: slow
            try:
                await asyncio.wait_for(arrived.wait(), WAIT / 3)
            except TimeoutError:
                held_to_the_end.append(key_text)
        return await real_render(tournament_id, key_text, *args, **kwargs)

    monkeypatch.setattr(consumers, "_render", render)

    async def scenario():
        phones = [
            await subscribed(tournament.slug, "standings", standings) for _ in range(3)
        ]
        results_page = await subscribed(tournament.slug, "results?series=1", results)
        holding.set()
        await database_sync_to_async(confirm)(version, referee2)
        message = await phones[0].receive_json_from(timeout=WAIT)
        arrived.set()
        got = [await p.receive_json_from(timeout=WAIT) for p in phones[1:]]
        other = await results_page.receive_json_from(timeout=WAIT)
        for socket in [*phones, results_page]:
            await socket.disconnect()
        return [message, *got], other

    pushed, other = run_async(scenario)
    assert [m["key"] for m in pushed] == ["standings"] * 3
    assert other["key"] == "results?series=1"
    assert held_to_the_end == []


@pytest.mark.django_db(transaction=True)
def test_a_page_whose_region_did_not_change_is_told_its_new_etag(tournament, series):
    """A check-in moves the standings' ETag (the generation) without
    changing what they show: the page gets no HTML again, but the ETag, so
    its next reconnect or poll asks with the server's."""
    from django.db import transaction

    from tournament.live import invalidation

    def nothing_shown_changes():
        with transaction.atomic():
            invalidation.field_changed(tournament.pk)

    async def scenario():
        socket, connected, _ = await ws_connect(f"/ws/t/{tournament.slug}/?lang=de")
        assert connected
        await socket.send_json_to(
            {"type": "subscribe", "regions": [{"key": "standings", "etag": "alt"}]}
        )
        caught_up = await socket.receive_json_from(timeout=WAIT)
        assert (await socket.receive_json_from(timeout=WAIT))["type"] == "subscribed"
        await database_sync_to_async(nothing_shown_changes)()
        moved = await socket.receive_json_from(timeout=WAIT)
        await socket.disconnect()
        return caught_up, moved

    caught_up, moved = run_async(scenario)
    assert caught_up["type"] == "fragment"
    assert moved == {
        "type": "etag",
        "key": "standings",
        "etag": current_etag(tournament, "standings"),
    }
    assert moved["etag"] != caught_up["etag"]
