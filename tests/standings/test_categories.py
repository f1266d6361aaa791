"""Every category the registration accepts has its ranking, as the ladies'
has: page, PDF and API, each with its own places and the overall place
beside them; the list follows the categories of `Player.Category`."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, make_series
from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tests.support.results import FIVE_PAIRS, games
from tournament.models import Player, Table
from tournament.paper import pdf
from tournament.results.services import result_enter
from tournament.standings.selectors import categories

pytestmark = pytest.mark.django_db

# Seat 1 26, seat 2 10, seat 3 9, seat 4 8 (tests/support/results.py).
CATEGORY_BY_START_NUMBER = {1: "open", 2: "seniors", 3: "youth", 4: "seniors"}


@pytest.fixture
def mixed(tournament, organizer, django_capture_on_commit_callbacks):
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__last_name=f"Spieler{n}",
            player__category=category,
        )
        for n, category in CATEGORY_BY_START_NUMBER.items()
    ]
    series = make_series(tournament, (4,), entries=entries)
    table = Table.objects.get(series=series)
    with django_capture_on_commit_callbacks(execute=True):
        result_enter(
            actor=organizer,
            table=table,
            games=games(FIVE_PAIRS),
            mode="quick",
            revision=table.result_revision,
            auto_confirm=True,
        )
    return tournament


def text_of(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_every_category_but_the_open_class_has_a_ranking():
    assert [c.value for c in categories()] == [
        v for v, _ in Player.Category.choices if v != Player.Category.OPEN
    ]
    assert [c.word for c in categories()] == ["damen", "senioren", "jugend"]


def test_the_pages_of_seniors_and_youth(client, mixed):
    slug = mixed.slug
    seniors = client.get(f"/t/{slug}/tabelle/senioren/")
    assert seniors.status_code == 200
    text = text_of(seniors)
    assert "Seniorenwertung" in text
    # Own places 1 and 2, overall places 2 and 4 beside them.
    assert re.search(r"1 2 2 \D+ Spieler2", text)
    assert re.search(r"2 4 4 \D+ Spieler4", text)
    assert "Spieler1" not in text and "Spieler3" not in text
    youth = text_of(client.get(f"/t/{slug}/tabelle/jugend/"))
    assert "Jugendwertung" in youth and re.search(r"1 3 3 \D+ Spieler3", youth)
    # Every ranking is a tab of every standings page.
    overall = client.get(reverse("tournament:standings", args=[slug])).content.decode()
    for word in ("damen", "senioren", "jugend", "mannschaften"):
        assert f'href="/t/{slug}/tabelle/{word}/"' in overall
    assert client.get(f"/t/{slug}/tabelle/herren/").status_code == 404


def test_the_api_gives_categories_and_their_rankings(client, mixed):
    url = reverse("tournament:api_standings", args=[mixed.slug])
    rows = client.get(url).json()["rows"]
    assert [(r["start_number"], r["category"]) for r in rows] == [
        (1, "open"),
        (2, "seniors"),
        (3, "youth"),
        (4, "seniors"),
    ]
    for asked in ("senioren", "seniors"):
        seniors = client.get(url, {"category": asked}).json()["rows"]
        assert [(r["rank"], r["overall_rank"], r["start_number"]) for r in seniors] == [
            (1, 2, 2),
            (2, 4, 4),
        ]
    assert client.get(url, {"category": "jugend"}).json()["rows"][0]["rank"] == 1
    assert client.get(url, {"category": "damen"}).json()["rows"] == []
    # A value that names no category is the overall page, as on every kept
    # page: it is neither rendered nor kept for itself.
    overall = client.get(url).json()["rows"]
    assert client.get(url, {"category": "herren"}).json()["rows"] == overall


@needs_pdftotext
def test_the_pdf_has_a_ranking_per_category_with_players(mixed):
    document = pdf.standings_pdf(tournament=mixed)
    text = " ".join(" ".join(pdf_pages_text(document.content)).split())
    assert "Seniorenwertung" in text and "Jugendwertung" in text
    assert "Damenwertung" not in text  # nobody plays in it
