"""Player cards (issue 16.1, 16.4): a card per checked-in player with the
QR code of his personal link, from the print page, the desk and
`manage.py print SLUG playercards`; score sheets carry their table's QR
code, as the table cards do."""

import base64
import io

import numpy as np
import pytest
import zxingcpp
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse
from PIL import Image

from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tournament.core.errors import UserError
from tournament.core.text import unbroken_numbers
from tournament.models import AuditEvent, Entry
from tournament.paper import documents as paper_documents
from tournament.paper import pdf
from tournament.paper.qr import qr_svg
from tournament.paper.sheets import score_sheets

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("var_dir")]

BASE = "http://192.168.1.20:8000"


@pytest.fixture
def present(tournament, entries):
    """Start numbers 1–8 registered; 1–6 checked in, 6 then withdrawn."""
    Entry.objects.filter(tournament=tournament, start_number__lte=6).update(
        checked_in=True
    )
    Entry.objects.filter(tournament=tournament, start_number=6).update(
        withdrawn_at="2026-12-05T09:00:00Z"
    )
    return tournament


def test_a_card_per_checked_in_player_with_his_link(present):
    data = paper_documents.player_cards(tournament=present, base_url=BASE)
    assert [c.start_number for c in data.cards] == [1, 2, 3, 4, 5]
    entry = Entry.objects.get(tournament=present, start_number=2)
    card = data.cards[1]
    assert card.url == f"{BASE}/t/{present.slug}/mein/{entry.link_token}/"
    html = render_to_string(
        "pdf/playercards.html",
        pdf.document_context(present, "Spielerkarten", data=data),
    )
    assert str(qr_svg(card.url, size_mm=paper_documents.PLAYER_CARD_QR_MM)) in html
    # The name as it fits the card: a long one on two lines, after a space
    # or a hyphen ("Hans-" over "Christian Segebahn").
    assert card.name.text in html
    lines = card.name.lines
    rejoined = "".join(line if line.endswith("-") else f"{line} " for line in lines)
    assert rejoined.strip() == entry.player.full_name


def test_one_players_card_and_printing_again_keeps_the_link(present):
    first = paper_documents.player_cards(
        tournament=present, base_url=BASE, start_number=3
    )
    again = paper_documents.player_cards(
        tournament=present, base_url=BASE, start_number=3
    )
    assert [c.url for c in first.cards] == [c.url for c in again.cards]
    assert len(first.cards) == 1


def test_without_address_or_players_a_clear_message(tournament):
    with pytest.raises(UserError) as missing:
        paper_documents.player_cards(tournament=tournament, base_url="")
    assert "Adresse" in missing.value.message
    with pytest.raises(UserError) as nobody:
        paper_documents.player_cards(tournament=tournament, base_url=BASE)
    assert "anwesend" in nobody.value.message


@needs_pdftotext
def test_the_print_command_writes_the_sheet_of_cards(present, tmp_path):
    target = tmp_path / "karten.pdf"
    out = io.StringIO()
    call_command(
        "print",
        present.slug,
        "playercards",
        "--address",
        BASE,
        "-o",
        str(target),
        stdout=out,
    )
    assert "1 pages" in out.getvalue()
    text = pdf_pages_text(target.read_bytes(), layout=False)[0]
    assert text.count("SPIELERKARTE") == 5
    for entry in Entry.objects.filter(tournament=present, start_number__lte=5):
        assert f"Nr. {entry.start_number}" in text
    one = tmp_path / "eine.pdf"
    call_command(
        "print",
        present.slug,
        "playercards",
        "--number",
        "8",
        "--address",
        BASE,
        "-o",
        str(one),
        stdout=out,
    )
    assert "Nr. 8" in pdf_pages_text(one.read_bytes(), layout=False)[0]


@needs_pdftotext
def test_the_event_line_never_ends_in_the_number_of_7_schraem(present):
    # The card's event line has two short lines: "…MEISTERSCHAFT IM 7-" over
    # "SCHRÄM 2026" read as two things. The hyphen after a number holds.
    present.name = "Rheinland-Meisterschaft im 7-Schräm 2026"
    present.save()
    card = pdf.playercards_pdf(tournament=present, base_url=BASE, start_number=1)
    lines = pdf_pages_text(card.content, layout=False)[0].splitlines()
    event = [line for line in lines if "SCHR" in line and "2026" in line]
    assert event == ["7\u2011SCHRÄM 2026"], lines[:4]
    assert not any(line.rstrip().endswith(("-", "\u2011")) for line in lines)


def test_a_hyphen_after_a_number_never_ends_a_printed_line():
    assert unbroken_numbers("Cup im 7-Schräm, 2025-12-06") == (
        "Cup im 7\u2011Schräm, 2025\u201112\u201106"
    )
    # Other hyphens may end a line, as German writes them.
    assert unbroken_numbers("Rhein-Mosel-Cup 7 - 8") == "Rhein-Mosel-Cup 7 - 8"


@needs_pdftotext
def test_the_desk_prints_one_card_and_renews_a_lost_one(present, organizer_client):
    entry = Entry.objects.get(tournament=present, start_number=2)
    url = reverse("tournament:paper_download", args=[present.slug])
    response = organizer_client.get(url, {"document": "playercards", "number": 2})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    edit = reverse("tournament:entry_edit", args=[present.slug, 2])
    page = organizer_client.get(edit).content.decode()
    assert "Spielerkarte drucken" in page and "Neue Spielerkarte" in page
    old = entry.link_token
    response = organizer_client.post(
        reverse("tournament:entry_link_renew", args=[present.slug, 2])
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.link_token != old
    event = AuditEvent.objects.get(action="entry.link_renew")
    assert event.actor.username == "orga"
    assert old not in str(event.after) + str(event.before) + event.note
    listing = organizer_client.get(
        reverse("tournament:entry_list", args=[present.slug])
    ).content.decode()
    assert "document=playercards&amp;number=2" in listing


def decoded(uri: str) -> list[str]:
    """What a QR code image (a data: URI, as a sheet prints it) says."""
    header, _, data = uri.partition(",")
    assert header == "data:image/png;base64"
    image = Image.open(io.BytesIO(base64.b64decode(data))).convert("L")
    return [code.text for code in zxingcpp.read_barcodes(np.asarray(image))]


def test_score_sheets_carry_the_tables_qr_code(tournament, series):
    data = score_sheets(
        tournament=tournament, series=series, filled=False, base_url=BASE
    )
    url = f"{BASE}/t/{tournament.slug}/tisch/2/"
    assert data.sheets[1].qr is not None
    assert decoded(data.sheets[1].qr) == [url]
    plain = score_sheets(tournament=tournament, series=series, filled=False)
    assert all(sheet.qr is None for sheet in plain.sheets)


@needs_pdftotext
def test_a_sheet_with_its_code_still_fits_one_page(tournament, series):
    document = pdf.sheets_pdf(tournament=tournament, base_url=BASE)
    pages = pdf_pages_text(document.content, layout=False)
    assert len(pages) == 2
    assert "Ergebnis am" in pages[0] and "Handy" in pages[0]
