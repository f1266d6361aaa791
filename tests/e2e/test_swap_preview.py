"""A swap's preview in a real browser on a phone and a laptop, in normal
and large print: the report after the swap beside the one now, before
anything is committed, without sideways scrolling; the series page then
warns before "Veröffentlichen"."""

import pytest

from tests.support import worlds
from tests.support.browser import ARTIFACTS, sign_in
from tests.support.factories import make_user
from tournament.models import Series, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "tauschvorschau"
SIZES = {
    "phone": {"width": 360, "height": 740},
    "laptop": {"width": 1366, "height": 900},
}
WIDE = (
    "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
)


def second_series(tournament):
    return worlds.swap_second_series(
        tournament,
        first_name="Hildegard",
        last_name="Schäfer-Bungert",
        club="Schrämclub",
    )


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_swap_preview_shows_its_cost_and_fits(live_server, browser, size, large):
    make_user("orga", "organizer", password=PASSWORD)
    tournament = Tournament.objects.create(
        name="RM Tausch", slug="rm-tausch", date="2026-12-05"
    )
    second_series(tournament)
    base = live_server.url
    context = browser.new_context(viewport=SIZES[size])
    if large:
        context.add_cookies([{"name": "large_print", "value": "1", "url": base}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    name = f"swap-preview-{size}{'-large' if large else ''}"
    try:
        sign_in(page, base, "orga", PASSWORD, "/t/rm-tausch/verwaltung/serie/2/")
        page.goto(f"{base}/t/rm-tausch/verwaltung/serie/2/?a=3&b=5#tauschen")
        page.get_by_text("So sähe die Setzung nach dem Tausch aus:").wait_for()
        assert page.evaluate(WIDE) <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(".swap-preview").screenshot(path=str(ARTIFACTS / f"{name}.png"))
        page.get_by_role("button", name="tauschen").click()
        page.get_by_text("Beim Veröffentlichen wird einmal nachgefragt").wait_for()
        assert page.evaluate(WIDE) <= 0
        page.screenshot(path=str(ARTIFACTS / f"{name}-after.png"), full_page=True)
        asked = []
        page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.get_by_role("button", name="Veröffentlichen", exact=True).click()
        page.wait_for_timeout(300)
        assert len(asked) == 1 and "verschlechtert" in asked[0]
        assert Series.objects.get(tournament=tournament, number=2).status == "seated"
    finally:
        context.close()
