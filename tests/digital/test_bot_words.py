"""The bots in German words, on the organizer's page of a digital table
and in the Protokoll ("Bot (überlegt)", "Bot (zufällig)"), never by their
keys ("Bot (greedy)")."""

import html
import re

import pytest
from django.urls import reverse

from scoring.bots import BOTS
from tests.support.factories import make_series
from tournament.core.rules import BOT_LABELS, bot_label
from tournament.models import DigitalTable

pytestmark = pytest.mark.django_db(transaction=True)


def words(response) -> str:
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(page).split())


def test_every_bot_has_words():
    assert set(BOT_LABELS) == set(BOTS)
    assert bot_label("greedy") == "Bot (überlegt)"
    assert bot_label("random") == "Bot (zufällig)"


def test_the_digital_tables_page_and_the_protokoll_name_the_bots_in_german(
    client, one_game_tournament, organizer
):
    make_series(one_game_tournament, sizes=(4,))
    url = reverse(
        "tournament:digital_manage",
        kwargs={"slug": one_game_tournament.slug, "number": 1, "table": 1},
    )
    client.force_login(organizer)
    offered = words(client.get(url))
    assert "Bot (überlegt)" in offered and "Bot (zufällig)" in offered
    client.post(url, {"action": "create", "bot_2": "greedy"})
    assert DigitalTable.objects.get().seats.get(number=2).bot == "greedy"
    shown = words(client.get(url))
    assert "Bot (überlegt)" in shown
    log = words(client.get(f"/t/{one_game_tournament.slug}/verwaltung/protokoll/"))
    for key in ("greedy", "random"):
        assert key not in shown and key not in log
