"""The standings' pages in Chromium at 360 and 1366 px: every category's
ranking (nothing scrolls sideways), the standings in large print beginning
on a phone's first screen, a season ranking's phone line naming each
tournament, and the organizer's question at the end of a tournament."""

import datetime

import pytest

from tests.history.helpers import person, played
from tests.support.browser import sign_in
from tests.support.factories import EntryFactory, make_series, make_user
from tests.support.results import FIVE
from tests.support.threads import in_own_thread
from tournament.history.services import ranking_save
from tournament.models import Ranking, Table, Tournament
from tournament.results.services import result_enter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 900}
SLUG = "rm-2026"
PASSWORD = "tabelle-e2e"
CATEGORIES = ("open", "seniors", "youth", "ladies")
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def day():
    """A championship of one series, 16 players of every category, every
    table confirmed (running: not closed); a season ranking over it and
    last year's closed one. Made in a thread of its own: this one holds
    Playwright's event loop, where the results' pushes cannot run."""
    return in_own_thread(_day)


def _day():
    organizer = make_user("orga", "organizer", password=PASSWORD)
    last_year = played([(person("Anna Jöbges"), 120)], year=2025)
    tournament = Tournament.objects.create(
        name="Rheinland-Meisterschaft im 7-Schräm 2026",
        slug=SLUG,
        date=datetime.date(2026, 12, 5),
        venue="Bürgerhaus Ulmen",
        series_count=1,
        is_championship=True,
        status=Tournament.Status.RUNNING,
    )
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name="Bernhard",
            player__last_name=f"Müller-Lüdenscheid {n}",
            player__category=CATEGORIES[n % 4],
        )
        for n in range(1, 17)
    ]
    series = make_series(tournament, (4, 4, 4, 4), entries=entries)
    for table in Table.objects.filter(series=series):
        result_enter(
            actor=organizer,
            table=table,
            games=FIVE,
            mode="quick",
            revision=table.result_revision,
            auto_confirm=True,
        )
    ranking_save(
        actor=None,
        ranking=Ranking(name="Rheinland-Wertung", slug="wertung"),
        tournaments=[last_year, tournament],
    )
    return tournament


def open_page(browser, base, path, viewport, *, large=False):
    context = browser.new_context(viewport=viewport)
    if large:
        context.add_cookies([{"name": "large_print", "value": "1", "url": base}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}{path}")
    return context, page


def test_every_categorys_ranking_at_360_and_1366(live_server, browser, day, shot):
    base = live_server.url
    pages = (
        ("senioren", "Seniorenwertung", "Senioren"),
        ("jugend", "Jugendwertung", "Jugend"),
    )
    for word, title, tab in pages:
        for viewport in (PHONE, LAPTOP):
            context, page = open_page(
                browser, base, f"/t/{SLUG}/tabelle/{word}/", viewport
            )
            try:
                shot(page, f"standings-{word}-{viewport['width']}")
                assert page.locator("h1").inner_text() == title
                assert page.evaluate(SIDEWAYS) <= 0
                rows = page.locator("table.standings tbody tr")
                assert rows.count() == 4  # four of the sixteen in each
                tabs = page.get_by_role("navigation", name="Wertungen")
                for label in ("Gesamt", "Damen", "Senioren", "Jugend", "Mannschaften"):
                    assert tabs.get_by_role("link", name=label).is_visible()
                assert tabs.locator("[aria-current=page]").inner_text() == tab
            finally:
                context.close()


def test_in_large_print_the_standings_begin_on_a_phones_first_screen(
    live_server, browser, day, shot
):
    context, page = open_page(
        browser, live_server.url, f"/t/{SLUG}/tabelle/", PHONE, large=True
    )
    try:
        assert page.evaluate(
            "document.documentElement.classList.contains('large-print')"
        )
        shot(page, "standings-large-print-360")
        first = page.locator("table.standings tbody tr").first.bounding_box()
        assert first["y"] + first["height"] <= PHONE["height"], first
        assert page.evaluate(SIDEWAYS) <= 0
        # The search is one row: field and button side by side.
        # Both measured at once: the live status line, arriving when the
        # page's socket connects, may move the form down between two reads.
        field_y, button_y = page.locator("form.search").evaluate(
            """(form) => [form.querySelector("input"), form.querySelector("button")]
                 .map((el) => el.getBoundingClientRect().y)"""
        )
        assert abs(field_y - button_y) < 10
    finally:
        context.close()


def test_a_season_rankings_phone_line_names_its_tournaments(live_server, browser, day):
    context, page = open_page(browser, live_server.url, "/wertung/wertung/", PHONE)
    try:
        line = page.locator(".ranking-inline").first
        assert line.is_visible()
        # Last year's place counts; this year's is running, counted later.
        assert line.inner_text() == "05.12.25: 25 · 05.12.26: läuft"
        state = page.locator(".ranking-state").inner_text()
        assert state.startswith("Stand: 1 von 2 Turnieren beendet.")
        assert page.evaluate(SIDEWAYS) <= 0
    finally:
        context.close()


def test_the_organizer_is_asked_to_close_it(live_server, browser, day, shot):
    base = live_server.url
    for viewport in (PHONE, LAPTOP):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            sign_in(page, base, "orga", PASSWORD, f"/t/{SLUG}/verwaltung/")
            box = page.locator(".close-box")
            assert "Alle Tische sind bestätigt" in box.inner_text()
            assert page.evaluate(SIDEWAYS) <= 0
            shot(page, f"close-box-{viewport['width']}")
            if viewport is LAPTOP:
                box.get_by_role("button", name="Turnier beenden").click()
                page.wait_for_selector("text=Das Turnier ist beendet")
                assert Tournament.objects.get(slug=SLUG).status == "finished"
        finally:
            context.close()
