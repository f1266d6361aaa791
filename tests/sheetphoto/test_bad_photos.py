"""Bad input on the photo page: whatever is sent, the person gets a German
sentence saying what to do, and nothing is saved (no photo kept, no file
written, no result)."""

import io
import struct
import threading
import zlib

import numpy as np
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape
from PIL import Image

from tests.sheetphoto.conftest import GAMES
from tests.support.sheetphotos import blank_png, needs_pdftoppm, sheet_photo
from tournament.core import background
from tournament.models import AuditEvent, ResultVersion, SheetPhoto
from tournament.sheetphoto import pool
from tournament.sheetphoto.reader.read import MAX_BYTES

pytestmark = pytest.mark.django_db


@pytest.fixture
def upload(client, referee, photo_table, var_dir):
    client.force_login(referee)
    url = reverse(
        "tournament:photo_upload",
        kwargs={"slug": "rm-test", "series": 1, "table": 1},
    )

    def send(data: bytes, name: str = "foto.jpg", status: int = 200) -> str:
        events = AuditEvent.objects.count()
        response = client.post(
            url, {"photo": SimpleUploadedFile(name, data, content_type="image/jpeg")}
        )
        assert response.status_code == status  # the page again, with the sentence
        assert not SheetPhoto.objects.exists()
        assert not ResultVersion.objects.exists()
        assert AuditEvent.objects.count() == events
        folder = var_dir / "sheetphotos"
        assert not folder.exists() or not any(folder.iterdir())
        page = response.content.decode()
        assert 'role="alert"' in page
        return page

    return send


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def test_not_an_image(upload):
    page = upload(b"Das ist eine Textdatei, kein Foto.\n" * 40, name="liste.txt")
    assert "Das ist kein Foto (JPEG oder PNG erwartet)." in page


def test_an_empty_file(upload):
    page = upload(b"")
    assert "Die Datei ist leer" in page


def test_no_file_at_all(client, referee, photo_table):
    client.force_login(referee)
    url = reverse(
        "tournament:photo_upload",
        kwargs={"slug": "rm-test", "series": 1, "table": 1},
    )
    page = client.post(url, {}).content.decode()
    assert "Bitte ein Foto der Spielliste aufnehmen oder wählen." in page
    assert not SheetPhoto.objects.exists()


def test_a_50_mb_file(upload):
    page = upload(b"\xff\xd8\xff\xe0" + bytes(50 * 2**20))
    assert "Das Foto ist zu groß (höchstens 25 MB)." in page


def test_an_image_bomb(upload):
    # 60000 x 60000 pixels declared in a few hundred bytes: decoding would
    # take 3.6 GB.
    header = struct.pack(">IIBBBBB", 60000, 60000, 8, 0, 0, 0, 0)
    bomb = (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress((b"\x00" + bytes(60000)) * 4, 9))
        + _png_chunk(b"IEND", b"")
    )
    assert len(bomb) < 2000
    page = upload(bomb, name="bombe.png")
    assert "zu viele Pixel" in page


def test_a_60_megapixel_png_says_to_send_a_photo(upload):
    # 9000 x 6600 white pixels in 73 KB: 0.5 s and 290 MB to decode.
    page = upload(blank_png(9000, 6600), name="scan.png")
    assert (
        "Dieses Bild (PNG) ist zu groß zum Lesen: höchstens 10 Megapixel. Bitte "
        "die Spielliste mit der Handykamera fotografieren und als Foto (JPEG) "
        "schicken oder das Bild kleiner speichern."
    ) in page


def test_a_photo_of_something_else(upload):
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (1200, 1600, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(noise).save(out, "JPEG", quality=80)
    page = upload(out.getvalue())
    assert "Keine Spielliste erkannt. Bitte näher heran" in page


@needs_pdftoppm
def test_the_wrong_tables_sheet(upload, other_table):
    photo = sheet_photo(other_table, GAMES, seed=4)
    page = upload(photo)
    assert "Das ist die Spielliste von Tisch 2" in page
    # The tournament by its name, not by its address word.
    tournament = other_table.series.tournament
    assert f"Serie 1, {escape(tournament.name)})" in page
    assert "Bitte die Spielliste dieses Tisches fotografieren." in page


@needs_pdftoppm
def test_another_series_sheet(upload, photo_table, tournament):
    from tests.support.factories import make_series

    entries = list(tournament.entries.order_by("start_number"))
    later = make_series(tournament, sizes=(4, 4), number=2, entries=entries)
    photo = sheet_photo(later.tables.get(number=1), GAMES, seed=4)
    page = upload(photo)
    assert "Spielliste von Tisch 1 (Serie 2" in page


def test_a_burst_of_photos_gets_a_moment(upload, settings):
    """While every place of the pool is taken, a photo is not queued
    without end: the person is asked to wait a moment."""
    settings.SHEET_PHOTO_WORKERS = 1
    settings.SHEET_PHOTO_WAITING = 0
    other = threading.Event()
    pool.photo_pool().submit(other.wait, 10)  # another photo is read
    photo = io.BytesIO()
    Image.new("L", (800, 600), 255).save(photo, "JPEG")
    try:
        # 503: a phone's outbox sends it again in a moment by itself.
        page = upload(photo.getvalue(), status=503)
    finally:
        other.set()
        background.shutdown()
    assert "Bitte einen Moment, es werden gerade andere Fotos gelesen" in page


def test_the_largest_photo_reaches_the_page():
    """A request body as large as the largest photo the reader takes (and
    its form) is not refused before the photo page can say why."""
    assert settings.REQUEST_MAX_BYTES >= MAX_BYTES + 64 * 1024
