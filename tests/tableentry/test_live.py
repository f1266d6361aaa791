""" "Mein Turnier" is live (issue 16.1): the phone of one player of a table
gets its page's fragment pushed when another player of the table enters or
confirms, as the public pages get theirs; the poll answers 304 while
nothing changed."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from tests.support.results import FIVE
from tests.support.threads import run_async
from tests.support.websockets import MEMORY_LAYER, layer_release, ws_connect
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.results.services import (
    result_confirm_by_player,
    result_enter_by_player,
)


@pytest.fixture(autouse=True)
def channel_layer(settings, local_cache):
    settings.CHANNEL_LAYERS = MEMORY_LAYER
    yield
    layer_release()


def key(entry):
    return FragmentKey(FRAGMENTS["mein"], {"link": entry.link_token})


@pytest.mark.django_db(transaction=True)
def test_the_other_players_phone_gets_the_entry_and_then_the_result(at_table):
    me = at_table.p[3]
    shown = region(at_table.tournament, key(me), "de")

    def enter():
        return result_enter_by_player(
            player=at_table.p[1],
            table=at_table.t1,
            games=FIVE,
            mode="quick",
            revision=0,
        )

    async def scenario():
        path = f"/ws/t/{at_table.tournament.slug}/?lang=de"
        socket, connected, _ = await ws_connect(path)
        assert connected
        await socket.send_json_to(
            {
                "type": "subscribe",
                "regions": [{"key": key(me).text, "etag": shown.etag}],
            }
        )
        ack = await socket.receive_json_from(timeout=5)
        assert ack["type"] == "subscribed"
        version = await database_sync_to_async(enter)()
        entered = await socket.receive_json_from(timeout=5)
        await database_sync_to_async(result_confirm_by_player)(
            player=me, version=version
        )
        confirmed = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return entered, confirmed

    entered, confirmed = run_async(scenario)
    assert entered["key"] == key(me).text
    assert "Stimmt das Ergebnis?" in entered["html"]
    assert "bestätigt" in confirmed["html"]
    assert "Stimmt das Ergebnis?" not in confirmed["html"]


@pytest.mark.django_db
def test_the_poll_answers_304_until_the_table_changes(
    at_table, client, django_capture_on_commit_callbacks
):
    me = at_table.p[2]
    url = reverse(
        "tournament:live_fragment", kwargs={"slug": "rm-test", "name": "mein"}
    )
    first = client.get(url, {"link": me.link_token})
    assert first.status_code == 200
    again = client.get(url, {"link": me.link_token}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    # As in production, the change is announced once it is committed.
    with django_capture_on_commit_callbacks(execute=True):
        result_enter_by_player(
            player=at_table.p[1],
            table=at_table.t1,
            games=FIVE,
            mode="quick",
            revision=0,
        )
    changed = client.get(url, {"link": me.link_token}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert "Stimmt das Ergebnis?" in changed.content.decode()
    wrong = client.get(url, {"link": "x" * 32})
    assert wrong.status_code == 404
