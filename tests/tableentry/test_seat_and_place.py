"""One word for the seat at a table ("Sitz"), another for the place in the
standings ("Platz"): on a player's own page and his public page, both of
which show the two together."""

import html as htmllib
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.results import player_enters
from tournament.tableentry.services import result_confirm_by_player

pytestmark = pytest.mark.django_db


def text(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200
    html = re.sub(
        r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S
    )
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_seat_is_sitz_and_place_is_platz(at_table):
    version = player_enters(at_table, 1)
    result_confirm_by_player(player=at_table.p[2], version=version)
    entry = at_table.p[2]
    slug = entry.tournament.slug
    mine = text(
        reverse("tournament:mine", kwargs={"slug": slug, "token": entry.link_token})
    )
    assert "Serie 1 · Tisch 1 · Sitz 2" in mine
    assert "Tisch/Sitz" in mine
    assert "Mein Platz" in mine
    assert "· Platz" not in mine and "Tisch/Platz" not in mine

    public = text(
        reverse(
            "tournament:player", kwargs={"slug": slug, "number": entry.start_number}
        )
    )
    assert "Serie 1 · Tisch 1 · Sitz 2" in public
    assert re.search(r"\d+\. Platz", public)
    assert "· Platz" not in public
