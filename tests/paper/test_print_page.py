"""The print page explains itself (issue 14.17): two buttons whose words
say the difference, no CSRF token in an address, a job list that says
document, series and blank or filled; table cards carry a QR code to the
table's page, at the address phones in the hall open."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tournament.models import Job
from tournament.paper import documents as paper_documents
from tournament.paper import pdf
from tournament.paper.qr import phone_base_url, qr_svg

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("var_dir")]

LAN = "192.168.1.20"


def page_text(client, tournament) -> str:
    response = client.get(reverse("tournament:paper", args=[tournament.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_says_what_each_button_does(
    organizer_client, tournament, scored_series
):
    text = page_text(organizer_client, tournament)
    assert "<dt>Sofort öffnen</dt>" in text
    assert "<dt>Im Hintergrund erstellen</dt>" in text
    assert "neuen Tab" in text and "Fortschritt" in text
    # Each document: the same two buttons in one form.
    url = reverse("tournament:paper_download", args=[tournament.slug])
    assert text.count(f'formaction="{url}" formtarget="_blank"') == 7
    assert text.count(f'formaction="{url}">Sofort herunterladen') == 1
    assert text.count(">Im Hintergrund erstellen</button>") == 8
    assert "PDF erstellen" not in text


def test_no_form_puts_its_csrf_token_into_an_address(
    organizer_client, tournament, scored_series
):
    """The old "Sofort öffnen" sent the form with GET, its token and all
    into the address (and browser history, logs). Every form with a token
    posts now; the download takes the post and answers with the file."""
    text = page_text(organizer_client, tournament)
    assert 'formmethod="get"' not in text
    for form in re.findall(r"<form[^>]*>.*?</form>", text, re.S):
        if "csrfmiddlewaretoken" in form:
            assert 'method="post"' in form, form[:200]
    url = reverse("tournament:paper_download", args=[tournament.slug])
    response = organizer_client.post(
        url, {"document": "sheets", "series": 1, "filled": "on"}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    # Without the form's token the post is refused, as every post is.
    client = organizer_client.__class__(enforce_csrf_checks=True)
    client.force_login(response.wsgi_request.user)
    refused = client.post(url, {"document": "standings"})
    assert refused.status_code == 403


def test_the_job_list_says_document_series_and_blank_or_filled(
    organizer_client, tournament, scored_series
):
    start = reverse("tournament:paper_job_start", args=[tournament.slug])
    for fields in (
        {"document": "sheets", "series": 1},
        {"document": "sheets", "series": 1, "filled": "on"},
        {"document": "cards"},
        {"document": "certificates", "top": 5},
        {"document": "xlsx"},
    ):
        response = organizer_client.post(start, fields)
        assert response.status_code == 302
    labels = set(Job.objects.values_list("label", flat=True))
    assert {"Spiellisten, Serie 1, leer", "Spiellisten, Serie 1, ausgefüllt"} <= labels
    text = page_text(organizer_client, tournament)
    rows = [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in re.findall(
            r"<tr>(.*?)</tr>", text.split('class="striped paper-jobs"')[1], re.S
        )
    ]
    described = {tuple(row[:3]) for row in rows if row}
    assert {
        ("Spiellisten", "Serie 1", "leer"),
        ("Spiellisten", "Serie 1", "ausgefüllt"),
        ("Tischkarten", "alle Tische", "–"),
        ("Urkunden", "–", "Plätze 1–5"),
        ("Ergebnis-Arbeitsmappe", "alle Serien", "–"),
    } <= {(d, s, v.split("\n")[0]) for d, s, v in described}
    assert "<th>Serie</th><th>Ausführung</th>" in text


def test_table_cards_carry_a_qr_code_to_the_tables_page(tournament, scored_series):
    base = f"http://{LAN}:8000"
    data = paper_documents.table_cards(
        tournament=tournament, series=None, base_url=base
    )
    cards = data.cards
    assert [c.url for c in cards[:2]] == [
        f"{base}/t/{tournament.slug}/tisch/1/",
        f"{base}/t/{tournament.slug}/tisch/2/",
    ]
    html = render_to_string(
        "pdf/cards.html", pdf.document_context(tournament, "Tischkarten", data=data)
    )
    # The code of exactly that address, as an inline drawing.
    assert str(qr_svg(cards[1].url, size_mm=paper_documents.CARD_QR_MM)) in html
    assert "Ergebnisse dieses Tisches" in html
    # Without an address (nobody said where phones go) no code.
    plain = paper_documents.table_cards(tournament=tournament, series=None)
    assert all(card.qr is None for card in plain.cards)


@needs_pdftotext
def test_the_cards_from_the_page_point_phones_to_the_laptops_lan_address(
    organizer_client, tournament, scored_series, settings
):
    """On the laptop the organizer's browser says 127.0.0.1, which no phone
    can open: the cards name the LAN address the site answers to."""
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", LAN, "testserver"]
    url = reverse("tournament:paper_download", args=[tournament.slug])
    response = organizer_client.get(
        f"{url}?document=cards&series=1", HTTP_HOST="127.0.0.1:8000"
    )
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")

    text = " ".join(" ".join(pdf_pages_text(response.content)).split())
    assert text.count("Ergebnisse dieses Tisches auf dem Handy") == 3
    # A background job keeps the address for its cards.
    start = reverse("tournament:paper_job_start", args=[tournament.slug])
    organizer_client.post(start, {"document": "cards"}, HTTP_HOST="127.0.0.1:8000")
    assert Job.objects.get().params["base_url"] == f"http://{LAN}:8000"


def test_the_phone_address_is_the_requests_unless_it_is_the_laptops_own():
    hosts = ["localhost", "laptop", "laptop.local", "127.0.0.1", LAN, "[::1]"]
    assert (
        phone_base_url(scheme="http", host="127.0.0.1:8000", allowed_hosts=hosts)
        == f"http://{LAN}:8000"
    )
    assert (
        phone_base_url(scheme="https", host="localhost:8443", allowed_hosts=hosts)
        == f"https://{LAN}:8443"
    )
    assert (
        phone_base_url(scheme="http", host=f"{LAN}:8000", allowed_hosts=hosts)
        == f"http://{LAN}:8000"
    )
    assert (
        phone_base_url(scheme="https", host="schraem.example.org", allowed_hosts=[])
        == "https://schraem.example.org"
    )
    # Nothing better known: the address as it is.
    assert (
        phone_base_url(scheme="http", host="[::1]:8000", allowed_hosts=["localhost"])
        == "http://[::1]:8000"
    )


def test_a_table_cards_address_opens_the_table_in_the_current_series(
    client, tournament, scored_series
):
    url = reverse("tournament:table_card", args=[tournament.slug, 3])
    response = client.get(url)
    results = reverse("tournament:series_results", args=[tournament.slug, 1])
    assert response.status_code == 302
    assert response["Location"] == f"{results}#tisch-3"
    assert client.get(response["Location"]).status_code == 200


def test_before_any_series_is_released_the_card_opens_the_tournament(
    client, tournament
):
    response = client.get(reverse("tournament:table_card", args=[tournament.slug, 1]))
    assert response["Location"] == reverse("tournament:detail", args=[tournament.slug])
    missing = reverse("tournament:table_card", args=["gibt-es-nicht", 1])
    assert client.get(missing).status_code == 404
