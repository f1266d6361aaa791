"""A renewed player card on real phones: Chromium against a real uvicorn
process with websockets. The player's "Mein Turnier" is open on his phone
(360 px), on the desk laptop (1366 px) and on a phone whose socket cannot
connect (it polls); the organizer gives him a new card; the open pages say
that the old link is gone (the polling one at its next poll), stop
updating, and fit their screen."""

import pytest

from tests.e2e.test_table_entry_phone import fits_the_phone, picture
from tests.support import servers as support
from tests.support.browser import chromium, sign_in, skip_without_chromium
from tests.support.threads import in_own_thread

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 360, "height": 740}, "locale": "de-DE"}
LAPTOP = {"viewport": {"width": 1366, "height": 800}, "locale": "de-DE"}

# A phone on a Wi-Fi that lets no websocket through: every socket closes at
# once, so the page polls its live part.
NO_SOCKET = """
window.WebSocket = class extends EventTarget {
  constructor() {
    super();
    setTimeout(() => this.dispatchEvent(new Event("close")), 10);
  }
  send() {}
  close() {}
};
"""

SETUP = """
import json
from tournament.models import Series
series = Series.objects.get(tournament__slug="rm-2026", number=4)
seat = series.tables.order_by("number").first().seats.order_by("number").first()
print(json.dumps({"number": seat.entry.start_number, "link": seat.entry.link_token}))
"""


@pytest.fixture
def hall(tmp_path):
    skip_without_chromium()
    with support.demo_hall(tmp_path, SETUP) as hall:
        yield hall


def test_a_renewed_card_ends_the_open_pages_of_the_old_link(hall):
    in_own_thread(_renew, *hall)


def _renew(base, player):
    mine = f"{base}/t/rm-2026/mein/{player['link']}/"
    gone = "Diesen persönlichen Link gibt es nicht (mehr)"
    with chromium() as browser:
        pages = {}
        for name, device in (("phone", PHONE), ("laptop", LAPTOP)):
            page = browser.new_context(**device).new_page()
            page.goto(mine)
            page.wait_for_selector(".live-status[data-live-state='live']")
            assert "Tisch" in page.locator(".mine-seat").inner_text()
            pages[name] = page
        polling = browser.new_context(**PHONE)
        polling.add_init_script(NO_SOCKET)
        pages["polling"] = polling.new_page()
        pages["polling"].goto(mine)
        pages["polling"].wait_for_selector(".live-status[data-live-state='offline']")
        desk = browser.new_context(**LAPTOP).new_page()
        edit = f"/t/rm-2026/verwaltung/spieler/{player['number']}/"
        sign_in(desk, base, "organizer", "organizer-demo", edit)
        renew = "Neue Spielerkarte (alter Link ungültig)"
        desk.get_by_role("button", name=renew).click()
        desk.get_by_text("der alte Link gilt nicht mehr").wait_for()
        for name, page in pages.items():
            # The polling phone asks every 15 s (at most 19 with its jitter).
            page.get_by_text(gone).wait_for(timeout=30000)
            assert page.locator(".mine-seat").count() == 0
            assert page.locator(".live-status").is_hidden()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], (name, width)
            picture(page, f"renewed-card-{name}")
        fits_the_phone(pages["phone"])
        # The old link's page itself is gone too.
        assert pages["phone"].goto(mine).status == 404
