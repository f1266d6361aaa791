"""A withdrawal in mid-series in Chromium, at 360 px (a phone) and 1366 px
(the desk's laptop): the organizer withdraws a player after game 2 of the
running series; the referee's form offers him for games 1–2 only; the
standings, his page and the series page mark him; nothing is too wide."""

import pytest

from tests.e2e.a11y import Audit
from tests.support.browser import sign_in
from tests.support.factories import TournamentFactory, make_series, make_user
from tournament.models import Entry
from tournament.registration.services import entry_withdraw

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 900}
MARK = "abgemeldet (nach Serie 1, Spiel 2)"


def too_wide(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )


def look(page, base, path, name, shot, audit):
    """Open `path` at both widths; nothing may scroll sideways, and axe
    finds nothing serious (the mark's colour included)."""
    for label, size in (("360", PHONE), ("1366", LAPTOP)):
        page.set_viewport_size(size)
        page.goto(f"{base}{path}")
        shot(page, f"withdraw-{name}-{label}")
        assert not too_wide(page), f"{path} scrolls sideways at {label} px"
    audit.check(page, name)


def test_withdrawal_after_game_two_in_the_browser(live_server, browser, shot):
    tournament = TournamentFactory(slug="rm-ab", name="RM Abmeldung", table_entry="one")
    make_series(tournament, sizes=(4, 4, 3))
    tournament.entries.update(checked_in=True)
    make_user("orga", "organizer", password="orga-pw")
    base = live_server.url
    audit = Audit(base)
    page = browser.new_page(viewport=PHONE)
    audit.watch(page)
    sign_in(page, base, "orga", "orga-pw")

    withdraw = "/t/rm-ab/verwaltung/spieler/3/abmelden/"
    look(page, base, withdraw, "page", shot, audit)
    assert page.get_by_text(
        "Er sitzt in Serie 1 an Tisch 1, und die Serie läuft"
    ).is_visible()
    page.set_viewport_size(PHONE)
    page.get_by_label("nach Spiel 2").check()
    page.get_by_role("button", name="Abmelden", exact=True).click()
    page.wait_for_selector(".message-success")
    assert f"ist {MARK}." in page.inner_text(".message-success")
    entry = Entry.objects.get(tournament=tournament, start_number=3)
    assert (entry.withdrawn_after_series, entry.withdrawn_after_game) == (1, 2)

    look(page, base, "/t/rm-ab/eingabe/serie/1/tisch/1/", "referee-form", shot, audit)
    assert page.locator("#spiel-2 input[name=g2_winner][value='3']").count() == 1
    assert page.locator("#spiel-3 input[name=g3_winner][value='3']").count() == 0
    assert page.locator("#spiel-3 .game-gone").is_visible()

    # Table 3 (of three) is left with two after game 2: games 3–5 are off.
    entry_withdraw(
        actor=None,
        entry=Entry.objects.get(tournament=tournament, start_number=10),
        reason="krank",
        after_series=1,
        after_game=2,
    )
    look(page, base, "/t/rm-ab/eingabe/serie/1/tisch/3/", "two-left", shot, audit)
    assert page.locator("fieldset.game").count() == 2
    assert page.get_by_text("Spiele 3–5 werden nicht gespielt").is_visible()
    look(page, base, "/t/rm-ab/verwaltung/serie/1/", "series", shot, audit)
    assert page.get_by_text(
        "sein Tisch spielt die übrigen Spiele ohne ihn"
    ).is_visible()

    mine = f"/t/rm-ab/mein/{entry.link_token}/"
    look(page, base, mine, "mine", shot, audit)
    assert MARK in page.inner_text("main")
    mate = Entry.objects.get(tournament=tournament, start_number=1)
    enter_page = f"/t/rm-ab/mein/{mate.link_token}/serie/1/tisch/1/eingeben/"
    look(page, base, enter_page, "players-form", shot, audit)
    assert page.locator("input[name=g3_winner][value='3']").count() == 0
    assert page.locator("input[name=g3_winner][value='4']").count() == 1
    look(page, base, "/t/rm-ab/spieler/3/", "player", shot, audit)
    assert MARK in page.inner_text("main")

    # His table's result counts: the standings and the projector mark him.
    from tests.support.results import confirm, enter, games

    table = tournament.series.get().tables.get(number=1)
    confirm(enter(table, None, games([(3, 5), (2, 3), (1, 7), (4, 1), (2, 2)])), None)
    look(page, base, "/t/rm-ab/tabelle/", "standings", shot, audit)
    assert MARK in page.inner_text("#p3")
    look(page, base, "/t/rm-ab/projektor/", "projector", shot, audit)
    look(page, base, "/t/rm-ab/serie/1/ergebnisse/", "results", shot, audit)
    assert MARK in page.inner_text("#tisch-1")
    audit.assert_clean()
