"""Entry at the table on real phones (issue 16.1, 16.2): Chromium at 360 px
against a real uvicorn process with websockets. A player opens his
personal link, sees his table and seat, and enters the five games with his
thumb; another player of the table, whose "Mein Turnier" is open, gets the
entry pushed to his phone without reloading, and says *Stimmt*; it counts.
Every page fits the screen (no sideways scroll), its answer buttons are
44 px to tap, axe finds nothing serious. With UPDATE_DOC_IMAGES=1 the
handbook's pictures (docs/HANDBUCH.md) are made here."""

import os
from pathlib import Path

import pytest

from tests.e2e.a11y import Audit
from tests.support import servers as support
from tests.support.browser import ARTIFACTS, chromium, skip_without_chromium
from tests.support.threads import in_own_thread

pytestmark = pytest.mark.e2e

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
PHONE = {"viewport": {"width": 360, "height": 740}, "locale": "de-DE"}

# Run in the server's database: entry at the table on, and the four players
# of the first table of series 4 still without a result (the demo plays
# half of series 4), with their links.
SETUP = """
import json
from tournament.models import Series, Table, Tournament
Tournament.objects.filter(slug="rm-2026").update(table_entry="one")
series = Series.objects.get(tournament__slug="rm-2026", number=4)
table = (
    Table.objects.filter(series=series, result_versions__isnull=True, size=4)
    .order_by("number").first()
)
print(json.dumps({
    "table": table.number,
    "links": {s.number: s.entry.link_token for s in table.seats.all()},
}))
"""


@pytest.fixture
def hall(tmp_path):
    skip_without_chromium()
    with support.demo_hall(tmp_path, SETUP) as hall:
        yield hall


def picture(page, name: str, *, readme: bool = False) -> None:
    """A test artifact; with UPDATE_DOC_IMAGES=1 also the handbook's."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if readme and os.environ.get("UPDATE_DOC_IMAGES"):
        page.screenshot(path=str(DOCS_IMG / f"{name}.png"), full_page=True)


def fits_the_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """() => Array.from(document.querySelectorAll('main *'))
        .filter((e) => e.getBoundingClientRect().right > 361)
        .slice(0, 5).map((e) => e.tagName + '.' + e.className + ' '
        + Math.round(e.getBoundingClientRect().right))"""
    )
    assert width <= 360, f"{page.url}: {width} px wide: {wide}"


def tap_size(page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["height"] >= 44, (selector, box)


def state(page, url):
    """What the player's page says as JSON (the outbox's view of it)."""
    return page.evaluate(
        """async (url) => (await fetch(url, {headers: {Accept: "application/json"}}))
        .json()""",
        url,
    )


def test_one_player_enters_another_says_stimmt_on_their_phones(hall):
    in_own_thread(_at_the_table, *hall)


def _at_the_table(base, world):
    table, links = world["table"], world["links"]

    def mine(seat) -> str:
        return f"{base}/t/rm-2026/mein/{links[str(seat)]}/"

    with chromium() as browser:
        audit = Audit(base)
        # --- Player 3 opens his page first and leaves it open. --------------
        other = browser.new_context(**PHONE).new_page()
        audit.watch(other)
        other.goto(f"{base}/t/rm-2026/tisch/{table}/")
        other.get_by_text("Spielerkarte scannen").wait_for()
        fits_the_phone(other)
        other.goto(mine(3))
        other.wait_for_selector(".live-status[data-live-state='live']")
        other.get_by_text("Noch kein Ergebnis").wait_for()

        # --- Player 1: his page, then the entry form. ------------------------
        first = browser.new_context(**PHONE).new_page()
        audit.watch(first)
        first.goto(mine(1))
        first.wait_for_selector(".live-status[data-live-state='live']")
        assert "Sitz 1" in first.locator(".mine-seat").inner_text()
        assert f"Tisch {table}" in first.locator(".mine-seat").inner_text()
        fits_the_phone(first)
        audit.check(first, "mein-turnier")
        picture(first, "mein-turnier-phone", readme=True)
        first.get_by_role("button", name="Ergebnis eingeben").click()
        first.wait_for_url("**/eingeben/")
        fits_the_phone(first)
        audit.check(first, "mein-turnier-eingabe")
        for game, (winner, marks) in enumerate(
            [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)], 1
        ):
            first.check(f"#spiel-{game} input[name=g{game}_winner][value='{winner}']")
            first.check(f"#spiel-{game} input[name=g{game}_marks][value='{marks}']")
        first.get_by_role("button", name="Speichern").click()
        first.wait_for_url(mine(1))
        first.get_by_text("Gespeichert").wait_for()
        assert state(first, mine(1))["state"] == "entered"

        # --- Player 3's open page gets it pushed, without a reload. ----------
        other.get_by_text("Stimmt das Ergebnis?").wait_for(timeout=15000)
        fits_the_phone(other)
        tap_size(other, "button.answer-yes")
        tap_size(other, ".answer-no summary")
        audit.check(other, "mein-turnier-stimmt")
        picture(other, "mein-turnier-stimmt-phone", readme=True)
        # Player 4 looks at the "Stimmt nicht" page, and leaves it.
        fourth = browser.new_context(**PHONE).new_page()
        audit.watch(fourth)
        fourth.goto(f"{mine(4)}serie/4/tisch/{table}/stimmt-nicht/")
        fourth.get_by_label("Was stimmt nicht?").wait_for()
        fits_the_phone(fourth)
        audit.check(fourth, "stimmt-nicht")
        picture(fourth, "stimmt-nicht-phone")
        # "Stimmt nicht" opens its form without script; he closes it again.
        other.locator(".answer-no summary").click()
        assert other.locator(".answer-no textarea[name=reason]").is_visible()
        other.locator(".answer-no summary").click()
        other.get_by_role("button", name="Stimmt", exact=True).click()
        other.get_by_text("Das Ergebnis zählt ab sofort").wait_for()
        assert state(other, mine(3))["state"] == "confirmed"
        # Player 1's page follows by itself.
        first.get_by_text("bestätigt", exact=True).wait_for(timeout=15000)
        # Too late for player 4 now: refused in words, on a page that fits.
        fourth.reload()
        fourth.get_by_text("wartet nicht mehr auf Bestätigung").wait_for()
        fits_the_phone(fourth)
        picture(fourth, "stimmt-nicht-refused-phone")
        # Back on the table page, this phone is player 3's.
        other.goto(f"{base}/t/rm-2026/tisch/{table}/")
        other.get_by_text("Weiter zu „Mein Turnier“").wait_for()
        # ... and every page of the tournament offers his page in its tabs.
        assert other.locator(".nav-tabs a", has_text="Mein Turnier").is_visible()
        fits_the_phone(other)
        picture(other, "tisch-seite-phone")
        audit.assert_clean()
