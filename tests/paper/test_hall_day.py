"""The day in the hall (issue 14.2): a poster for the wall with the address
phones open and its QR code (`manage.py hall poster`, `make poster`, the
print page), the address itself (`hall address`), and a backup of every
tournament after every series (`manage.py backup` without a slug)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.template.loader import render_to_string
from django.urls import reverse

from tests.support.factories import TournamentFactory
from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tournament.management.commands import hall
from tournament.paper import pdf
from tournament.paper.qr import qr_svg

pytestmark = pytest.mark.django_db

ADDRESS = "http://192.168.1.20:8000/"


def flat(content: bytes) -> str:
    return " ".join(" ".join(pdf_pages_text(content)).split())


@needs_pdftotext
def test_the_poster_shows_the_address_and_how_to_get_there(tournament):
    poster = pdf.poster_pdf(base_url=ADDRESS, tournament=tournament)
    assert poster.pages == 1
    text = flat(poster.content)
    assert "Ergebnisse auf dem Handy" in text
    assert f"{ADDRESS}t/{tournament.slug}/" in text
    assert "WLAN" in text and "QR-Code" in text
    assert "nicht privat" not in text
    html = render_to_string(
        "pdf/poster.html",
        {
            "tournament": tournament,
            "url": f"{ADDRESS}t/{tournament.slug}/",
            "qr": qr_svg(f"{ADDRESS}t/{tournament.slug}/", size_mm=pdf.POSTER_QR_MM),
        },
    )
    assert "<svg" in html
    # Over HTTPS the phone warns once: the poster says it is expected.
    secure = pdf.poster_pdf(base_url="https://192.168.1.20:8000/", tls=True)
    assert "nicht privat" in flat(secure.content)
    assert "https://192.168.1.20:8000/" in flat(secure.content)


@needs_pdftotext
def test_hall_poster_writes_the_poster(tournament, tmp_path):
    target = tmp_path / "aushang.pdf"
    out = StringIO()
    call_command(
        "hall", "poster", "--address", ADDRESS, "--slug", tournament.slug,
        "-o", str(target), stdout=out,
    )  # fmt: skip
    assert ADDRESS in out.getvalue()
    assert f"{ADDRESS}t/{tournament.slug}/" in flat(target.read_bytes())
    with pytest.raises(CommandError, match="No tournament"):
        call_command(
            "hall", "poster", "--address", ADDRESS, "--slug", "nix",
            "-o", str(target),
        )  # fmt: skip


def test_hall_address_names_the_laptops_lan_address(monkeypatch):
    out = StringIO()
    call_command("hall", "address", "--address", ADDRESS, stdout=out)
    assert out.getvalue().strip() == ADDRESS
    monkeypatch.setattr(
        hall, "laptop_addresses", lambda: [*hall.LOOPBACK, hall.usable("10.1.2.3")]
    )
    out = StringIO()
    call_command("hall", "address", "--port", "8443", "--tls", stdout=out)
    assert out.getvalue().strip() == "https://10.1.2.3:8443/"
    monkeypatch.setattr(hall, "laptop_addresses", lambda: list(hall.LOOPBACK))
    with pytest.raises(CommandError, match="no network address"):
        call_command("hall", "address")


def test_the_print_page_offers_the_poster_with_the_phones_address(
    organizer_client, tournament, settings
):
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "192.168.1.20", "testserver"]
    page = organizer_client.get(
        reverse("tournament:paper", args=[tournament.slug]),
        HTTP_HOST="127.0.0.1:8000",
    ).content.decode()
    assert "Aushang mit QR-Code" in page
    assert "<strong>http://192.168.1.20:8000</strong>" in page
    assert 'name="document" value="poster"' in page


def test_a_backup_after_every_series_keeps_every_tournament(tournament, tmp_path):
    other = TournamentFactory(slug="zweites")
    out = StringIO()
    call_command("backup", "--dir", str(tmp_path), stdout=out)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert [name.split("-20")[0] for name in files] == sorted(
        [tournament.slug, other.slug]
    )
    for path in tmp_path.iterdir():
        doc = json.loads(path.read_text("utf-8"))
        assert doc["tournament"]["slug"] in {tournament.slug, other.slug}
    assert out.getvalue().count("written to") == 2
    with pytest.raises(CommandError, match="name its SLUG"):
        call_command("backup", "-o", str(tmp_path / "x.json"))
