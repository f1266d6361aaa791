"""The score sheet photographed, on a phone (Chromium at 360 px) against a
real uvicorn process: the referee opens the table's entry page, taps
"Spielliste fotografieren" and takes the photo (a synthetic phone photo
of the table's own printed sheet, bench/sheetphoto.py), sees the form
pre-filled with the unsure game marked in words and left empty, taps it
in, saves; a second referee confirms, and the standings change. The
pages fit the screen and axe finds nothing serious. With
UPDATE_DOC_IMAGES=1 the README's picture of the review is made here."""

import json
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image

from tests.e2e.a11y import Audit
from tests.support import servers as support
from tests.support.browser import ARTIFACTS, chromium, sign_in, skip_without_chromium
from tests.support.threads import in_own_thread

# (Django is set up in the seed's process only after this module is imported:
# nothing here imports the app at module level.)
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm"),
]

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SLUG = "foto-cup"
PASSWORD = "foto-pruefen"
# Table 1's games (winner seat, marks kept); game 3's sheet is kept wrong
# (a loser's last mark left standing), so the reader leaves it to a person.
GAMES = [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)]
UNSURE = 3
PHONE = {"viewport": {"width": 360, "height": 740}, "locale": "de-DE"}
CAMERA_LONG_SIDE = 4032


def seed() -> None:
    """Run in a subprocess on the server's database: a tournament of two
    tables of four, released, two referees; the photo of table 1's sheet
    written to VAR_DIR. Prints JSON: the photo's path and seat 1's start
    number."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import cv2
    import numpy as np

    from tests.support.factories import TournamentFactory, make_series, make_user
    from tests.support.sheetphotos import sheet_photo
    from tournament.models import Table

    tournament = TournamentFactory(slug=SLUG, name="Foto-Cup")
    series = make_series(tournament, sizes=(4, 4))
    make_user("schiri", "referee", password=PASSWORD)
    make_user("schiri2", "referee", password=PASSWORD)
    table = Table.objects.get(series=series, number=1)
    # As a phone's camera takes it: 12 MP (4032 px on the long side).
    photo = cv2.imdecode(
        np.frombuffer(sheet_photo(table, GAMES, seed=2, unsure=UNSURE), np.uint8),
        cv2.IMREAD_COLOR,
    )
    scale = CAMERA_LONG_SIDE / max(photo.shape[:2])
    camera = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    ok, encoded = cv2.imencode(".jpg", camera, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    path = Path(settings.VAR_DIR) / "spielliste-tisch-1.jpg"
    path.write_bytes(encoded.tobytes())
    seat1 = table.seats.get(number=1).entry.start_number
    print(
        json.dumps({"photo": str(path), "seat1": seat1, "var": str(settings.VAR_DIR)})
    )


@pytest.fixture
def hall(tmp_path):
    """The hall's configuration, as `make run` serves it: config.settings
    with DEBUG off, its CSP, collectstatic's manifest, uvicorn."""
    skip_without_chromium()
    env = support.hall_env(tmp_path)
    world = support.run_seed(env, __name__)
    port = support.free_port()
    process = support.start_server(env, port)
    try:
        support.wait_until_up(port, process)
        yield f"http://127.0.0.1:{port}", world
    finally:
        support.stop(process)


def picture(page, name: str, *, docs: bool = False) -> None:
    """A test artifact; with UPDATE_DOC_IMAGES=1 also the README's."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if docs and os.environ.get("UPDATE_DOC_IMAGES"):
        import io

        # What the screen shows, in a palette of few colours: a small file.
        shown = Image.open(io.BytesIO(page.screenshot()))
        shown = shown.convert("RGB").quantize(colors=128, dither=Image.Dither.NONE)
        shown.save(DOCS_IMG / "sheetphoto-review.png", optimize=True)


def fits(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """(w) => Array.from(document.querySelectorAll('main *'))
        .filter((e) => e.getBoundingClientRect().right > w + 1)
        .slice(0, 5).map((e) => e.tagName + '.' + e.className + ' '
        + Math.round(e.getBoundingClientRect().right))""",
        width,
    )
    assert scroll <= width, f"{page.url}: {scroll} px wide: {wide}"


def test_a_photographed_sheet_prefills_the_form_and_counts_once_confirmed(hall):
    base, world = hall
    in_own_thread(run, base, world)


def run(base: str, world: dict) -> None:
    table_url = f"{base}/t/{SLUG}/eingabe/serie/1/tisch/1/"
    with chromium() as browser:
        audit = Audit(base)
        context = browser.new_context(**PHONE)
        page = context.new_page()
        audit.watch(page)
        sign_in(page, base, "schiri", PASSWORD)
        page.goto(table_url)
        page.get_by_role("button", name="Spielliste fotografieren").click()
        page.wait_for_url(f"{table_url}foto/")
        fits(page, 360)
        audit.check(page, "photo page")
        picture(page, "sheetphoto-upload-360")
        # A file that is no picture: the page cannot decode it, sends it as
        # it is (nothing the CSP refuses), and the answer says what it is.
        junk = Path(world["var"]) / "kein-bild.jpg"
        junk.write_text("kein Bild")
        # (The phone's outbox sends it and shows the page it is answered
        # with: no navigation.)
        page.set_input_files("input[type=file]", str(junk))
        page.get_by_text("Das ist kein Foto (JPEG oder PNG erwartet).").first.wait_for()
        fits(page, 360)
        # The camera's photo: the page scales it and sends it at once.
        page.set_input_files("input[type=file]", world["photo"])
        page.wait_for_url(f"{table_url}foto/*/")
        # What arrived is the photo scaled on the phone: 2400 px on its
        # long side, a fraction of the camera's file.
        (sent,) = Path(world["var"]).glob("sheetphotos/*/photo.jpg")
        with Image.open(sent) as image:
            assert max(image.size) == 2400
        assert sent.stat().st_size < Path(world["photo"]).stat().st_size / 2
        assert "unsicher gelesen" in page.locator(".photo-summary").inner_text()
        game = page.locator(f"#spiel-{UNSURE}")
        assert "Bitte prüfen" in game.inner_text()
        assert "Kein eindeutiger Gewinner gelesen" in game.inner_text()
        # The flagged game's frame is thicker: its marks 1–7 still stand
        # in one line, as in every other game.
        tops = game.locator(".marks-option").evaluate_all(
            "(els) => els.map((e) => Math.round(e.getBoundingClientRect().top))"
        )
        assert len(tops) == 7 and len(set(tops)) == 1, tops
        for number, (winner, marks) in enumerate(GAMES, 1):
            winner_box = page.locator(f"input[name=g{number}_winner][value='{winner}']")
            marks_box = page.locator(f"input[name=g{number}_marks][value='{marks}']")
            assert winner_box.is_checked() == (number != UNSURE)
            assert marks_box.is_checked() == (number != UNSURE)
        # Every picture arrived (the sheet and each game's rows).
        page.wait_for_function(
            "() => Array.from(document.images).every((i) => i.complete)"
        )
        broken = page.evaluate(
            "() => Array.from(document.images).filter((i) => !i.naturalWidth).length"
        )
        assert broken == 0
        fits(page, 360)
        audit.check(page, "review")
        picture(page, "sheetphoto-review-360")
        game.screenshot(path=str(ARTIFACTS / "sheetphoto-flagged-game-360.png"))
        page.set_viewport_size({"width": 1366, "height": 900})
        fits(page, 1366)
        picture(page, "sheetphoto-review-1366", docs=True)
        page.set_viewport_size(PHONE["viewport"])

        # The referee looks at the sheet and taps game 3 in, then saves.
        winner, marks = GAMES[UNSURE - 1]
        game.locator(f"label:has(input[value='{winner}'])").first.click()
        game.locator(f"input[name=g{UNSURE}_marks][value='{marks}']").check(force=True)
        page.locator("#result-form button[type=submit]").click()
        page.wait_for_selector("text=zweite Person")

        # A second referee confirms, as for any entry.
        second = browser.new_context(**PHONE).new_page()
        audit.watch(second)
        sign_in(second, base, "schiri2", PASSWORD)
        second.goto(table_url)
        assert "aus Foto" in second.locator(".pending-box").inner_text()
        second.click("text=Stimmt mit der Spielliste überein – bestätigen")
        second.wait_for_selector(".message-success")
        seat1 = world["seat1"]
        second.goto(f"{base}/t/{SLUG}/tabelle/?q={seat1}")
        points = second.locator(f"tr#p{seat1} td.points").inner_text()
        assert int(points) == 12 + 14  # games 1 and 3: 5 and 7 marks kept
        audit.assert_clean()
