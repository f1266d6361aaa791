"""The hall's server against uploads that cost it: images dear to decode,
photos with bytes after their end, and bodies by the hundred that never
finish (bench/frontdoor.py has the attacks; tests/site/test_front_door.py
says what each test holds the server to: the referee and the phone
answered within 1 s at p95, only 200, memory within +200 MB)."""

import pytest

from bench import frontdoor
from tests.site.test_front_door import attacked

pytestmark = pytest.mark.slow  # real servers under attack: not in test-fast


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    with frontdoor.hall(tmp_path_factory.mktemp("front-door-uploads")) as found:
        yield found
        assert not frontdoor.tracebacks(frontdoor.server_log(found))


@pytest.mark.parametrize(
    "attack", [frontdoor.images, frontdoor.images_referee], ids=["player", "referee"]
)
def test_a_60_megapixel_png_six_at_a_time_costs_nobody_their_page(hall, attack):
    """A 60-megapixel PNG of a few hundred KB cost 2-3 s of CPU and +600 MB
    to decode before it was refused, and each held its place in Django
    meanwhile: one player's link sending six at a time pushed the phones'
    pages to 9-12 s, one referee the other referee's to 12 s. Now its size
    is read from its header and it is refused undecoded, a photo waiting
    for the readers gives up its place, and a sender gets only so many
    photos in five minutes."""
    seen = attacked(hall, attack, at_once=6, seconds=10)
    assert set(seen["statuses"]) <= {"200", "429"}, seen


def test_bytes_after_a_photo_and_photo_after_photo_do_not_fill_the_disk(hall):
    """A player's link sending photos of its sheet with 20 MB after the
    image's end, six at a time, added 531 MB in 20 s. Now a photo is kept
    up to its image's end, a table keeps three unsaved ones, and a link
    sends six photos in five minutes."""
    seen = attacked(hall, frontdoor.disk, at_once=6, seconds=20)
    assert "500" not in seen["statuses"], seen
    assert seen["photos_grew_mb"] < 10, seen


@pytest.mark.parametrize(
    "count, megabytes", [(600, 2.4), (100, 25)], ids=["600 × 2.4 MB", "100 × 25 MB"]
)
def test_bodies_in_flight_are_budgeted(hall, count, megabytes):
    """600 anonymous bodies of 2.4 MB waiting for their deadline took the
    server to 2.3 GB, 100 of 25 MB used 1.6 GB of its disk. Now only so many
    bodies and bytes are in flight at once; one more gets 503 unread."""
    seen = attacked(hall, frontdoor.bodies, count=count, megabytes=megabytes)
    statuses = seen["statuses"]
    assert "503" in statuses or "ConnectionResetError" in statuses, seen
    assert statuses.get("408", 0) <= 64, seen  # at most the room's count read
