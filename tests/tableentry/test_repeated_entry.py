"""A player's entry saved twice with the same games (the phone sent its
kept entry and still showed the filled form; a second tap) is a repeat,
not a new entry: one waiting version, one line in the Protokoll, and the
phone is told so. Other games, or another player's, are a new entry."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.results import FIVE, games, quick_form
from tournament.models import AuditEvent, ResultVersion

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def enter_url(entry):
    return reverse(
        "tournament:mine_enter",
        kwargs={
            "slug": entry.tournament.slug,
            "token": entry.link_token,
            "series": 1,
            "table": 1,
        },
    )


@pytest.mark.parametrize("revision", [0, 1], ids=["form-as-shown", "form-reloaded"])
def test_the_same_games_again_are_a_repeat(at_table, revision):
    phone = Client(enforce_csrf_checks=True)
    url = enter_url(at_table.p[1])
    first = phone.post(url, quick_form(FIVE, revision=0), **JSON)
    assert first.json()["state"] == "entered"
    again = phone.post(url, quick_form(FIVE, revision=revision), **JSON)
    assert again.status_code == 200
    body = again.json()
    assert body["state"] == "repeated"
    assert body["message"].startswith("Diese Eingabe war schon gespeichert")
    assert body["version"] == 1
    assert body["location"] == first.json()["location"]
    assert ResultVersion.objects.count() == 1
    assert AuditEvent.objects.filter(action="result.table_enter").count() == 1


def test_other_games_or_another_player_make_a_new_entry(at_table):
    phone = Client(enforce_csrf_checks=True)
    phone.post(enter_url(at_table.p[1]), quick_form(FIVE, revision=0), **JSON)
    other = games([(2, 3)] * 5)
    body = phone.post(
        enter_url(at_table.p[1]), quick_form(other, revision=1), **JSON
    ).json()
    assert (body["state"], body["version"]) == ("entered", 2)
    body = phone.post(
        enter_url(at_table.p[2]), quick_form(other, revision=2), **JSON
    ).json()
    assert (body["state"], body["version"]) == ("entered", 3)
    assert AuditEvent.objects.filter(action="result.table_enter").count() == 3
    # A stale form with other games is still a conflict, as before.
    stale = phone.post(enter_url(at_table.p[2]), quick_form(FIVE, revision=0), **JSON)
    assert stale.status_code == 409
    assert ResultVersion.objects.count() == 3
