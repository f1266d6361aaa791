"""Hostile messages at a digital table: whatever a phone sends, the answer
is a clean refusal (or a legal move), never a crash, and a refusal writes
nothing."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import CARD_NAMES
from tests.support.hostile import hostile
from tournament.core.errors import UserError
from tournament.digital.services import (
    digital_act_message,
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
