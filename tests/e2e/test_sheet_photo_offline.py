"""The photo of a score sheet, offline and at the table, on a player's phone
(Chromium at 360 px): he opens his table's photo page, the hall's Wi-Fi
goes, he takes the photo. The phone keeps it and says in words that it
waits; the network returns and it arrives, once, and the phone goes on to
its review. There the sheet's strokes are buttons on the picture: the one
the reader could not be sure of (a loser's last mark, left standing on the
sheet of game 3) is tapped, and game 3's winner and marks in the form
follow. Saved; the other player of the table says "Stimmt", and the result
counts, marked as from a photo.

pytest-django's live_server speaks plain HTTP on localhost (see
test_selfentry_offline.py). The photo is a synthetic phone photo of the
table's own printed sheet (bench/sheetphoto.py)."""

import re

import pytest

from tests.support.browser import ARTIFACTS
from tests.support.factories import TournamentFactory, make_series
from tests.support.sheetphotos import needs_pdftoppm, sheet_photo
from tournament.models import ResultVersion, SheetPhoto

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), needs_pdftoppm]

PHONE = {"viewport": {"width": 360, "height": 780}, "locale": "de-DE"}
SLUG = "foto-offline"
# Table 1's games (winner seat, marks kept); game 3's sheet is kept wrong:
# seat 2's last mark left standing, so nobody won it clearly.
GAMES = [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)]
UNSURE = 3
LEFT_STANDING = (2, 7)  # seat, mark


# True once the phone's outbox (IndexedDB) holds nothing.
EMPTY_OUTBOX = """() => new Promise((resolve) => {
  const open = indexedDB.open("siebenschraem", 1);
  open.onsuccess = () => {
    const request = open.result.transaction("outbox").objectStore("outbox").count();
    request.onsuccess = () => resolve(request.result === 0);
  };
})"""


def fits(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url}: {scroll} px wide at {width} px"


def checked(page, name: str) -> str | None:
    return page.evaluate(
        "(n) => { const i = document.querySelector(`input[name='${n}']:checked`);"
        " return i ? i.value : null; }",
        name,
    )


def test_a_photo_taken_offline_arrives_once_and_is_corrected_on_the_picture(
    live_server, browser, shot, var_dir
):
    tournament = TournamentFactory(slug=SLUG, name="Foto offline", table_entry="one")
    series = make_series(tournament, sizes=(4, 4))
    table = series.tables.get(number=1)
    seats = {s.number: s.entry for s in table.seats.select_related("entry")}
    photo = var_dir / "spielliste.jpg"
    photo.write_bytes(sheet_photo(table, GAMES, seed=2, unsure=UNSURE))
    base = live_server.url
    mine = f"{base}/t/{SLUG}/mein/{seats[1].link_token}/"
    upload = f"{mine}serie/1/tisch/1/foto/"

    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(upload)
    page.get_by_role("heading", name=re.compile("Tisch 1")).wait_for()

    # --- No network: the photo is taken, and waits on the phone. ----------
    context.set_offline(True)
    page.set_input_files("input[type=file]", str(photo))
    status = page.locator(".outbox-status")
    status.filter(has_text="Das Foto wartet auf diesem Handy auf Netz").wait_for(
        timeout=15_000
    )
    assert page.locator("[data-photo-status]").inner_text() == ""
    assert not SheetPhoto.objects.exists()
    fits(page, 360)
    shot(page, "sheetphoto-offline-1-waiting-360")

    # --- The network is back: sent, once, and on to its review. -----------
    context.set_offline(False)
    status.filter(has_text="Foto angekommen").or_(
        page.locator("[data-tap-sheet]")
    ).first.wait_for(timeout=20_000)
    page.wait_for_url(re.compile(r"/foto/[0-9a-f-]{36}/$"), timeout=20_000)
    assert SheetPhoto.objects.count() == 1
    stored = SheetPhoto.objects.get()
    assert stored.uploaded_by_player == seats[1] and stored.version is None

    # --- The review: the unsure game is empty; its strokes on the picture.
    page.locator("[data-tap-sheet]").wait_for()
    page.wait_for_function("() => Array.from(document.images).every((i) => i.complete)")
    assert "unsicher gelesen" in page.locator(".photo-summary").inner_text()
    assert checked(page, f"g{UNSURE}_winner") is None
    assert checked(page, f"g{UNSURE}_marks") is None
    for number, (winner, marks) in enumerate(GAMES, 1):
        if number != UNSURE:
            assert checked(page, f"g{number}_winner") == str(winner)
            assert checked(page, f"g{number}_marks") == str(marks)
    seat, mark = LEFT_STANDING
    cell = page.locator(
        f".tap-game[data-game='{UNSURE}'] .tap-row[data-seat='{seat}'] .tap-cell"
    ).nth(mark - 1)
    assert cell.get_attribute("aria-pressed") in ("false", "mixed")
    # A reasonable target for a thumb on a 360 px phone.
    box = cell.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24, box
    fits(page, 360)
    shot(page, "sheetphoto-review-taps-360")
    page.set_viewport_size({"width": 1366, "height": 900})
    fits(page, 1366)
    shot(page, "sheetphoto-review-taps-1366")
    page.set_viewport_size(PHONE["viewport"])

    # The stroke that stands on the picture is struck on the sheet: tapped.
    cell.click()
    assert cell.get_attribute("aria-pressed") == "true"
    winner, marks = GAMES[UNSURE - 1]
    assert checked(page, f"g{UNSURE}_winner") == str(winner)
    assert checked(page, f"g{UNSURE}_marks") == str(marks)
    assert (
        f"Spiel {UNSURE} nach dem Bild: Sitz {winner}"
        in page.locator("[data-tap-status]").inner_text()
    )
    # Tapped again it stands again, and the game is open again.
    cell.press("Enter")
    assert cell.get_attribute("aria-pressed") == "false"
    assert checked(page, f"g{UNSURE}_winner") is None
    assert "mehrere Spieler" in page.locator("[data-tap-status]").inner_text()
    cell.press("Space")
    assert checked(page, f"g{UNSURE}_marks") == str(marks)
    page.locator(f"#spiel-{UNSURE}").screenshot(
        path=str(ARTIFACTS / "sheetphoto-review-tapped-game-360.png")
    )
    shot(page, "sheetphoto-review-tapped-360")

    # --- Saved, and the other player of the table confirms. ---------------
    page.locator("#result-form button[type=submit]").click()
    page.wait_for_url(mine, timeout=15_000)
    version = ResultVersion.objects.get(table=table)
    assert version.status == "pending" and version.photo == stored
    assert [(g["winner"], g["marks"]) for g in version.data["games"]] == GAMES

    second_context = browser.new_context(**PHONE)
    second = second_context.new_page()
    second.goto(f"{base}/t/{SLUG}/mein/{seats[2].link_token}/")
    second.get_by_role("button", name="Stimmt", exact=True).click()
    second.locator(".outbox-status").filter(has_text="Gesendet ✓").or_(
        second.locator(".message-success")
    ).first.wait_for(timeout=20_000)
    version.refresh_from_db()
    assert version.status == "confirmed"
    assert SheetPhoto.objects.count() == 1
    for each in (context, second_context):
        each.close()


def test_a_referees_photo_taken_offline_arrives_once(live_server, browser, var_dir):
    """The referees' photo page keeps a photo taken offline as well."""
    from tests.support.browser import sign_in
    from tests.support.factories import make_user

    tournament = TournamentFactory(slug=SLUG, name="Foto offline")
    series = make_series(tournament, sizes=(4, 4))
    table = series.tables.get(number=1)
    make_user("schiri", "referee", password="foto-pruefen")
    photo = var_dir / "spielliste.jpg"
    photo.write_bytes(sheet_photo(table, GAMES, seed=3))
    base = live_server.url
    upload = f"{base}/t/{SLUG}/eingabe/serie/1/tisch/1/foto/"

    context = browser.new_context(**PHONE)
    page = context.new_page()
    sign_in(page, base, "schiri", "foto-pruefen")
    page.goto(upload)
    context.set_offline(True)
    page.set_input_files("input[type=file]", str(photo))
    page.locator(".outbox-status").filter(
        has_text="Das Foto wartet auf diesem Handy auf Netz"
    ).wait_for(timeout=15_000)
    assert not SheetPhoto.objects.exists()
    context.set_offline(False)
    page.wait_for_url(re.compile(r"/foto/[0-9a-f-]{36}/$"), timeout=20_000)
    page.locator("[data-tap-sheet]").wait_for()
    assert SheetPhoto.objects.count() == 1
    assert "Alle Spiele klar gelesen" in page.locator(".photo-summary").inner_text()
    context.close()


def test_a_photo_that_arrives_while_the_phone_is_elsewhere_leads_to_its_review(
    live_server, browser, var_dir
):
    """The player leaves the photo page while his photo waits for the
    network: it is sent from the page he is on, and every page then says a
    photo waits for his check, with the way to its review."""
    tournament = TournamentFactory(slug=SLUG, name="Foto offline", table_entry="one")
    series = make_series(tournament, sizes=(4, 4))
    table = series.tables.get(number=1)
    entry = table.seats.get(number=1).entry
    photo = var_dir / "spielliste.jpg"
    photo.write_bytes(sheet_photo(table, GAMES, seed=4))
    base = live_server.url
    mine = f"{base}/t/{SLUG}/mein/{entry.link_token}/"
    upload = f"{mine}serie/1/tisch/1/foto/"

    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(mine)
    # Kept by the service worker, to be opened without network.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.goto(upload)
    context.set_offline(True)
    page.set_input_files("input[type=file]", str(photo))
    page.locator(".outbox-status").filter(
        has_text="Das Foto wartet auf diesem Handy auf Netz"
    ).wait_for(timeout=15_000)
    page.goto(mine)  # the phone's copy
    summary = page.locator("[data-outbox-summary]")
    summary.filter(has_text="1 Eingabe wartet auf Netz").wait_for(timeout=15_000)
    context.set_offline(False)
    summary.filter(has_text="Ein Foto der Spielliste ist angekommen").wait_for(
        timeout=20_000
    )
    assert SheetPhoto.objects.count() == 1
    summary.get_by_role("link", name="Ansehen").click()
    page.wait_for_url(re.compile(r"/foto/[0-9a-f-]{36}/$"))
    page.locator("[data-tap-sheet]").wait_for()
    # Its review seen: the other pages no longer speak of it.
    page.wait_for_function(EMPTY_OUTBOX)
    page.goto(mine)
    page.get_by_text("Tisch 1").first.wait_for()
    assert summary.is_hidden()
    assert SheetPhoto.objects.count() == 1
    context.close()
