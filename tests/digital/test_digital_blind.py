"""A player's cards lie face down until he looks (docs/RULES.md §5):
nothing his page is sent names one of them before he has looked -- not the
state over HTTP or the socket, not the page's initial data, not the last
hand, the history or an error -- and he cannot play a card he has not seen."""

import html
import json
import re
from random import Random

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import CARD_NAMES, card_str
from tests.support.cards import card_names
from tests.support.hostile import hostile
from tests.support.threads import run_async
from tests.support.websockets import ws_connect
from tournament.core.errors import UserError
from tournament.digital import adapter
from tournament.digital.selectors import state
from tournament.digital.services import digital_act, digital_practice_create
from tournament.models import DigitalTable

committing = pytest.mark.django_db(transaction=True)


def hand_now(digital):
    return adapter.current_game(digital).hand


def hidden_from(digital, number):
    """The cards `number` holds in the hand being played and has not looked
    at (a seat that has not looked has played nothing)."""
    hand = hand_now(digital)
    if hand.finished or number in hand.looked:
        return set()
    return {card_str(c) for c in hand.unplayed(number)}


def seen_before(message):
    """What the last hand showed this seat: the cards played in it and its
    own cards if it looked then (a card may come round again)."""
    last = message["last_hand"]
    if not last:
        return set()
    played = {c for trick in last["tricks"] for c in trick["cards"]}
    return played | set(last["cards"] or [])


def assert_no_card_before_the_look(digital, seat, message):
    hidden = hidden_from(digital, seat.number)
    leaked = card_names(message) & hidden - seen_before(message)
    assert not leaked, f"seat {seat.number} was sent {leaked} before looking"


@pytest.fixture
def practice(memory_layer):
    """A practice table whose hand waits for seat 1 (a person, forehand) to
    play: the three bots have looked, seat 1 has not."""
    seat = digital_practice_create(seed="blind-1")
    digital = seat.table
    digital.refresh_from_db()
    hand = hand_now(digital)
    assert hand.to_move() == (1, "play") and 1 not in hand.looked
    return seat


@committing
def test_a_player_due_to_play_is_sent_none_of_his_cards_before_he_looks(
    client, practice
):
    seat, digital = practice, practice.table
    hidden = hidden_from(digital, 1)
    assert len(hidden) == 4
    # The state as the server builds it, over HTTP, and in the page itself.
    mine = state(digital, seat)
    assert mine["game"]["hand"]["due"]
    assert mine["game"]["hand"]["legal"] == {"acts": ["look", "knock"], "cards": []}
    polled = client.get(reverse("tournament:digital_state", args=[seat.token]))
    page = client.get(reverse("tournament:digital_play", args=[seat.token]))
    initial = re.search(r'data-initial="([^"]*)"', page.content.decode())
    assert initial is not None
    for message in (mine, polled.json(), json.loads(html.unescape(initial[1]))):
        assert message["game"]["hand"]["cards"] is None
        assert not card_names(message) & hidden
    assert not card_names(page.content.decode()) & hidden

    async def first_message():
        socket, connected, _ = await ws_connect(f"/ws/d/{seat.token}/")
        assert connected
        text = await socket.receive_from(timeout=5)
        await socket.disconnect()
        return text

    assert not card_names(run_async(first_message)) & hidden
    # He looks: now his cards, and the ones he may play, are his to see.
    digital_act(token=seat.token, seq=1, version=digital.version, act="look")
    digital.refresh_from_db()
    seat.refresh_from_db()
    looked = state(digital, seat)["game"]["hand"]
    assert set(looked["cards"]) == hidden
    assert looked["legal"]["cards"] and set(looked["legal"]["cards"]) <= hidden


@committing
def test_a_play_before_the_look_is_refused_alike_for_every_card(client, practice):
    seat, digital = practice, practice.table
    before = (digital.version, digital.games)
    answers = set()
    for card in CARD_NAMES:  # his own cards and all the others
        with pytest.raises(UserError) as refused:
            digital_act(
                token=seat.token, seq=1, version=digital.version, act="play", card=card
            )
        answers.add((refused.value.code, refused.value.message))
    # One answer for all 32 cards: it tells nothing about his hand.
    assert len(answers) == 1
    ((code, message),) = answers
    assert code == "look_first" and not card_names(message)
    moved = client.post(
        reverse("tournament:digital_move", args=[seat.token]),
        {"type": "act", "seq": 1, "version": digital.version, "act": "play"}
        | {"card": sorted(hidden_from(digital, 1))[0]},
        content_type="application/json",
    )
    assert moved.status_code == 400 and moved.json()["code"] == "look_first"
    digital.refresh_from_db()
    seat.refresh_from_db()
    assert (digital.version, digital.games) == before and seat.last_seq == 0


@committing
def test_the_socket_refuses_a_play_before_the_look_without_naming_a_card(practice):
    seat = practice
    hidden = hidden_from(seat.table, 1)

    async def scenario():
        socket, connected, _ = await ws_connect(f"/ws/d/{seat.token}/")
        assert connected
        first = json.loads(await socket.receive_from(timeout=5))
        texts = []
        for card in [*sorted(hidden), "7C", "AS"]:
            await socket.send_to(
                text_data=json.dumps(
                    {
                        "type": "act",
                        "seq": first["next_seq"],
                        "version": first["version"],
                        "act": "play",
                        "card": card,
                    }
                )
            )
            texts.append(await socket.receive_from(timeout=5))
        await socket.disconnect()
        return texts

    texts = run_async(scenario)
    assert {json.loads(t)["code"] for t in texts} == {"look_first"}
    assert len({json.loads(t)["message"] for t in texts}) == 1
    assert not card_names("".join(texts))


def _message(digital, rng, numbers):
    """A phone's message, chosen by `rng`: a legal action of one of the
    seats `numbers`, or a play of any card (his or not), or anything else."""
    hand = hand_now(digital)
    number = rng.choice(numbers)
    legal = hand.legal_actions(number)
    kind = rng.random()
    if legal and kind < 0.6:
        chosen = rng.choice(legal)
        card = None if chosen.card is None else card_str(chosen.card)
        return number, chosen.act, card
    if kind < 0.85:
        return number, "play", rng.choice(CARD_NAMES)
    return number, rng.choice(["look", "knock", "hold", "fold"]), None


@committing
@hostile(max_examples=12)
@given(seed=st.integers(0, 2**32 - 1), people=st.sets(st.integers(2, 4)))
def test_no_message_to_a_seat_names_its_cards_before_it_looks(
    memory_layer, seed, people
):
    # Random bots knock blind and play without looking (the play is their
    # look); the seats in `people` are handed to phones that send anything.
    digital = digital_practice_create(bot="random", seed=f"blind-{seed}").table
    digital.seats.filter(number__in=people).update(bot="")
    seats = {s.number: s for s in digital.seats.filter(bot="")}
    rng = Random(seed)
    for _ in range(80):
        digital.refresh_from_db()
        if digital.status != DigitalTable.Status.PLAYING:
            break
        for seat in digital.seats.all():
            assert_no_card_before_the_look(digital, seat, state(digital, seat))
        number, act, card = _message(digital, rng, sorted(seats))
        seat = seats[number]
        seat.refresh_from_db()
        hidden = hidden_from(digital, number)
        try:
            digital_act(
                token=seat.token,
                seq=seat.last_seq + 1,
                version=digital.version,
                act=act,
                card=card,
            )
        except UserError as error:
            assert not card_names(error.message) & hidden
            if act == "play" and hidden:
                # The same answer for any other card: it tells nothing.
                other = CARD_NAMES[(CARD_NAMES.index(card) + rng.randint(1, 31)) % 32]
                with pytest.raises(UserError) as again:
                    digital_act(
                        token=seat.token,
                        seq=seat.last_seq + 1,
                        version=digital.version,
                        act=act,
                        card=other,
                    )
                assert (again.value.code, again.value.message) == (
                    error.code,
                    error.message,
                )
        else:
            assert not (act == "play" and hidden), "played a card not seen"
