"""Photos live where every worker finds them: two server processes with
VAR_DIRs of their own (as on two machines) on one database and one photo
folder (SHEET_PHOTO_DIR): a photo sent to one is reviewed, image and all,
through the other."""

import json
import re
from pathlib import Path

import pytest

from bench.frontdoor import multipart_photo
from tests.support import servers as support

pytestmark = [pytest.mark.slow, pytest.mark.server]

SLUG = "foto-geteilt"
PASSWORD = "foto-pruefen"
GAMES = [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)]


def seed() -> None:
    """Run in a subprocess on the servers' database: two tables of four,
    released, a referee; the photo of table 1's sheet written to VAR_DIR.
    Prints JSON: the photo's path."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.support.factories import TournamentFactory, make_series, make_user
    from tests.support.sheetphotos import sheet_photo
    from tournament.models import Table

    tournament = TournamentFactory(slug=SLUG)
    series = make_series(tournament, sizes=(4, 4))
    make_user("schiri", "referee", password=PASSWORD)
    table = Table.objects.get(series=series, number=1)
    path = Path(settings.VAR_DIR) / "spielliste.jpg"
    path.write_bytes(sheet_photo(table, GAMES, seed=2))
    print(json.dumps({"photo": str(path)}))


def _upload(port: int, photo: bytes, csrf: str, cookies: str) -> str:
    content_type, body = multipart_photo(
        photo, "bogen.jpg", {"csrfmiddlewaretoken": csrf}
    )
    status, headers, page = support.request(
        port,
        "POST",
        f"/t/{SLUG}/eingabe/serie/1/tisch/1/foto/",
        body,
        {
            "Cookie": cookies,
            "Content-Type": content_type,
        },
        timeout=60,
    )
    assert status == 302, (status, page[:300])
    return headers["Location"]


def test_a_photo_sent_to_one_worker_is_reviewed_through_another(tmp_path):
    shared = tmp_path / "geteilt"
    shared.mkdir()
    common = {
        "DATABASE_URL": f"sqlite:///{shared / 'turnier.sqlite3'}",
        "SHEET_PHOTO_DIR": str(shared / "fotos"),
    }
    envs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        envs.append(support.server_env(tmp_path / name, **common))
    world = support.run_seed(envs[0], __name__)
    ports = [support.free_port(), support.free_port()]
    processes = [
        support.start_server(env, port) for env, port in zip(envs, ports, strict=True)
    ]
    try:
        for port, process in zip(ports, processes, strict=True):
            support.wait_until_up(port, process)
        one, other = ports
        csrf, cookies = support.http_sign_in(one, "schiri", PASSWORD)
        review = _upload(one, Path(world["photo"]).read_bytes(), csrf, cookies)
        signed_in = {"Cookie": cookies}
        status, _, page = support.request(other, "GET", review, headers=signed_in)
        assert status == 200
        images = re.findall(r'src="([^"]*/bild/[^"]+/)"', page.decode())
        assert images, "the review shows no image"
        for image in images:
            status, headers, data = support.request(
                other, "GET", image, headers=signed_in
            )
            assert (status, headers["Content-Type"]) == (200, "image/jpeg"), image
            assert data.startswith(b"\xff\xd8")
        # Kept in the shared folder, in neither worker's own.
        assert list((shared / "fotos").iterdir())
        assert not (tmp_path / "a" / "sheetphotos").exists()
    finally:
        for process in processes:
            support.stop(process)
