"""A table's result page (issue 14.10): a confirmed table shows its result
(points per game, each player's total), who entered and who confirmed it
and when; the correction form stays closed behind "Ergebnis korrigieren"
until asked for."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.support.factories import make_series
from tests.support.results import FIVE, confirm, enter, quick_form
from tournament.models import ResultVersion, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament):
    return Table.objects.get(series=make_series(tournament, sizes=(4,)), number=1)


@pytest.fixture
def url(tournament, table):
    return reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def points_rows(page: str) -> list[list[str]]:
    table = re.search(
        r'<table class="result-grid table-points">(.*?)</table>', page, re.S
    )
    assert table, "no result grid"
    body = table[1].split("<tbody>")[1]
    return [text(row).split() for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_a_confirmed_table_shows_points_totals_and_who(
    client, table, referee, referee2, url
):
    version = enter(table, referee)
    confirm(version, referee2)
    version.refresh_from_db()
    client.force_login(referee)
    page = client.get(url).content.decode()
    # FIVE: seat 1 wins games 1 (5 marks: 12) and 3 (7: 14), seat 2 game 2
    # (3: 10), seat 4 game 4 (1: 8), seat 3 game 5 (2: 9).
    rows = points_rows(page)
    assert [row[0] for row in rows] == ["1:", "2:", "3:", "4:"]
    assert [row[-6:] for row in rows] == [
        ["12", "·", "14", "·", "·", "26"],
        ["·", "10", "·", "·", "·", "10"],
        ["·", "·", "·", "·", "9", "9"],
        ["·", "·", "·", "8", "·", "8"],
    ]
    local = timezone.localtime
    entered = local(version.entered_at).strftime("%H:%M")
    decided = local(version.decided_at).strftime("%H:%M")
    words = text(page)
    assert f"Eingegeben von schiri um {entered} Uhr" in words
    assert f"Bestätigt von schiri2 um {decided} Uhr" in words
    # The form is closed: a button opens it.
    assert "Ergebnis korrigieren" in words
    assert 'href="?korrigieren=1#ergebnis-form"' in page
    assert 'name="g1_winner"' not in page
    assert 'id="result-form"' not in page


def test_the_correction_opens_when_asked_prefilled_with_a_reason_field(
    client, table, referee, referee2, url
):
    confirm(enter(table, referee), referee2)
    client.force_login(referee2)
    page = client.get(url + "?korrigieren=1").content.decode()
    assert 'id="result-form"' in page
    assert re.search(r'name="g4_winner" value="4"[^>]*checked', page)
    assert 'name="reason"' in page
    assert "<h2>Ergebnis korrigieren</h2>" in page
    # Cancel goes back to the closed page.
    assert f'href="{url}" role="button" class="secondary outline">Abbrechen' in page


def test_a_correction_with_a_mistake_stays_open(client, table, referee, referee2, url):
    confirm(enter(table, referee), referee2)
    table.refresh_from_db()
    client.force_login(referee)
    data = quick_form(FIVE, revision=table.result_revision, reason="Tippfehler")
    data["g2_marks"] = "9"
    page = client.post(url, data).content.decode()
    assert 'id="result-form"' in page
    assert "Der Gewinner hat 1 bis 7 Schräm übrig." in page
    assert 'value="Tippfehler"' in page


def test_a_table_without_result_opens_the_form_at_once(client, referee, url):
    client.force_login(referee)
    page = client.get(url).content.decode()
    assert 'id="result-form"' in page
    assert "Ergebnis korrigieren" not in page


def test_a_waiting_entry_is_shown_and_replaced_only_when_asked(
    client, table, referee, referee2, url
):
    enter(table, referee)
    client.force_login(referee2)
    page = client.get(url).content.decode()
    assert "wartet auf Bestätigung" in page
    assert "Stimmt mit der Spielliste überein – bestätigen" in page
    assert 'id="result-form"' not in page
    assert 'href="?korrigieren=1#ergebnis-form">Eingabe ersetzen' in page
    page = client.get(url + "?korrigieren=1").content.decode()
    assert 'id="result-form"' in page and "<h2>Eingabe ersetzen</h2>" in page


def test_a_result_without_second_check_says_so(client, tournament, table, referee, url):
    tournament.double_entry = False
    tournament.save()
    version = enter(table, referee)
    assert version.status == ResultVersion.Status.CONFIRMED
    client.force_login(referee)
    words = text(client.get(url).content.decode())
    assert "Eingegeben von schiri" in words
    assert "ohne zweite Prüfung" in words
    assert "Bestätigt von" not in words
