"""Digital tables over websockets: four players play a game end to end,
every message is checked for other seats' cards, bad and stale messages
change nothing, and a reconnect resumes where the player was."""

import collections
import json
import re

import pytest
from channels.db import database_sync_to_async

from scoring.bots import GreedyBot
from scoring.cards import CARD_NAMES, card_str
from scoring.records import GameRecord
from tests.support.cards import card_names
from tests.support.factories import make_user
from tests.support.threads import run_async
from tests.support.websockets import ws_connect
from tournament.models import DigitalTable, ResultVersion

CARDS = frozenset(CARD_NAMES)

pytestmark = pytest.mark.usefixtures("memory_layer")


@pytest.fixture
def digital(four_people):
    # A fixed deal, so that a failure can be replayed.
    DigitalTable.objects.filter(pk=four_people.pk).update(deal_seed="ws-test")
    four_people.refresh_from_db()
    return four_people


class Player:
    """One phone: its socket, every message it got, its latest state."""

    def __init__(self, seat, communicator):
        self.seat = seat
        self.socket = communicator
        self.messages = []
        self.state = None

    async def receive(self):
        text = await self.socket.receive_from(timeout=5)
        message = json.loads(text)
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    async def until_version(self, version):
        while self.state is None or self.state["version"] < version:
            await self.receive()

    async def send(self, **message):
        await self.socket.send_to(text_data=json.dumps(message))


def hand_of(player):
    return player.state["game"]["hand"]


def next_move(players):
    """Whose move and which, each phone deciding from its own view: the
    seats not due may interrupt first (clockwise after the due seat)."""
    due = hand_of(players[1])["to_move"]["seat"]
    order = [(due + k - 1) % 4 + 1 for k in range(1, 4)] + [due]
    for seat in order:
        move = GreedyBot().choose(hand_of(players[seat]))
        if move is not None:
            return players[seat], move
    raise AssertionError("nobody can move")


def card_strings(value):
    """Every card name anywhere in a message."""
    if isinstance(value, str):
        return {value} if value in CARDS else set()
    if isinstance(value, dict):
        return set().union(*(card_strings(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(card_strings(v) for v in value), set())
    return set()


def played_cards(view):
    if not view:
        return set()
    return {c for trick in view["tricks"] for c in trick["cards"]}


def looked(view, seat):
    return bool(view) and seat in view["looked"]


def assert_no_leaks(player, record):
    """A seat may see its own cards of the current and the last hand once
    it has looked at them (issue 15: not before) and the cards played to
    tricks; nothing else of anybody's hand, by name anywhere."""
    hands = record["hands"]
    seat = player.seat
    for message in player.messages:
        if message["type"] != "state":
            continue
        game = message["game"]
        index = game["hands"] if game["hand"]["outcome"] is None else game["hands"] - 1
        own = set()
        if looked(game["hand"], seat):
            own |= set(hands[index]["cards"].get(str(seat), []))
        if index and looked(message["last_hand"], seat):
            own |= set(hands[index - 1]["cards"].get(str(seat), []))
        allowed = own | played_cards(game["hand"]) | played_cards(message["last_hand"])
        leaked = card_names(message) - allowed
        assert not leaked, f"seat {seat} saw {leaked} at v{message['version']}"
        assert card_strings(message) <= card_names(message)


@pytest.mark.django_db(transaction=True)
def test_four_phones_play_a_game_and_no_message_shows_another_seats_cards(digital):
    seats = {s.number: s.token for s in digital.seats.all()}

    async def scenario():
        players = {}
        for number, token in seats.items():
            communicator, connected, _ = await ws_connect(f"/ws/d/{token}/")
            assert connected
            players[number] = Player(number, communicator)
            await players[number].receive()
        moves = 0
        while players[1].state["status"] == "playing":
            player, move = next_move(players)
            before = player.state
            await player.send(
                type="act",
                seq=before["next_seq"],
                version=before["version"],
                act=move.act,
                **({"card": card_str(move.card)} if move.card is not None else {}),
            )
            reply = await player.receive()
            assert reply["type"] == "state", reply
            assert reply["version"] == before["version"] + 1
            made[player.seat] += 1
            for other in players.values():
                await other.until_version(reply["version"])
            moves += 1
            assert moves < 2000
        for player in players.values():
            assert player.state["status"] == "finished"
            await player.socket.disconnect()
        return players

    # Moves per seat. A phone gets the state after each of its own moves;
    # one that only watches may get two moves in one state (the server
    # sends the table's state as it is when it reads it).
    made = collections.Counter()

    players = run_async(scenario)
    digital.refresh_from_db()
    record = digital.games[0]
    outcome = GameRecord.from_json(record).replay().outcome()
    assert players[1].state["games"] == [
        {
            "winner": outcome.winner,
            "marks": outcome.marks[outcome.winner],
            "points": outcome.points[outcome.winner],
        }
    ]
    assert ResultVersion.objects.get(table=digital.table).status == "confirmed"
    assert sum(made.values()) > 50
    for player in players.values():
        assert len(player.messages) > made[player.seat]
        assert_no_leaks(player, record)


@pytest.mark.django_db(transaction=True)
def test_illegal_stale_repeated_and_malformed_messages_change_nothing(digital):
    tokens = {s.number: s.token for s in digital.seats.all()}
    version = digital.version
    games = digital.games

    async def scenario():
        communicator, connected, _ = await ws_connect(f"/ws/d/{tokens[1]}/")
        assert connected
        phone = Player(1, communicator)
        state = await phone.receive()
        due = state["game"]["hand"]["to_move"]["seat"]
        answers = []
        bad = [
            "not json",
            json.dumps([1, 2, 3]),
            json.dumps({"type": "act"}),
            json.dumps({"type": "act", "seq": "1", "version": 0, "act": "look"}),
            json.dumps({"type": "act", "seq": 1, "version": 0, "act": 5}),
            json.dumps({"type": "act", "seq": 0, "version": 0, "act": "look"}),
            json.dumps({"type": "act", "seq": True, "version": 0, "act": "look"}),
            json.dumps({"type": "act", "seq": 2**60, "version": 0, "act": "look"}),
            json.dumps({"type": "act", "seq": 1, "version": 0, "act": "look", "x": 1}),
            json.dumps({"type": "hello"}),
            "[" * 900,
            "x" * 5000,
        ]
        for text in bad:
            await communicator.send_to(text_data=text)
            answers.append(await phone.receive())
        await communicator.send_to(bytes_data=b"\x00\x01")
        answers.append(await phone.receive())
        assert all(a["type"] == "error" for a in answers), answers
        assert {a["code"] for a in answers} == {"bad_message"}
        # Not a card of the game, a stale version, and out of turn.
        await phone.send(
            type="act", seq=1, version=state["version"], act="play", card="11X"
        )
        assert (await phone.receive())["code"] == "bad_action"
        await phone.send(type="act", seq=1, version=state["version"] + 7, act="look")
        stale = await phone.receive()
        assert stale["code"] == "conflict"
        assert (await phone.receive())["type"] == "state"
        if due != 1:
            await phone.send(type="act", seq=1, version=state["version"], act="hold")
            refused = await phone.receive()
            assert refused["type"] == "error"
            assert "Regel" in refused["message"]
        await communicator.disconnect()

    run_async(scenario)
    digital.refresh_from_db()
    assert (digital.version, digital.games) == (version, games)
    assert digital.seats.get(number=1).last_seq == 0


@pytest.mark.django_db(transaction=True)
def test_a_reconnect_or_second_tab_resumes_and_a_resent_move_counts_once(digital):
    token = digital.seats.get(number=1).token

    async def scenario():
        first, connected, _ = await ws_connect(f"/ws/d/{token}/")
        assert connected
        phone = Player(1, first)
        state = await phone.receive()
        look = {"type": "act", "seq": state["next_seq"], "version": state["version"]}
        await phone.send(**look, act="look")
        after = await phone.receive()
        assert after["game"]["hand"]["cards"] is not None
        # The page reloads: a new socket, the same state (cards seen).
        await first.disconnect()
        second, connected, _ = await ws_connect(f"/ws/d/{token}/")
        tab = Player(1, second)
        resumed = await tab.receive()
        assert resumed["version"] == after["version"]
        assert resumed["next_seq"] == after["next_seq"]
        assert resumed["game"]["hand"]["cards"] == after["game"]["hand"]["cards"]
        # The same message again (a resend after the reconnect): no change.
        await tab.send(**look, act="look")
        again = await tab.receive()
        assert again["type"] == "state" and again["version"] == after["version"]
        await second.disconnect()

    run_async(scenario)
    digital.refresh_from_db()
    assert digital.seats.get(number=1).last_seq == 1


@pytest.mark.django_db(transaction=True)
def test_watching_needs_a_referee_and_shows_no_cards(digital, client):
    referee = make_user("schiri-ws", "referee")
    client.force_login(referee)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def scenario():
        path = f"/ws/d/zuschauen/{digital.pk}/"
        _, connected, code = await ws_connect(path)
        assert not connected and code == 4403
        _, connected, code = await ws_connect("/ws/d/" + "x" * 32 + "/")
        assert not connected and code == 4404
        watcher, connected, _ = await ws_connect(path, cookie=cookie)
        assert connected
        view = Player(None, watcher)
        state = await view.receive()
        assert state["seat"] is None and state["next_seq"] is None
        assert not card_strings(state)
        await view.send(type="act", seq=1, version=state["version"], act="look")
        assert (await view.receive())["code"] == "watch_only"
        await watcher.disconnect()

    run_async(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_replaced_link_stops_working(digital):
    from tournament.digital.services import digital_seat_new_link

    seat = digital.seats.get(number=2)
    old = seat.token

    async def scenario():
        phone, connected, _ = await ws_connect(f"/ws/d/{old}/")
        assert connected
        await phone.receive_from(timeout=5)
        organizer = await database_sync_to_async(make_user)("orga-2", "organizer")
        await database_sync_to_async(digital_seat_new_link)(actor=organizer, seat=seat)
        closed = json.loads(await phone.receive_from(timeout=5))
        assert closed["type"] == "closed"
        _, connected, code = await ws_connect(f"/ws/d/{old}/")
        assert not connected and code == 4404

    run_async(scenario)
    assert re.fullmatch(r"[\w-]{20,64}", digital.seats.get(number=2).token)
