"""The final series seated by the standings, and series 1 with its other
draws, in a real browser on a phone and a laptop, in normal and large
print: the page says which rule decided where each sits, and nothing
scrolls sideways."""

import pytest

from tests.support.browser import ARTIFACTS, sign_in
from tests.support.factories import EntryFactory, make_series, make_user
from tests.support.results import confirm, enter, games
from tournament.models import Entry, Series, Tournament
from tournament.seating import services as seating_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "finalserie"
SIZES = {
    "phone": {"width": 360, "height": 740},
    "laptop": {"width": 1366, "height": 900},
}
WIDE = (
    "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
)


def open_page(browser, base, path, size, large):
    context = browser.new_context(viewport=SIZES[size])
    if large:
        context.add_cookies([{"name": "large_print", "value": "1", "url": base}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in(page, base, "orga", PASSWORD, path)
    return context, page


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_final_series_says_it_follows_the_standings(
    live_server, browser, size, large
):
    organizer = make_user("orga", "organizer", password=PASSWORD)
    referee, referee2 = make_user("s1", "referee"), make_user("s2", "referee")
    tournament = Tournament.objects.create(
        name="RM Finale", slug="rm-finale", date="2026-12-05", series_count=2
    )
    for n in range(1, 17):
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=f"Hildegard{n}",
            player__last_name="Schäfer-Bungert",
        )
    first = make_series(
        tournament,
        sizes=(4, 4, 4, 4),
        entries=list(Entry.objects.filter(tournament=tournament).order_by("pk")),
    )
    for table in first.tables.order_by("number"):
        pairs = [(1, 7), (2, 7), (1, 7), (2, 7), (1, 7)]
        confirm(enter(table, referee, games(pairs)), referee2)
    second = Series.objects.create(tournament=tournament, number=2)
    seating_services.series_seat_by_standings(actor=organizer, series=second)
    context, page = open_page(
        browser, live_server.url, "/t/rm-finale/verwaltung/serie/2/", size, large
    )
    try:
        page.get_by_text("Letzte Serie, streng nach Tabelle gesetzt").wait_for()
        # The report says the rule; no box about a draw's trade-offs.
        assert page.get_by_text("Warum diese Auslosung abwägen musste").count() == 0
        assert page.evaluate(WIDE) <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        name = f"final-series-{size}{'-large' if large else ''}"
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_series_one_compares_its_draws(live_server, browser, size):
    organizer = make_user("orga", "organizer", password=PASSWORD)
    tournament = Tournament.objects.create(
        name="RM Eins", slug="rm-eins", date="2026-12-05"
    )
    for n in range(1, 17):
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=f"Hildegard{n}",
            player__last_name="Schäfer-Bungert",
            player__club="Schrämclub Daun" if n <= 6 else f"Club {n}",
        )
    seating_services.series_ensure(tournament=tournament)
    seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=1)
    )
    context, page = open_page(
        browser, live_server.url, "/t/rm-eins/verwaltung/serie/1/", size, False
    )
    try:
        page.get_by_role("button", name="Andere Auslosungen vergleichen").click()
        page.get_by_role("heading", name="Andere Auslosung 1").wait_for()
        page.locator(".redraw-option .draw-tables summary").first.click()
        assert page.evaluate(WIDE) <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#auslosungen").screenshot(
            path=str(ARTIFACTS / f"series-one-draws-{size}.png")
        )
    finally:
        context.close()
