"""The series page after a change, in a real browser on a phone and a
laptop: it says why series 2's draw had to trade (the late arrival, the
swap, who left), shows other draws beside the one drawn, and the organizer
takes one with a button. Nothing scrolls sideways, and axe finds nothing
serious."""

import pytest

from tests.e2e.a11y import Audit
from tests.support.browser import ARTIFACTS, sign_in
from tests.support.factories import make_user
from tests.support.worlds import redraw_day
from tournament.models import AuditEvent, Series, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "neuauslosung"
SIZES = {
    "phone": {"width": 360, "height": 740},
    "laptop": {"width": 1366, "height": 900},
}
# How far the page scrolls sideways (0: not at all).
WIDE = (
    "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
)


def _shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_organizer_compares_the_draws_and_takes_one(live_server, browser, size):
    organizer = make_user("orga", "organizer", password=PASSWORD)
    tournament = Tournament.objects.create(
        name="RM Neu", slug="rm-neu", date="2026-12-05"
    )
    series, _ = redraw_day(tournament, organizer)
    base = live_server.url
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        sign_in(page, base, "orga", PASSWORD, "/t/rm-neu/verwaltung/serie/2/")
        page.get_by_role(
            "heading", name="Warum diese Auslosung abwägen musste"
        ).wait_for()
        page.get_by_text(
            "Karl Klein (Nr. 16) kam nach der Auslosung von Serie 1"
        ).wait_for()
        assert page.get_by_text("In Serie 1 getauscht:").is_visible()
        assert page.evaluate(WIDE) <= 0
        audit = Audit(base)
        audit.check(page, f"redraw reasons at {size}")
        _shot(page, f"redraw-why-{size}")
        page.get_by_role("button", name="Andere Auslosungen vergleichen").click()
        page.get_by_role("heading", name="Jetzige Setzung").wait_for()
        take = page.get_by_role("button", name="Auslosung 1 nehmen")
        take.wait_for()
        # Each card shows its tables before it is taken.
        page.locator(".redraw-option .draw-tables summary").first.click()
        page.locator(".draw-tables-list").first.wait_for()
        assert (
            page.locator(".draw-tables-list").first.inner_text().startswith("Tisch 1:")
        )
        assert page.evaluate(WIDE) <= 0
        audit.check(page, f"draws offered at {size}")
        audit.assert_clean()
        _shot(page, f"redraw-options-{size}")
        # Nothing has changed yet.
        assert Series.objects.get(pk=series.pk).version == series.version
        take.click()
        page.get_by_text(
            "Serie 2 ist neu gesetzt: die gewählte Auslosung gilt."
        ).wait_for()
        assert page.evaluate(WIDE) <= 0
        _shot(page, f"redraw-taken-{size}")
        assert Series.objects.get(pk=series.pk).version == series.version + 1
        assert AuditEvent.objects.filter(
            action="series.seat", note="Unter den angebotenen Auslosungen gewählt."
        ).exists()
    finally:
        context.close()
