"""A review image's address names its part ("blatt" or a game's number):
any other part is 404, also one that is a digit only to Unicode ("²", "①",
"٣"), for the referee's address and the player's alike."""

import pytest
from django.urls import reverse

from tournament.models import SheetPhoto
from tournament.sheetphoto.services import game_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept(photo_table, referee, var_dir):
    """A photo of table 1 by its seat 1's player, its game 3 image on disk."""
    player = photo_table.seats.get(number=1).entry
    photo = SheetPhoto.objects.create(
        table=photo_table,
        sha256="0" * 64,
        size=1,
        file_name="photo.jpg",
        reading={"games": []},
        uploaded_by_player=player,
    )
    folder = var_dir / "sheetphotos" / str(photo.pk)
    folder.mkdir(parents=True)
    (folder / game_file(3)).write_bytes(b"\xff\xd8game 3\xff\xd9")
    return photo


def addresses(photo, part):
    table = photo.table
    kwargs = {"slug": table.series.tournament.slug, "series": 1, "table": 1}
    player = photo.uploaded_by_player
    return (
        reverse(
            "tournament:photo_image", kwargs={**kwargs, "photo": photo.pk, "part": part}
        ),
        reverse(
            "tournament:mine_photo_image",
            kwargs={
                **kwargs,
                "token": player.link_token,
                "photo": photo.pk,
                "part": part,
            },
        ),
    )


def test_a_part_that_is_a_digit_only_to_unicode_is_not_found(client, referee, kept):
    client.force_login(referee)
    for url in addresses(kept, "3"):
        assert client.get(url).content == b"\xff\xd8game 3\xff\xd9"
    for part in ("²", "①", "٣", "03x", "blatt2"):
        for url in addresses(kept, part):
            assert client.get(url).status_code == 404, (part, url)
