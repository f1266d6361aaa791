"""A digital table in a real browser (Debian's Chromium) against a real
uvicorn process with websockets: open the practice table, look at the
cards, play a hand against the bots by tapping, on a 360 px phone: the
cards drawn, the trick around the table with the player at the bottom, no
sideways scroll, tap targets of 44 px and more."""

import contextlib
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.a11y import Audit
from tests.support import servers as support
from tests.support.browser import (
    ARTIFACTS,
    chromium,
    follow,
    sign_in,
    skip_without_chromium,
)
from tests.support.threads import in_own_thread

pytestmark = pytest.mark.e2e

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def serve(env, *commands):
    """Run manage.py commands on a fresh database, then a real server."""
    skip_without_chromium()  # before the commands, which take seconds
    yield from support.serve_after(env, *commands)


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    """The demo championship (as `make run` makes it) behind a real server
    whose bot runner plays in threads, as in production; both tests share
    it (a practice table and a tournament table have nothing in common).
    DEBUG: WhiteNoise serves the static files straight from static/."""
    env = support.server_env(
        tmp_path_factory.mktemp("digital-browser"),
        DEBUG="1",
        DIGITAL_BOTS_INLINE="0",
        DIGITAL_BOT_DELAY_ALONE="0.01",
    )
    yield from serve(env, ["demo", "--complete", "1", "--players", "16"])


def test_a_hand_is_played_by_tapping_on_a_phone(demo_server):
    in_own_thread(_play_a_hand, demo_server)


def _play_a_hand(port):
    base = f"http://127.0.0.1:{port}"
    with chromium() as browser:
        page = browser.new_page(
            viewport={"width": 360, "height": 740}, device_scale_factor=2
        )
        # What happens, not how fast: on a machine busy with the rest of the
        # suite a step (the bots' moves, axe) took longer than Playwright's
        # 30 s default.
        page.set_default_timeout(90_000)
        audit = Audit(base)
        audit.watch(page)
        page.goto(f"{base}/ueben/")
        audit.check(page, "practice")
        page.click("main form button[type=submit]")
        page.wait_for_url("**/d/*/")
        page.wait_for_selector("#d-connection[data-state='online']")
        # Face down until looked at: backs, no playable card -- and the
        # page was sent none of them (issue 15).
        assert page.locator("#d-hand .card.back").count() == 4
        assert page.locator("#d-hand button[data-card]").count() == 0
        sent = page.evaluate(
            "JSON.parse(document.getElementById('digital').dataset.initial)"
        )
        assert sent["game"]["hand"]["cards"] is None
        assert sent["game"]["hand"]["legal"]["cards"] == []
        audit.check(page, "table, face down")
        _assert_phone_sized(page)
        page.click("#d-actions button[data-act='look']")
        page.wait_for_selector("#d-hand button[data-card]")
        audit.check(page, "table, looked")
        _assert_phone_sized(page)
        _assert_table_around(page, seats=4)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "digital-table-looked.png"))
        played = _tap_until_the_hand_is_over(page)
        assert played >= 1
        # The hand's winner is named, in the right person ("Sie gewinnen"
        # when it was the player) -- or, when holding every knock cost the
        # player all his marks in that hand, the bots played the game to its
        # end at once, and the game's winner is named.
        page.wait_for_selector("#d-last:not([hidden]), #d-value:has-text('das Spiel')")
        if page.locator("#d-last:not([hidden])").count():
            won = page.inner_text("#d-last-text")
            assert "gewinnt das Einzelspiel" in won or won.startswith(
                "Sie gewinnen das Einzelspiel"
            )
        else:
            won = page.inner_text("#d-value")
            assert "gewinnt das Spiel" in won or won.startswith(
                "Sie gewinnen das Spiel"
            )
        page.click(".d-history summary")
        page.screenshot(path=str(ARTIFACTS / "digital-table-after-hand.png"))
        audit.check(page, "table, after a hand")
        audit.assert_clean()


# What a player can tap, and the signs that the first hand is over.
TAPPABLE = (
    "#d-actions button[data-act='look']:enabled",
    "#d-actions button[data-act='hold']:enabled",
    "#d-hand button[data-card]:enabled",
)
OVER = ("#d-last:not([hidden])", "#d-value:has-text('gewinnt das Spiel')")


def _tap_until_the_hand_is_over(page):
    """Tap what a player would: answer the hammer, hold a knock, play the
    first playable card; until the first hand has a winner. Waits for the
    page, never for time: for something to tap (the bots' moves come over
    the socket), then for the page to draw the state after the tap (it
    draws the hand and the buttons anew for every state)."""
    played = 0
    shot = False
    while True:
        page.locator(", ".join(TAPPABLE + OVER)).first.wait_for(timeout=60_000)
        if page.locator(", ".join(OVER)).count():
            return played
        if played and not shot:
            # The first card on the table and the bots' answers to it.
            _phone_shot(page, "digital-table-phone")
            shot = True
        # A card that may not be played is shown, but not tappable.
        illegal = page.locator("#d-hand button[data-card].illegal")
        for i in range(illegal.count()):
            assert illegal.nth(i).is_disabled()
        button = page.locator(", ".join(TAPPABLE)).first.element_handle()
        if button is None:  # drawn anew meanwhile: look again
            continue
        card = button.get_attribute("data-card") is not None
        with contextlib.suppress(Exception):  # drawn anew before the tap
            button.click(timeout=2000)
            played += card
        button.wait_for_element_state("hidden", timeout=30_000)


def test_the_organizer_makes_a_demo_table_digital_and_the_bots_result_is_ranked(
    demo_server,
):
    in_own_thread(_bots_table, demo_server)


def _bots_table(port):
    base = f"http://127.0.0.1:{port}"
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        audit = Audit(base)
        audit.watch(page)
        sign_in(page, base, "organizer", "organizer-demo")
        # A table of series 2 (being played) that has no result yet.
        page.goto(f"{base}/t/rm-2026/eingabe/")
        chip = page.locator("a.chip-missing[href*='/serie/2/']").first
        href = chip.get_attribute("href")
        page.goto(base + href)
        follow(page, page.get_by_text("Diesen Tisch digital spielen"))
        audit.check(page, "make digital")
        for select in page.locator("select[name^='bot_']").all():
            select.select_option("greedy")
        page.click("main form button[type=submit]")
        page.wait_for_selector("img.qr")
        audit.check(page, "links and QR codes")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(
            path=str(ARTIFACTS / "digital-table-organizer.png"), full_page=True
        )
        # The bots play five games, watched live (the page hears every move
        # over its socket); the page of its links then shows the confirmed result
        # and its replays.
        links = page.url
        page.click("text=Zuschauen")
        expect(page.locator("#d-turn")).to_have_text(
            "Alle Spiele dieses Tisches sind gespielt.", timeout=120_000
        )
        page.goto(links)
        expect(page.locator("a:text('Wiederholung')")).to_have_count(5)
        page.click("a:text('Wiederholung') >> nth=0")
        page.wait_for_selector(".replay-steps li")
        _assert_cards_drawn(page)
        audit.check(page, "replay")
        page.screenshot(path=str(ARTIFACTS / "digital-replay.png"), full_page=True)
        page.goto(base + href)
        assert page.locator("text=Bestätigt").count()
        page.click("text=Zuschauen")
        page.wait_for_selector("#d-connection[data-state='online']")
        size = page.locator("#d-players .d-seat").count()
        assert size in (3, 4)
        _assert_table_around(page, seats=size, you=False)
        audit.check(page, "watching")
        audit.assert_clean()


def _assert_phone_sized(page):
    """Nothing wider than the phone, every card drawn, every button and
    card to tap at least 44 px high and wide."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    _assert_cards_drawn(page)
    for target in page.locator(
        "#d-hand button, #d-actions button, #d-games a, .d-history summary"
    ).all():
        box = target.bounding_box()
        if box:  # a closed <details> has its summary only
            assert box["height"] >= 44 and box["width"] >= 44, target.inner_html()


def _assert_cards_drawn(page):
    """Every card on the page is a drawing that loaded. (Playwright's
    expect, not wait_for_function: the page's CSP refuses its eval.)"""
    for card in page.locator("img.card").all():
        expect(card).to_have_js_property("complete", True, timeout=10_000)
    cards = "[...document.querySelectorAll('img.card')]"
    assert page.evaluate(f"{cards}.every((i) => i.naturalWidth)")


def _assert_table_around(page, seats, *, you=True):
    """The viewer's seat (a spectator's: seat 1) at the bottom of the table,
    the others left, across and right of it in the order of play."""
    places = page.eval_on_selector_all(
        "#d-players .d-seat",
        "(seats) => seats.map((s) => [s.value, s.className, "
        "s.getBoundingClientRect().toJSON()])",
    )
    assert len(places) == seats
    at = {c.split(" at-")[1].split()[0]: (value, box) for value, c, box in places}
    assert ("you" in at_bottom_class(places)) is you
    assert at["left"][1]["right"] <= at["bottom"][1]["left"] + 1
    assert at["right"][1]["left"] >= at["bottom"][1]["right"] - 1
    if seats == 4:
        assert at["top"][1]["bottom"] <= at["bottom"][1]["top"] + 1
        me = at["bottom"][0]
        assert [at[p][0] for p in ("left", "top", "right")] == [
            (me + k - 1) % 4 + 1 for k in (1, 2, 3)
        ]


def at_bottom_class(places):
    return next(c for _, c, _ in places if "at-bottom" in c).split()


def _phone_shot(page, name):
    """A test artifact; with UPDATE_DOC_IMAGES=1 also the handbook's picture
    (the top of the page: the table and the player's cards)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    if os.environ.get("UPDATE_DOC_IMAGES"):
        page.screenshot(path=str(DOCS_IMG / f"{name}.png"))
