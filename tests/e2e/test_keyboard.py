"""The referee's path with the keyboard alone: sign in, open a table, enter
five games quickly, save. Tab moves between fields and radio groups, Space
picks a radio button and the arrow keys move within its group (the standard
radio group keys), Enter follows a link or submits."""

import pytest

from tests.e2e.a11y import tab_to
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
