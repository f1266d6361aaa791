"""A digital seat's private link (/d/<token>/, and its socket) is behind the
wrong-link guard as a player's personal link is: a wrong token counts as
the address's miss, beyond its share the address waits (the 429 page, JSON
for the table's JSON requests, a closed socket), and a phone that opened
its seat before is still answered."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.threads import run_async
from tests.support.websockets import ws_connect

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def wrong(n):
    return f"{n % 10}" * 32


@pytest.fixture
def guard(settings):
    settings.PLAYER_LINK_MISSES = 3
    settings.PLAYER_LINK_MISS_WINDOW = 600


def test_wrong_seat_links_count_and_then_the_address_waits(guard, four_people):
    seat = four_people.seats.get(number=1)
    guesser = Client()
    answers = [
        guesser.get(reverse("tournament:digital_play", args=[wrong(n)])).status_code
        for n in range(3)
    ]
    assert answers == [404, 404, 404]
    # Beyond the share: the 429 page, with when to try again, for any link
    # of the address's, the seat's own and a player's page alike.
    refused = Client().get(reverse("tournament:digital_play", args=[seat.token]))
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Bitte" in refused.content.decode() and "Sekunden warten" in (
        refused.content.decode()
    )
    entry = seat.entry
    mine = reverse(
        "tournament:mine",
        kwargs={"slug": entry.tournament.slug, "token": entry.link_token},
    )
    assert Client().get(mine).status_code == 429


def test_the_tables_json_requests_are_counted_and_refused_in_json(guard, four_people):
    seat = four_people.seats.get(number=1)
    guesser = Client()
    for n in range(3):
        state = reverse("tournament:digital_state", args=[wrong(n)])
        assert guesser.get(state, **JSON).status_code == 404
    phone = Client()
    state = phone.get(reverse("tournament:digital_state", args=[seat.token]), **JSON)
    assert state.status_code == 429
    assert state.json()["state"] == "rate_limited" and state.json()["message"]
    move = phone.post(
        reverse("tournament:digital_move", args=[seat.token]),
        json.dumps({"type": "here"}),
        content_type="application/json",
        **JSON,
    )
    assert move.status_code == 429
    assert move.json()["state"] == "rate_limited" and move["Retry-After"]


def test_a_phone_that_opened_its_seat_is_answered_while_the_address_waits(
    guard, four_people
):
    seat = four_people.seats.get(number=1)
    play = reverse("tournament:digital_play", args=[seat.token])
    phone = Client()
    assert phone.get(play).status_code == 200
    guesser = Client()
    for n in range(4):
        guesser.get(reverse("tournament:digital_play", args=[wrong(n)]))
    assert guesser.get(play).status_code == 429
    # Its own seat's page and state; not a link it did not open.
    assert phone.get(play).status_code == 200
    state = phone.get(reverse("tournament:digital_state", args=[seat.token]), **JSON)
    assert state.status_code == 200 and state.json()["type"] == "state"
    other = four_people.seats.get(number=2)
    assert (
        phone.get(reverse("tournament:digital_play", args=[other.token])).status_code
        == 429
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("memory_layer")
def test_the_seats_socket_is_behind_the_same_guard(guard, four_people):
    seat = four_people.seats.get(number=1)

    async def scenario():
        for n in range(3):
            _, connected, code = await ws_connect(f"/ws/d/{wrong(n)}/")
            assert not connected and code == 4404
        # The address waits now: its page asks over HTTP instead.
        _, connected, code = await ws_connect(f"/ws/d/{seat.token}/")
        assert not connected and code == 4429

    run_async(scenario)
