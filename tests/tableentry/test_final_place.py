"""After "Turnier beenden", a player's "Mein Turnier" no longer waits for
the award ceremony: it says the tournament is over and his final place
("Endstand: 2. Platz von 8")."""

import html as htmllib
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.results import FIVE, confirm, enter
from tournament.tournaments.services import tournament_close

pytestmark = pytest.mark.django_db


def mine(entry) -> str:
    url = reverse(
        "tournament:mine",
        kwargs={"slug": entry.tournament.slug, "token": entry.link_token},
    )
    response = Client().get(url)
    assert response.status_code == 200
    html = re.sub(
        r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S
    )
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def played(at_table, referee, organizer):
    """The tournament of one series, both tables confirmed."""
    at_table.tournament.series_count = 1
    at_table.tournament.save()
    for table in (at_table.t1, at_table.t2):
        confirm(enter(table, referee, FIVE), organizer)
    return at_table


def test_before_the_end_it_waits_for_the_ceremony(played):
    page = mine(played.p[2])
    assert "Die Siegerehrung folgt" in page
    assert "Endstand" not in page


def test_after_the_end_it_says_the_final_place(played, organizer):
    tournament_close(actor=organizer, tournament=played.tournament)
    # Seat 2 of table 1 kept 10 points (tests/support/results.py): second
    # with the seat 2 of table 2.
    page = mine(played.p[2])
    assert "Das Turnier ist beendet. Endstand: 3. Platz von 8." in page, page
    assert "Siegerehrung folgt" not in page
    assert "Mein Platz" not in page


def test_in_english_too(played, organizer):
    tournament_close(actor=organizer, tournament=played.tournament)
    client = Client()
    client.cookies["django_language"] = "en"
    entry = played.p[1]
    url = reverse(
        "tournament:mine",
        kwargs={"slug": entry.tournament.slug, "token": entry.link_token},
    )
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Final standing: <strong>" in page or "Final standing" in page, page
