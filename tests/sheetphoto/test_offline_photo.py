"""A photo of the score sheet taken while the phone has no network waits in
its outbox (static/js/outbox.js) and is sent when the network is back,
perhaps more than once (an answer lost on the way back): the same photo
sent again is the photo already kept, never a second one, not counted
again, and answered as the first. The outbox asks for JSON and gets the
answer a keyed entry gets: where the review is, or the page with the
sentence why. The review lays a button over every stroke of the sheet."""

import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.sheetphoto.conftest import GAMES, UNSURE
from tests.support.sheetphotos import needs_pdftoppm
from tournament.models import SheetPhoto
from tournament.sheetphoto.services import PHOTOS_PER_PLAYER

pytestmark = pytest.mark.django_db

OUTBOX = {"HTTP_ACCEPT": "application/json", "HTTP_IDEMPOTENCY_KEY": ""}


def outbox_send(client: Client, url: str, data: bytes, key: str | None = None):
    """As the outbox sends a kept photo: multipart, asking for JSON, with
    the submission's key."""
    upload = SimpleUploadedFile("spielliste.jpg", data, content_type="image/jpeg")
    headers = {**OUTBOX, "HTTP_IDEMPOTENCY_KEY": key or str(uuid.uuid4())}
    return client.post(url, {"photo": upload}, **headers)


def referee_url(table) -> str:
    return reverse(
        "tournament:photo_upload",
        kwargs={"slug": table.series.tournament.slug, "series": 1, "table": 1},
    )


def player_url(table, seat: int = 1) -> str:
    return reverse(
        "tournament:mine_photo_upload",
        kwargs={
            "slug": table.series.tournament.slug,
            "token": table.seats.get(number=seat).entry.link_token,
            "series": 1,
            "table": table.number,
        },
    )


@needs_pdftoppm
def test_a_photo_sent_again_by_the_outbox_is_one_photo(
    client, referee, photo_table, photo
):
    client.force_login(referee)
    key = str(uuid.uuid4())
    first = outbox_send(client, referee_url(photo_table), photo, key)
    assert first.status_code == 200
    answer = first.json()
    stored = SheetPhoto.objects.get()
    review = reverse(
        "tournament:photo_review",
        kwargs={
            "slug": photo_table.series.tournament.slug,
            "series": 1,
            "table": 1,
            "photo": stored.pk,
        },
    )
    assert answer["ok"] is True and answer["location"] == review
    # Its first answer lost: the outbox sends it again, with its key.
    again = outbox_send(client, referee_url(photo_table), photo, key)
    assert again.json()["location"] == review
    # A double tap without script, or the same file chosen again: the same.
    upload = SimpleUploadedFile("foto.jpg", photo, content_type="image/jpeg")
    assert (
        client.post(referee_url(photo_table), {"photo": upload})["Location"] == review
    )
    assert SheetPhoto.objects.count() == 1
    # Sent while its page was closed: the photo page leads to its review.
    page = client.get(referee_url(photo_table)).content.decode()
    assert "Schon gesendet, noch nicht geprüft" in page
    assert f'href="{review}"' in page


@needs_pdftoppm
def test_a_players_photo_sent_again_is_one_and_not_counted_again(
    client, photo_table, photo
):
    url = player_url(photo_table)
    for _ in range(PHOTOS_PER_PLAYER + 2):
        answer = outbox_send(client, url, photo).json()
        assert answer["ok"] is True
    stored = SheetPhoto.objects.get()
    assert stored.uploaded_by_player == photo_table.seats.get(number=1).entry
    assert answer["location"].endswith(f"/foto/{stored.pk}/")
    # Another player of the table sending the same bytes has his own photo.
    assert outbox_send(Client(), player_url(photo_table, 2), photo).json()["ok"]
    assert SheetPhoto.objects.count() == 2


def test_a_photo_that_is_no_photo_is_answered_with_the_page_and_why(
    client, photo_table
):
    answer = outbox_send(client, player_url(photo_table), b"kein Bild" * 20)
    assert answer.status_code == 200
    data = answer.json()
    assert data["ok"] is False and data["location"] is None
    alert = data["html"].split('role="alert"')[1].split("</div>")[0]
    assert "Das ist kein Foto" in alert
    assert not SheetPhoto.objects.exists()


def test_readers_busy_is_a_503_the_outbox_sends_again(client, photo_table, monkeypatch):
    from tournament.sheetphoto import pool, services

    def busy(data, *, expected):
        raise pool.Busy

    monkeypatch.setattr(services, "read_bounded", busy)
    png = (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00"
        b"\x00\x00\x00:~\x9bU\x00\x00\x00\nIDATx\x9cc`\x00\x00\x00\x02\x00\x01H\xaf"
        b"\xa4q\x00\x00\x00\x00IEND\xaeB`\x82"
    )
    answer = outbox_send(client, player_url(photo_table), png)
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    assert answer.json()["ok"] is False
    # Without script: the page says to wait a moment.
    upload = SimpleUploadedFile("foto.png", png, content_type="image/png")
    page = client.post(player_url(photo_table), {"photo": upload})
    assert page.status_code == 503
    assert "Bitte einen Moment" in page.content.decode()


@needs_pdftoppm
def test_the_review_lays_a_button_over_every_stroke_as_read(
    client, referee, photo_table, photo
):
    client.force_login(referee)
    review = outbox_send(client, referee_url(photo_table), photo).json()["location"]
    stored = SheetPhoto.objects.get()
    cells = stored.reading["cells"]
    assert len(cells) == 5 * 4 * 7
    frame = stored.reading["frame"]
    assert frame["w"] > 180 and frame["h"] > 150
    page = client.get(review).content.decode()
    buttons = re.findall(r'<button type="button" class="tap-cell"[^>]*>', page)
    assert len(buttons) == 5 * 4 * 7
    # Game 3's sheet: the winner's row as kept, a loser's last mark left
    # standing (so nobody won clearly); as the reader saw it.
    winner, marks = GAMES[UNSURE - 1]
    states = {(g, s, m): state for g, s, m, state in cells}
    label = f"Spiel {UNSURE}, Sitz {winner} ("
    row = [b for b in buttons if label in b]
    assert len(row) == 7
    standing = [b for b in row if 'data-state="standing"' in b]
    assert len(standing) == marks
    assert all('aria-pressed="false"' in b for b in standing)
    assert (
        sum(state == "standing" for (g, s, _m), state in states.items() if g == UNSURE)
        == marks + 1
    )
    # The strokes' part of the picture, in percent of it.
    box = page.split("data-tap-sheet")[1].split(">")[0]
    crop = {
        k: float(v)
        for k, v in re.findall(r'data-(left|top|width|height)="([\d.]+)"', box)
    }
    assert set(crop) == {"left", "top", "width", "height"}
    assert 0 < crop["left"] < crop["left"] + crop["width"] < 100
    assert 0 < crop["top"] < crop["top"] + crop["height"] <= 100


def test_the_review_of_a_photo_read_without_its_cells_has_no_buttons(
    client, referee, photo_table
):
    photo = SheetPhoto.objects.create(
        table=photo_table,
        sha256="d" * 64,
        size=10,
        file_name="photo.jpg",
        reading={"games": []},
    )
    client.force_login(referee)
    page = client.get(
        reverse(
            "tournament:photo_review",
            kwargs={
                "slug": photo_table.series.tournament.slug,
                "series": 1,
                "table": 1,
                "photo": photo.pk,
            },
        )
    ).content.decode()
    assert "tap-cell" not in page


def test_the_forms_initial_values_come_from_one_place(photo_table):
    from tournament.results.forms import initial_from_games, result_initial

    photo_table.result_revision = 2
    assert initial_from_games(photo_table, {1: (3, 2), 4: (1, 7)}) == {
        "revision": 2,
        "mode": "quick",
        "g1_winner": "3",
        "g1_marks": "2",
        "g4_winner": "1",
        "g4_marks": "7",
    }
    assert result_initial(photo_table, None) == {"revision": 2, "mode": "quick"}
