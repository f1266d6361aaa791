"""The desk in a real browser, on a phone and a laptop: a player checked in
after series 1 was released is told at once what follows and takes the free
seat of a table of three; a previewed swap holds back "Veröffentlichen"
until it is confirmed or cancelled. Nothing scrolls sideways, and axe finds
nothing serious."""

import pytest

from tests.e2e.a11y import Audit
from tests.support import worlds
from tests.support.browser import ARTIFACTS, sign_in
from tests.support.factories import make_user
from tournament.models import Seat, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "nachzuegler"
SIZES = {
    "phone": {"width": 360, "height": 740},
    "laptop": {"width": 1366, "height": 900},
}
# How far the page scrolls sideways (0: not at all).
WIDE = (
    "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
)


def _field(*, release: bool):
    """14 present players drawn into series 1 (tables 3 and 4 of three),
    released or not; Karl Klein (Nr. 15) registered, not here yet."""
    organizer = make_user("orga", "organizer", password=PASSWORD)
    tournament = Tournament.objects.create(
        name="RM Spät", slug="rm-spaet", date="2026-12-05"
    )
    worlds.late_arrival(tournament, organizer, release=release)
    return tournament


def _shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_late_check_in_leads_to_the_free_seat(live_server, browser, size):
    _field(release=True)
    base = live_server.url
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page, base, "orga", PASSWORD, "/t/rm-spaet/verwaltung/spieler/")
        page.get_by_role("button", name="Nr. 15 einchecken").click()
        page.wait_for_url("**/verwaltung/serie/1/nachzuegler/15/**")
        page.get_by_text(
            "Karl Klein ist jetzt anwesend, aber Serie 1 ist schon ausgelost"
        ).wait_for()
        assert page.get_by_role("button", name="Setzt Serie 1 aus").is_visible()
        assert page.evaluate(WIDE) <= 0
        audit = Audit(base)
        audit.check(page, f"late arrival at {size}")
        _shot(page, f"late-arrival-{size}")
        # A swap is no way in: the series page says where his way is.
        page.goto(f"{base}/t/rm-spaet/verwaltung/serie/1/?a=15&b=5#tauschen")
        page.get_by_text("Startnummer 15 sitzt nicht in Serie 1.").wait_for()
        assert page.evaluate(WIDE) <= 0
        audit.check(page, f"refused swap at {size}")
        audit.assert_clean()
        _shot(page, f"late-arrival-swap-{size}")
        page.get_by_role(
            "link", name="Nr. 15 an einem Dreiertisch mitspielen lassen"
        ).click()
        page.wait_for_url("**/verwaltung/serie/1/nachzuegler/15/**")
        page.get_by_role("button", name="An Tisch 3 setzen").click()
        page.wait_for_url("**/verwaltung/serie/1/")
        page.get_by_text("Karl Klein spielt in Serie 1 an Tisch 3 mit").wait_for()
        assert page.evaluate(WIDE) <= 0
        _shot(page, f"late-arrival-done-{size}")
        seat = Seat.objects.get(entry__start_number=15)
        assert (seat.table.number, seat.number, seat.table.size) == (3, 4, 4)
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_previewed_swap_is_decided_before_the_release(live_server, browser, size):
    tournament = _field(release=False)
    series = tournament.series.get(number=1)
    a = Seat.objects.get(series=series, table__number=1, number=1).entry.start_number
    b = Seat.objects.get(series=series, table__number=2, number=1).entry.start_number
    base = live_server.url
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page, base, "orga", PASSWORD, "/t/rm-spaet/verwaltung/serie/1/")
        release = page.get_by_role("button", name="Veröffentlichen")
        assert release.is_visible()
        page.get_by_text("Zwei Spieler tauschen").click()
        page.locator("#id_a").fill(str(a))
        page.locator("#id_b").fill(str(b))
        page.get_by_role("button", name="Weiter").click()
        page.get_by_text("Diese beiden tauschen die Sitze:").wait_for()
        assert release.count() == 0
        assert page.get_by_role("button", name="Neu auslosen").count() == 0
        page.get_by_text("Erst den Tausch von").wait_for()
        assert page.evaluate(WIDE) <= 0
        audit = Audit(base)
        audit.check(page, f"swap waiting at {size}")
        audit.assert_clean()
        _shot(page, f"swap-pending-{size}")
        page.get_by_role("button", name="Abbrechen").click()
        release.wait_for()
        assert Seat.objects.get(series=series, entry__start_number=a).table.number == 1
    finally:
        context.close()
