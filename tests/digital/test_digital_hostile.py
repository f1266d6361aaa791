"""Hostile messages at a digital table: whatever a phone sends, the answer
is a clean refusal (or a legal move), never a crash, and a refusal writes
nothing."""

import json

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import CARD_NAMES
from tests.support.hostile import hostile
from tests.support.threads import run_async
from tests.support.websockets import ws_connect
from tournament.core.errors import UserError
from tournament.digital.selectors import state
from tournament.digital.services import (
    SEQ_WINDOW,
    OutOfStep,
    digital_act,
    digital_act_message,
    digital_practice_create,
    digital_seat_new_link,
    parse_message,
)
from tournament.models import AuditEvent, DigitalSeat, DigitalTable, ResultVersion

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
act_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "sync", "ACT", ""])},
    optional={
        "seq": st.one_of(st.integers(min_value=-3, max_value=2**60), json_values),
        "version": st.one_of(st.integers(min_value=-3, max_value=50), json_values),
        "act": st.one_of(
            st.sampled_from(["look", "knock", "hold", "fold", "play", "pass"]),
            json_values,
        ),
        "card": st.one_of(st.sampled_from([*CARD_NAMES, "11X", "", "10"]), json_values),
        "extra": json_values,
    },
)


def snapshot():
    return (
        list(DigitalTable.objects.values_list("version", "games", "status")),
        list(DigitalSeat.objects.values_list("last_seq", "bot", "token")),
        ResultVersion.objects.count(),
        AuditEvent.objects.count(),
    )


@pytest.mark.django_db
@hostile(max_examples=150)
@given(message=st.one_of(act_like, json_values))
def test_any_message_is_refused_cleanly_or_is_a_legal_move(four_people, message):
    seat = four_people.seats.get(number=1)
    before = snapshot()
    # The message went through JSON on its way (as over the socket).
    parsed = parse_message(json.loads(json.dumps(message)))
    if parsed is None or parsed["type"] == "sync":
        assert snapshot() == before
        return
    try:
        move = digital_act_message(token=seat.token, message=parsed)
    except UserError as error:
        assert error.message
        assert snapshot() == before
        return
    # Accepted: only a legal move of seat 1 in the current state, once.
    assert move.applied
    four_people.refresh_from_db()
    assert four_people.version == before[0][0][0] + 1


@pytest.mark.django_db
def test_a_message_numbered_far_ahead_cannot_lock_the_seat(four_people):
    digital = four_people
    seat = digital.seats.get(number=1)
    before = snapshot()
    # The top number a browser holds: accepted, it would leave no number
    # above it, and every later message would be a "repeat" (issue 15, C).
    for seq in (2**53 - 1, SEQ_WINDOW + 1, 10**9):
        with pytest.raises(OutOfStep) as refused:
            digital_act(token=seat.token, seq=seq, version=digital.version, act="look")
        assert refused.value.code == "resync"
        assert snapshot() == before
    # The state says what to send next, and the seat plays on.
    resync = state(digital, seat)
    assert resync["next_seq"] == 1
    for seq in (resync["next_seq"], SEQ_WINDOW):  # within the window: counted
        digital.refresh_from_db()
        act = "look" if seq == 1 else "knock"
        assert digital_act(
            token=seat.token, seq=seq, version=digital.version, act=act
        ).applied
    seat.refresh_from_db()
    assert seat.last_seq == SEQ_WINDOW


@pytest.mark.django_db(transaction=True)
def test_the_page_is_told_to_resync_over_the_socket_and_over_http(memory_layer, client):
    seat = digital_practice_create(seed="resync")
    digital = seat.table
    digital.refresh_from_db()

    async def scenario():
        socket, connected, _ = await ws_connect(f"/ws/d/{seat.token}/")
        assert connected
        first = json.loads(await socket.receive_from(timeout=5))
        far = {"type": "act", "seq": 2**53 - 1, "version": first["version"]}
        await socket.send_to(text_data=json.dumps({**far, "act": "look"}))
        error = json.loads(await socket.receive_from(timeout=5))
        fresh = json.loads(await socket.receive_from(timeout=5))
        # The page resyncs with what it was sent and moves on.
        ok = {"type": "act", "seq": fresh["next_seq"], "version": fresh["version"]}
        await socket.send_to(text_data=json.dumps({**ok, "act": "look"}))
        moved = json.loads(await socket.receive_from(timeout=5))
        await socket.disconnect()
        return error, fresh, moved

    error, fresh, moved = run_async(scenario)
    assert error["type"] == "error" and error["code"] == "resync"
    assert fresh["type"] == "state" and fresh["next_seq"] == 1
    assert moved["type"] == "state" and moved["game"]["hand"]["cards"]
    url = reverse("tournament:digital_move", args=[seat.token])
    digital.refresh_from_db()
    far = {"type": "act", "seq": 2**53 - 1, "version": digital.version, "act": "knock"}
    answer = client.post(url, far, content_type="application/json")
    assert answer.status_code == 409 and answer.json()["code"] == "resync"
    seat.refresh_from_db()
    assert seat.last_seq == 1


@pytest.mark.django_db
def test_a_new_link_counts_afresh(four_people, organizer):
    seat = four_people.seats.get(number=2)
    DigitalSeat.objects.filter(pk=seat.pk).update(last_seq=2**53 - 1)  # locked
    seat = digital_seat_new_link(actor=organizer, seat=seat)
    assert seat.last_seq == 0
    assert state(four_people, seat)["next_seq"] == 1
    assert digital_act(
        token=seat.token, seq=1, version=four_people.version, act="look"
    ).applied
