""" "Mein Turnier" is live (issue 16.1): the phone of one player of a table
gets its page's fragment pushed when another player of the table enters or
confirms, as the public pages get theirs; the poll answers 304 while
nothing changed."""

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.support import edge, websockets
from tests.support.edge import gets
from tests.support.results import FIVE
from tests.support.threads import run_async
from tests.support.websockets import MEMORY_LAYER, layer_release, ws_connect
from tournament.live import invalidation
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.registration.services import entry_link_renew, entry_withdraw
from tournament.tableentry import selectors as tableentry_selectors
from tournament.tableentry.services import (
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


def entered_at_table_one(at_table):
    """Player 1 enters table 1's result from his phone (waiting for the
    others' *Stimmt*)."""
    return result_enter_by_player(
        player=at_table.p[1], table=at_table.t1, games=FIVE, mode="quick", revision=0
    )


@pytest.mark.django_db(transaction=True)
def test_the_other_players_phone_gets_the_entry_and_then_the_result(at_table):
    me = at_table.p[3]
    shown = region(at_table.tournament, key(me), "de")

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
        version = await database_sync_to_async(entered_at_table_one)(at_table)
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
        entered_at_table_one(at_table)
    changed = client.get(url, {"link": me.link_token}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert "Stimmt das Ergebnis?" in changed.content.decode()
    wrong = client.get(url, {"link": "x" * 32})
    assert wrong.status_code == 404


def poll_url(tournament):
    return reverse(
        "tournament:live_fragment", kwargs={"slug": tournament.slug, "name": "mein"}
    )


@pytest.mark.django_db(transaction=True)
def test_a_renewed_card_ends_the_old_links_live_part_at_once(at_table, organizer):
    """Answered before (through the edge, as a server does, and through
    Django alike), the old link's live part is gone the moment the card is
    renewed: no table, no tablemates; the new link works."""
    me = at_table.p[3]
    old = me.link_token
    app, _ = edge.site()
    path = poll_url(at_table.tournament)
    before = gets(app, (path, {"link": old}), (path, {"link": old}))
    assert [status for status, _, _ in before] == [200, 200]
    assert "Tisch 1" in before[1][2].decode()
    renewed = entry_link_renew(actor=organizer, entry=me)
    phone = Client()
    for status, headers, body in gets(
        app, (path, {"link": old}), (path, {"link": old})
    ):
        assert status == 404 and "Tisch 1" not in body.decode()
        assert headers["x-live-gone"] == ["1"]
        assert "gibt es nicht (mehr)" in body.decode()
    assert phone.get(path, {"link": old}).status_code == 404
    assert phone.get(path, {"link": renewed.link_token}).status_code == 200


@pytest.mark.django_db
def test_the_live_address_counts_wrong_links_like_the_page(at_table, settings):
    """Wrong links named on the live address count exactly as those named
    on the page: after as many of either, the page and the live address
    answer a wrong link alike, and no longer as a fresh address (whatever
    the guard then does: `core.ratelimit`)."""
    settings.PLAYER_LINK_MISSES = 3
    slug = at_table.tournament.slug
    path = poll_url(at_table.tournament)

    def on_page(phone, link):
        return phone.get(reverse("tournament:mine", args=[slug, link])).status_code

    def on_live(phone, link):
        return phone.get(path, {"link": link}).status_code

    def answers_after(miss):
        cache.clear()
        phone = Client()
        for n in range(3):
            miss(phone, f"{n}" * 32)
        return on_page(phone, "y" * 32), on_live(phone, "z" * 32)

    cache.clear()
    fresh = Client()
    fresh_answers = on_page(fresh, "y" * 32), on_live(fresh, "z" * 32)
    after_page = answers_after(on_page)
    assert after_page != fresh_answers  # the guard counts the page's misses
    assert answers_after(on_live) == after_page


async def _subscribe(socket, entry, etag=""):
    await socket.send_json_to(
        {"type": "subscribe", "regions": [{"key": key(entry).text, "etag": etag}]}
    )
    return await socket.receive_json_from(timeout=5)


async def subscribed(at_table, entry, etag):
    """A socket of the tournament's pages with his region subscribed."""
    socket, connected, _ = await ws_connect(
        f"/ws/t/{at_table.tournament.slug}/?lang=de"
    )
    assert connected
    assert (await _subscribe(socket, entry, etag))["type"] == "subscribed"
    return socket


@pytest.mark.django_db(transaction=True)
def test_a_renewed_card_ends_the_old_links_sockets(at_table, organizer):
    me = at_table.p[3]
    shown = region(at_table.tournament, key(me), "de")
    old_key = key(me).text

    async def scenario():
        path = f"/ws/t/{at_table.tournament.slug}/?lang=de"
        socket, connected, _ = await ws_connect(path)
        assert connected
        ack = await _subscribe(socket, me, shown.etag)
        assert ack["type"] == "subscribed" and ack["keys"] == [old_key]
        await database_sync_to_async(entry_link_renew)(actor=organizer, entry=me)
        gone = await socket.receive_json_from(timeout=5)
        closed = await socket.receive_output(timeout=5)
        # A page that opens a socket with the old link again gets the same.
        again, connected, _ = await ws_connect(path)
        assert connected
        refused = await _subscribe(again, me)
        closed_again = await again.receive_output(timeout=5)
        return gone, closed, refused, closed_again

    gone, closed, refused, closed_again = run_async(scenario)
    for message in (gone, refused):
        assert message["type"] == "gone" and message["key"] == old_key
        assert "gibt es nicht (mehr)" in message["html"]
        assert "Tisch" not in message["html"]
    assert closed == closed_again == {"type": "websocket.close", "code": 4410}


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_reaches_his_own_live_part_at_once(at_table, organizer):
    me = at_table.p[3]
    shown = region(at_table.tournament, key(me), "de")

    async def scenario():
        path = f"/ws/t/{at_table.tournament.slug}/?lang=de"
        socket, connected, _ = await ws_connect(path)
        assert connected
        await _subscribe(socket, me, shown.etag)
        await database_sync_to_async(entry_withdraw)(
            actor=organizer, entry=me, reason="krank"
        )
        pushed = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return pushed

    pushed = run_async(scenario)
    assert pushed["type"] == "fragment" and "abgemeldet" in pushed["html"]
    poll = Client().get(
        poll_url(at_table.tournament),
        {"link": me.link_token},
        HTTP_IF_NONE_MATCH=f'"{shown.etag}"',
    )
    assert poll.status_code == 200 and "abgemeldet" in poll.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_socket_counts_wrong_links_like_the_page(at_table, settings):
    """Wrong links named over the socket count as the page counts them:
    once too many, the address gets no player's region there either."""
    settings.PLAYER_LINK_MISSES = 2
    me = at_table.p[3]
    wrong = FragmentKey(FRAGMENTS["mein"], {"link": "w" * 32})

    async def scenario():
        path = f"/ws/t/{at_table.tournament.slug}/?lang=de"
        answers = []
        for entry_key in (wrong, wrong, key(me)):
            socket, connected, _ = await ws_connect(path)
            assert connected
            await socket.send_json_to(
                {"type": "subscribe", "regions": [{"key": entry_key.text, "etag": ""}]}
            )
            answers.append(await socket.receive_json_from(timeout=5))
            await socket.disconnect()
        return answers

    first, second, locked = run_async(scenario)
    assert first["type"] == second["type"] == "gone"
    assert locked == {"type": "subscribed", "keys": []}


def _results_at_table_two(at_table):
    """A result entered and confirmed at table 2 (not his)."""
    version = result_enter_by_player(
        player=at_table.p[5], table=at_table.t2, games=FIVE, mode="quick", revision=0
    )
    result_confirm_by_player(player=at_table.p[6], version=version)


@pytest.mark.django_db
def test_his_place_follows_other_tables_at_a_pace_and_his_own_table_at_once(
    at_table, client, django_capture_on_commit_callbacks, monkeypatch
):
    """His page follows a result at another table (his place) once the
    pace's window turns, not after each result: a series' results would
    render every player's page after each one. His own table's entry
    reaches it at once."""
    pace = invalidation.PACE_SECONDS
    clock = [(time.time() // pace + 10) * pace + 1]
    monkeypatch.setattr(invalidation.time, "time", lambda: clock[0])
    me = at_table.p[2]
    url = poll_url(at_table.tournament)
    first = client.get(url, {"link": me.link_token})
    with django_capture_on_commit_callbacks(execute=True):
        _results_at_table_two(at_table)
    same_window = client.get(
        url, {"link": me.link_token}, HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert same_window.status_code == 304
    clock[0] += pace
    next_window = client.get(
        url, {"link": me.link_token}, HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert next_window.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        entered_at_table_one(at_table)
    own_table = client.get(
        url, {"link": me.link_token}, HTTP_IF_NONE_MATCH=next_window["ETag"]
    )
    assert own_table.status_code == 200
    assert "Stimmt das Ergebnis?" in own_table.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_socket_gets_his_place_when_the_pace_turns_not_before(at_table, monkeypatch):
    """In the room: a result at another table makes his region due when
    the pace's window turns, never before it; then it comes."""
    monkeypatch.setattr(invalidation, "PACE_SECONDS", 2)
    me = at_table.p[2]
    shown = region(at_table.tournament, key(me), "de")

    async def scenario():
        socket = await subscribed(at_table, me, shown.etag)
        while time.time() % 2 > 0.5:  # early in a window
            await asyncio.sleep(0.05)
        turns = (time.time() // 2 + 1) * 2
        await database_sync_to_async(_results_at_table_two)(at_table)
        pushed = await socket.receive_json_from(timeout=10)
        came = time.time()
        await socket.disconnect()
        return pushed, came, turns

    pushed, came, turns = run_async(scenario)
    assert pushed["key"] == key(me).text
    assert pushed["etag"] != shown.etag
    assert came >= turns


@pytest.mark.django_db
def test_the_outbox_asks_for_his_table_without_the_standings(
    at_table, client, monkeypatch
):
    """The phone's outbox asks "Mein Turnier" as JSON for his table alone:
    the standings are not read for it."""

    def unread(*args, **kwargs):
        raise AssertionError("the standings were read")

    monkeypatch.setattr(tableentry_selectors, "standings", unread)
    me = at_table.p[2]
    answer = client.get(
        reverse("tournament:mine", kwargs={"slug": "rm-test", "token": me.link_token}),
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 200
    assert answer.json()["table"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_change_at_his_table_is_rendered_once_for_all_his_phones(
    at_table, monkeypatch
):
    """His table's entry names his link; the room renders his region once
    and sends it to each of his phones."""
    from tournament.live import consumers

    renders = []
    render = consumers._render

    async def counted(tournament_id, key_text, language, *known):
        if not known:
            renders.append(key_text)
        return await render(tournament_id, key_text, language, *known)

    monkeypatch.setattr(consumers, "_render", counted)
    me = at_table.p[3]
    shown = region(at_table.tournament, key(me), "de")

    async def scenario():
        phones = [await subscribed(at_table, me, shown.etag) for _ in range(2)]
        await database_sync_to_async(entered_at_table_one)(at_table)
        pushed = [await socket.receive_json_from(timeout=5) for socket in phones]
        for socket in phones:
            await socket.disconnect()
        return pushed

    pushed = run_async(scenario)
    assert [p["key"] for p in pushed] == [key(me).text] * 2
    assert all("Stimmt das Ergebnis?" in p["html"] for p in pushed)
    assert renders == [key(me).text]


@pytest.mark.django_db(transaction=True)
def test_the_standings_go_out_before_the_players_pages_of_a_burst_of_tables(
    at_table, referee, referee2, monkeypatch
):
    """While a table's players' pages render, another table's result comes
    in: the standings, on more phones, go out after the render under way,
    before the rest of either table's players' pages."""
    from tests.support.results import confirm, enter
    from tournament.live import consumers

    version = enter(at_table.t2, referee)
    players = [at_table.p[n] for n in range(1, 9)]
    shown = {p.pk: region(at_table.tournament, key(p), "de").etag for p in players}
    standings = region(
        at_table.tournament, FragmentKey(FRAGMENTS["standings"], {}), "de"
    )
    render = consumers._render
    gate, blocked = asyncio.Event(), asyncio.Event()
    order = []

    async def held(tournament_id, key_text, language, *known):
        if not known:
            order.append(key_text)
            if not gate.is_set():
                blocked.set()
                await asyncio.wait_for(gate.wait(), 10)
        return await render(tournament_id, key_text, language, *known)

    monkeypatch.setattr(consumers, "_render", held)

    async def scenario():
        sockets = [await subscribed(at_table, p, shown[p.pk]) for p in players]
        slug = at_table.tournament.slug
        phones = [
            await websockets.subscribed(slug, "standings", standings.etag)
            for _ in range(3)
        ]
        # Table 1's entry: its players' pages begin to render, the first held.
        await database_sync_to_async(enter)(at_table.t1, referee)
        await asyncio.wait_for(blocked.wait(), 10)
        # Table 2 confirmed meanwhile: the standings and its players' pages.
        await database_sync_to_async(confirm)(version, referee2)
        await asyncio.sleep(0.5)  # the room has taken both messages
        gate.set()
        for phone in phones:
            while (await phone.receive_json_from(timeout=10))["key"] != "standings":
                pass
        for socket in [*sockets, *phones]:
            await socket.disconnect()

    run_async(scenario)
    table_one = {key(at_table.p[n]).text for n in range(1, 5)}
    assert order[0] in table_one
    assert order[1] == "standings", order
