"""A withdrawn player carries "abgemeldet (nach Serie 1, Spiel 2)" wherever
he is listed: the standings (page, phone and projector share the table),
the PDF, the API, his public page, the table's phones; and his own page
says who enters his table's result now."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tests.support.results import confirm, enter, games
from tournament.models import Entry
from tournament.paper import pdf
from tournament.registration.services import entry_withdraw

pytestmark = pytest.mark.django_db

MARK = "abgemeldet (nach Serie 1, Spiel 2)"


@pytest.fixture
def withdrawn(tournament, organizer, referee, series):
    """Start number 3 left table 1 of series 1 after game 2; the table's
    result (he won game 1) is confirmed."""
    entry = Entry.objects.get(tournament=tournament, start_number=3)
    entry_withdraw(
        actor=organizer, entry=entry, reason="krank", after_series=1, after_game=2
    )
    table = series.tables.get(number=1)
    version = enter(table, referee, games([(3, 5), (2, 3), (1, 7), (4, 1), (2, 2)]))
    confirm(version, organizer)
    entry.refresh_from_db()
    return entry


def test_the_standings_page_marks_him(tournament, withdrawn, client):
    text = client.get(reverse("tournament:standings", args=[tournament.slug]))
    page = text.content.decode()
    assert f'<small class="withdrawn-mark">{MARK}</small>' in page
    assert page.count("abgemeldet (") == 1


def test_the_projector_marks_him(tournament, withdrawn, client):
    page = client.get(f"/t/{tournament.slug}/projektor/").content.decode()
    assert MARK in page


def test_the_api_rows_say_withdrawn_and_when(tournament, withdrawn, client):
    rows = client.get(f"/api/t/{tournament.slug}/standings/").json()["rows"]
    his = next(r for r in rows if r["start_number"] == 3)
    assert his["withdrawn"] is True
    assert his["withdrawn_after"] == {"series": 1, "game": 2}
    assert next(r for r in rows if r["start_number"] == 1)["withdrawn"] is False


def test_his_public_page_and_his_opponents_pages_mark_him(
    tournament, withdrawn, client
):
    page = client.get(f"/t/{tournament.slug}/spieler/3/").content.decode()
    assert MARK in page
    other = client.get(f"/t/{tournament.slug}/spieler/1/").content.decode()
    assert MARK in other


@needs_pdftotext
def test_the_standings_pdf_marks_him(tournament, withdrawn):
    content = pdf.standings_pdf(tournament=tournament).content
    text = " ".join(" ".join(pdf_pages_text(content, layout=False)).split())
    assert MARK in text


def test_his_own_page_says_the_others_enter_without_him(tournament, organizer, series):
    tournament.table_entry = "one"
    tournament.save()
    entry = Entry.objects.get(tournament=tournament, start_number=3)
    entry_withdraw(
        actor=organizer, entry=entry, reason="krank", after_series=1, after_game=2
    )
    url = reverse(
        "tournament:mine", kwargs={"slug": tournament.slug, "token": entry.link_token}
    )
    page = Client().get(url).content.decode()
    assert f"Sie sind vom Turnier {MARK}." in page
    assert "Die anderen Spieler Ihres Tisches geben es am Handy ein" in page
    assert "Die Schiedsrichter geben es nach der Serie ein." not in page
    # A player still at his table sees him marked.
    mate = Entry.objects.get(tournament=tournament, start_number=1)
    url = reverse(
        "tournament:mine", kwargs={"slug": tournament.slug, "token": mate.link_token}
    )
    assert MARK in Client().get(url).content.decode()


def test_the_series_page_says_what_follows(
    tournament, organizer, organizer_client, series
):
    entry = Entry.objects.get(tournament=tournament, start_number=3)
    entry_withdraw(
        actor=organizer,
        entry=entry,
        reason="krank",
        after_series=1,
        after_game=2,
    )
    page = organizer_client.get(f"/t/{tournament.slug}/verwaltung/serie/1/")
    text = page.content.decode()
    assert MARK in text
    assert "sein Tisch spielt die übrigen Spiele ohne ihn weiter" in text


def test_his_person_page_marks_the_tournament_he_left(withdrawn, client):
    page = client.get(f"/personen/{withdrawn.player.person_id}/").content.decode()
    assert f'<small class="withdrawn-mark">{MARK}</small>' in page


def test_the_series_results_mark_him_and_the_games_he_did_not_play(
    tournament, withdrawn, client
):
    page = client.get(f"/t/{tournament.slug}/serie/1/ergebnisse/").content.decode()
    assert MARK in page
    row = page[page.index(withdrawn.player.full_name) :].split("</tr>")[0]
    cells = [c.split("</td>")[0] for c in row.split('<td class="num">')[1:]]
    # Game 1 won (5 marks: 12 points), game 2 lost, games 3-5 not his.
    assert cells[:5] == ["12", "·", "–", "–", "–"]


def test_the_api_gives_null_for_the_games_he_did_not_play(
    tournament, withdrawn, client
):
    body = client.get(f"/api/t/{tournament.slug}/series/1/").json()
    players = body["tables"][0]["players"]
    his = next(p for p in players if p["start_number"] == 3)
    assert his["points"] == [12, 0, None, None, None]


def test_the_protokoll_says_when_he_left(tournament, withdrawn, organizer_client):
    page = organizer_client.get(f"/t/{tournament.slug}/verwaltung/protokoll/")
    text = page.content.decode()
    assert MARK in text
