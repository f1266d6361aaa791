"""The wrong-link guard slows a guesser without shutting out the players
who share his address (a club's router): a link its phone opened before
is always answered, any other waits for the address's next look-up, and
`Retry-After` says when that is."""

import time

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def mine(entry, token=None):
    return reverse(
        "tournament:mine",
        kwargs={"slug": entry.tournament.slug, "token": token or entry.link_token},
    )


def enter(entry):
    return reverse(
        "tournament:mine_enter",
        kwargs={
            "slug": entry.tournament.slug,
            "token": entry.link_token,
            "series": 1,
            "table": 1,
        },
    )


def guess(client, entry, n):
    return client.get(mine(entry, f"{n % 10}" * 32))


def test_a_guessers_wrong_links_leave_the_players_behind_his_router_their_links(
    at_table, settings
):
    settings.PLAYER_LINK_MISSES = 30
    settings.PLAYER_LINK_MISS_WINDOW = 600
    # Two players at the table, one phone each, all behind one address.
    anna, bert = Client(), Client()
    assert anna.get(mine(at_table.p[1])).status_code == 200
    assert bert.get(mine(at_table.p[2])).status_code == 200
    guesser = Client()
    answers = [guess(guesser, at_table.p[1], n).status_code for n in range(40)]
    assert answers[:30] == [404] * 30
    assert set(answers[30:]) == {429}
    # Their links still work, the page and the entry at the table alike.
    assert anna.get(mine(at_table.p[1])).status_code == 200
    assert anna.get(enter(at_table.p[1])).status_code == 200
    assert bert.get(mine(at_table.p[2]), **JSON).json()["ok"] is True
    # The phone's cookie proves only its own link, not the one guessed.
    assert guess(anna, at_table.p[1], 7).status_code == 429


def test_retry_after_tells_when_the_next_look_up_is_due(at_table, settings):
    settings.PLAYER_LINK_MISSES = 10
    settings.PLAYER_LINK_MISS_WINDOW = 10  # a second's wait beyond them
    guesser, newcomer, another = Client(), Client(), Client()
    for n in range(10):
        assert guess(guesser, at_table.p[1], n).status_code == 404
    refused = newcomer.get(mine(at_table.p[3]))
    assert refused.status_code == 429
    assert refused["Retry-After"] == "1"
    time.sleep(1.05)
    # A player whose phone never opened his link gets in once it is due,
    # and a link that exists makes nobody wait: the next gets in at once.
    assert newcomer.get(mine(at_table.p[3])).status_code == 200
    assert another.get(mine(at_table.p[4])).status_code == 200
    # A wrong one beyond the share: the address waits again.
    assert guess(guesser, at_table.p[1], 5).status_code == 404
    assert Client().get(mine(at_table.p[4])).status_code == 429
    assert another.get(mine(at_table.p[4])).status_code == 200  # its own


def test_retry_after_of_too_many_requests_is_the_rest_of_the_window(at_table, settings):
    settings.PLAYER_LINK_REQUESTS = 1
    settings.PLAYER_LINK_WINDOW = 3
    phone = Client()
    assert phone.get(mine(at_table.p[1])).status_code == 200
    time.sleep(1.1)
    refused = phone.get(mine(at_table.p[1]))
    assert refused.status_code == 429
    assert refused["Retry-After"] == "2"
    assert "2 Sekunden" in refused.content.decode()
