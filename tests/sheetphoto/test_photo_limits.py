"""How many photos one sender may send: a player (his personal link) six,
a signed-in referee thirty in five minutes. Beyond them the photo page
says, as its error, when to try again (429 with Retry-After); nothing is
read or kept, and another sender is not held back."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournament.models import SheetPhoto
from tournament.sheetphoto.services import (
    PHOTO_WINDOW,
    PHOTOS_PER_PLAYER,
    PHOTOS_PER_USER,
)

pytestmark = pytest.mark.django_db

# Counts as a photo sent; refused as no photo before it is read.
NOT_A_PHOTO = b"Kein Foto.\n" * 10


def send(client: Client, url: str):
    upload = SimpleUploadedFile("foto.jpg", NOT_A_PHOTO, content_type="image/jpeg")
    return client.post(url, {"photo": upload})


def player_url(table, seat: int) -> str:
    return reverse(
        "tournament:mine_photo_upload",
        kwargs={
            "slug": table.series.tournament.slug,
            "token": table.seats.get(number=seat).entry.link_token,
            "series": 1,
            "table": table.number,
        },
    )


def referee_url(table) -> str:
    return reverse(
        "tournament:photo_upload",
        kwargs={"slug": table.series.tournament.slug, "series": 1, "table": 1},
    )


def assert_limited(response) -> None:
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= PHOTO_WINDOW
    page = response.content.decode()
    error = page.split('role="alert"')[1].split("</div>")[0]
    assert "Es wurden gerade sehr viele Fotos geschickt. Bitte in 5 Minuten" in error
    assert "oder das Ergebnis von Hand eingeben" in error
    assert 'name="photo"' in page  # the photo page, to try again from


def test_a_player_sends_six_photos_in_five_minutes(client, referee, photo_table):
    url = player_url(photo_table, 1)
    for _ in range(PHOTOS_PER_PLAYER):
        refused = send(client, url)
        assert refused.status_code == 200
        assert "Das ist kein Foto" in refused.content.decode()
    assert_limited(send(client, url))
    assert not SheetPhoto.objects.exists()
    # Another player of the table, and the referee, have their own share.
    assert send(Client(), player_url(photo_table, 2)).status_code == 200
    client.force_login(referee)
    assert send(client, referee_url(photo_table)).status_code == 200


def test_a_referee_sends_thirty(client, referee, referee2, photo_table):
    client.force_login(referee)
    for _ in range(PHOTOS_PER_USER):
        assert send(client, referee_url(photo_table)).status_code == 200
    assert_limited(send(client, referee_url(photo_table)))
    other = Client()
    other.force_login(referee2)
    assert send(other, referee_url(photo_table)).status_code == 200
