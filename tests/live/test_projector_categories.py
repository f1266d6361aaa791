"""The projector shows each category's ranking as a slide of its own
beside the overall standings, only for the categories the tournament has
players of, and keeps it current like the overall one."""

import re

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.factories import EntryFactory, make_series
from tests.support.results import FIVE_PAIRS, games
from tests.support.threads import run_async
from tests.support.websockets import MEMORY_LAYER, layer_release, ws_connect
from tournament.live.fragments import fragment_key, region
from tournament.models import Table
from tournament.results.services import result_enter
from tournament.standings.fragments import category_slides

pytestmark = pytest.mark.django_db

WAIT = 30

# Seat 1 26, seat 2 10, seat 3 9, seat 4 8 (tests/support/results.py).
CATEGORY_BY_START_NUMBER = {1: "open", 2: "seniors", 3: "open", 4: "seniors"}


@pytest.fixture(autouse=True)
def channel_layer(settings, local_cache):
    settings.CHANNEL_LAYERS = MEMORY_LAYER
    yield
    layer_release()


def seat(tournament, categories):
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__last_name=f"Spieler{n}",
            player__category=category,
        )
        for n, category in categories.items()
    ]
    series = make_series(tournament, (4,), entries=entries)
    return Table.objects.get(series=series)


def enter_confirmed(table, organizer):
    result_enter(
        actor=organizer,
        table=table,
        games=games(FIVE_PAIRS),
        mode="quick",
        revision=table.result_revision,
        auto_confirm=True,
    )


def projector(client, tournament):
    url = reverse("tournament:projector", kwargs={"slug": tournament.slug})
    return client.get(url).content.decode()


def test_a_category_with_players_has_its_slide(client, tournament):
    seat(tournament, CATEGORY_BY_START_NUMBER)
    page = projector(client, tournament)
    slides = re.findall(r'data-slide="([^"]+)" data-title="([^"]+)"', page)
    assert slides[:2] == [
        ("standings", "Gesamtwertung"),
        ("standings-seniors", "Seniorenwertung"),
    ]
    assert 'data-live-key="standings?view=seniors"' in page
    # Ladies and youth: nobody of theirs plays here.
    assert "view=ladies" not in page and "view=youth" not in page


def test_without_category_players_only_the_overall_standings(client, tournament):
    seat(tournament, dict.fromkeys(range(1, 5), "open"))
    page = projector(client, tournament)
    slides = re.findall(r'data-slide="([^"]+)"', page)
    assert slides == ["standings", "seating", "progress"]
    assert "view=" not in page


def test_the_category_slide_shows_its_own_places(
    client, tournament, organizer, django_capture_on_commit_callbacks
):
    table = seat(tournament, CATEGORY_BY_START_NUMBER)
    with django_capture_on_commit_callbacks(execute=True):
        enter_confirmed(table, organizer)
    page = projector(client, tournament)
    slide = page[page.index('data-slide="standings-seniors"') :].split("</section>")[0]
    text = " ".join(re.sub(r"<[^>]+>", " ", slide).split())
    # Own places 1 and 2, overall places 2 and 4 beside them.
    # A first name may have a space of its own ("Hans Jörg").
    assert re.search(r"1 2 2 \D+ Spieler2", text), text
    assert re.search(r"2 4 4 \D+ Spieler4", text), text
    assert "Spieler1" not in text


def test_finding_the_slides_costs_one_query(tournament):
    seat(tournament, CATEGORY_BY_START_NUMBER)
    with CaptureQueriesContext(connection) as queries:
        slides = category_slides(tournament)
    assert [s.params for s in slides] == [{"view": "seniors"}]
    assert len(queries) == 1


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_updates_the_category_slide(tournament, organizer):
    table = seat(tournament, CATEGORY_BY_START_NUMBER)
    key = fragment_key("standings", {"view": "seniors"})
    before = region(tournament, key, "de").etag

    async def scenario():
        path = f"/ws/t/{tournament.slug}/?lang=de"
        socket, connected, _ = await ws_connect(path)
        assert connected
        await socket.send_json_to(
            {"type": "subscribe", "regions": [{"key": key.text, "etag": before}]}
        )
        ack = await socket.receive_json_from(timeout=WAIT)
        assert ack["type"] == "subscribed" and ack["keys"] == [key.text]
        await database_sync_to_async(enter_confirmed)(table, organizer)
        message = await socket.receive_json_from(timeout=WAIT)
        await socket.disconnect()
        return message

    message = run_async(scenario)
    assert message["type"] == "fragment" and message["key"] == key.text
    assert message["etag"] != before
    # The push is the fragment the projector prints: Spieler2 first.
    text = " ".join(re.sub(r"<[^>]+>", " ", message["html"]).split())
    assert re.search(r"1 2 2 \D+ Spieler2", text)
    tournament.refresh_from_db()
    assert message["html"] == region(tournament, key, "de").html
