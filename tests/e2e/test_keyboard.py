"""The referee's path with the keyboard alone: sign in, open a table, enter
five games quickly, save. Tab moves between fields and radio groups, Space
picks a radio button and the arrow keys move within its group (the standard
radio group keys), Enter follows a link or submits."""

from pathlib import Path

import pytest

from tests.e2e.a11y import tab_to
from tests.support.browser import sign_in
from tests.support.factories import TournamentFactory, make_series, make_user
from tournament.models import ResultVersion

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Per game: the winner's seat and the marks they kept.
GAMES = [(1, 7), (2, 5), (4, 1), (3, 6), (1, 2)]


def focused(page, selector: str) -> bool:
    return page.evaluate("(s) => document.activeElement.matches(s)", selector)


def test_login_and_quick_entry_with_the_keyboard_alone(live_server, browser, shot):
    tournament = TournamentFactory(slug="tastatur")
    series = make_series(tournament, sizes=(4, 4))
    referee = make_user("schiri", "referee", password="nur-tastatur")
    base = live_server.url
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{base}/konto/anmelden/?next=/t/tastatur/eingabe/")
        tab_to(page, "#id_username")
        page.keyboard.type("schiri")
        page.keyboard.press("Tab")
        assert focused(page, "#id_password")
        page.keyboard.type("nur-tastatur")
        page.keyboard.press("Enter")
        page.wait_for_url(f"{base}/t/tastatur/eingabe/")

        tab_to(page, "a.table-chip[href$='/tisch/1/']")
        page.keyboard.press("Enter")
        page.wait_for_url(f"{base}/t/tastatur/eingabe/serie/1/tisch/1/")

        for game, (seat, marks) in enumerate(GAMES, 1):
            tab_to(page, f"input[name=g{game}_winner]")
            page.keyboard.press("Space")
            for _ in range(seat - 1):
                page.keyboard.press("ArrowDown")
            assert focused(page, f"input[name=g{game}_winner][value='{seat}']:checked")
            page.keyboard.press("Tab")
            assert focused(page, f"input[name=g{game}_marks]")
            page.keyboard.press("Space")
            for _ in range(marks - 1):
                page.keyboard.press("ArrowRight")
            assert focused(page, f"input[name=g{game}_marks][value='{marks}']:checked")
            # The radio itself is invisible; its tile must show the focus.
            outline = page.evaluate(
                "() => getComputedStyle(document.activeElement.nextElementSibling)"
                ".outlineStyle"
            )
            assert outline not in ("", "none"), "the focused marks tile shows no focus"
        shot(page, "keyboard-entry")
        tab_to(page, "#result-form button[type=submit]")
        page.keyboard.press("Enter")
        page.get_by_text("zweite Person").first.wait_for()
    finally:
        context.close()

    version = ResultVersion.objects.get(table__series=series, table__number=1)
    assert version.status == ResultVersion.Status.PENDING
    assert version.entered_by == referee
    assert [(g["winner"], g["marks"]) for g in version.data["games"]] == GAMES


# Each input marked invalid, its own error (the error list whose id is its
# field's id + "_error") among what describes it, with that error's text; a
# radio group and its radios alike.
DESCRIBED = """() => Array.from(
    document.querySelectorAll('#result-form [aria-invalid="true"]')
  ).map((el) => {
    const ids = (el.getAttribute("aria-describedby") || "")
      .split(/\\s+/).filter(Boolean);
    const errors = ids.map((id) => document.getElementById(id))
      .filter((e) => e && e.classList.contains("errorlist"));
    return {
      what: el.id || el.className,
      resolved: ids.every((id) => document.getElementById(id)),
      errors: errors.map((e) => e.textContent.trim()),
    };
  })"""


def test_a_failed_save_by_keyboard_leads_to_its_mistakes(live_server, browser):
    tournament = TournamentFactory(slug="tastatur-fehler")
    make_series(tournament, sizes=(4, 4))
    make_user("schiri", "referee", password="nur-tastatur")
    base = live_server.url
    out = Path("/tmp/focus29")
    out.mkdir(exist_ok=True)
    for width, height in ((360, 740), (1366, 800)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            table = "/t/tastatur-fehler/eingabe/serie/1/tisch/1/"
            sign_in(page, base, "schiri", "nur-tastatur", table)
            # Game 1 complete, game 2 without its marks, the rest untouched.
            for game, (seat, marks) in enumerate([(1, 7), (2, None)], 1):
                tab_to(page, f"input[name=g{game}_winner]")
                page.keyboard.press("Space")
                for _ in range(seat - 1):
                    page.keyboard.press("ArrowDown")
                if marks:
                    page.keyboard.press("Tab")
                    page.keyboard.press("Space")
                    for _ in range(marks - 1):
                        page.keyboard.press("ArrowRight")
            tab_to(page, "#result-form button[type=submit]")
            page.keyboard.press("Enter")
            page.wait_for_selector("[data-error-summary]")
            page.wait_for_load_state()

            # The focus is on the summary, not on the page's body.
            assert focused(page, "[data-error-summary]"), page.evaluate(
                "() => document.activeElement.outerHTML.slice(0, 100)"
            )
            assert (
                page.locator("[data-error-summary]").get_attribute("tabindex") == "-1"
            )
            page.screenshot(
                path=str(out / f"entry-errors-{width}.png"), full_page=False
            )

            # Every invalid input is described by its own error.
            described = page.evaluate(DESCRIBED)
            radios = [d for d in described if d["what"].startswith("id_g")]
            groups = [d for d in described if "choice" in d["what"]]
            assert radios and groups, described
            for d in described:
                assert d["resolved"], d
                assert len(d["errors"]) == 1 and d["errors"][0], d
            marks2 = next(d for d in described if d["what"] == "id_g2_marks_0")
            assert marks2["errors"] == [
                "Bitte wählen, wie viele Schräm der Gewinner übrig hat."
            ]

            # Tab from the summary reaches its first link; Enter leads to the
            # first input of game 2 (its marks), with the game in view.
            tab_to(page, "[data-error-summary] a", limit=3)
            page.keyboard.press("Enter")
            assert focused(page, "#id_g2_marks_0"), page.evaluate(
                "() => document.activeElement.outerHTML.slice(0, 100)"
            )
            box = page.evaluate(
                "() => { const r = document.getElementById('spiel-2')"
                ".getBoundingClientRect(); return [r.top, r.bottom]; }"
            )
            assert 0 <= box[0] < height, box
            page.screenshot(path=str(out / f"entry-errors-link-{width}.png"))
        finally:
            context.close()
