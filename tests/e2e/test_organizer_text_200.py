"""The organizer's pages with the text at 200 % (the root font size doubled,
as a reader's browser setting does) on a 1366 px laptop: the header wraps
("Ausloggen" and "English" stay on the screen), a wide table scrolls inside
its own box, and no page scrolls sideways (the player list made the page
1867 px wide)."""

import pytest

from tests.support.browser import sign_in
from tests.support.factories import TournamentFactory, make_series, make_user
from tests.support.threads import in_own_thread
from tournament.models import Entry
from tournament.registration.services import entry_withdraw

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 900}
SLUG = "rm-gross"
PAGES = ("spieler", "druck", "protokoll")
# The page's width, the header's controls that end past the screen, and
# every table that is wider than the screen without a box of its own that
# scrolls.
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const header = [...document.querySelectorAll(".site-header a, .site-header button")]
    .filter((el) => el.checkVisibility())
    .filter((el) => el.getBoundingClientRect().right > width + 0.5)
    .map((el) => el.innerText.trim());
  const tables = [...document.querySelectorAll("main table")].filter((table) => {
    let box = table.parentElement;
    for (; box && box !== document.body; box = box.parentElement) {
      if (["auto", "scroll"].includes(getComputedStyle(box).overflowX)) {
        return box.getBoundingClientRect().right > width + 0.5;
      }
    }
    return table.getBoundingClientRect().right > width + 0.5;
  }).map((table) => table.className);
  return {page: document.documentElement.scrollWidth, header, tables};
}"""


DOUBLED = "document.documentElement.style.setProperty('font-size', '200%', 'important')"


def _world() -> None:
    organizer = make_user("orga", "organizer", password="orga-pw")
    organizer.is_staff = True
    organizer.save()
    tournament = TournamentFactory(slug=SLUG, name="Rheinland-Meisterschaft 2026")
    make_series(tournament, sizes=(4, 4, 4))
    for entry in Entry.objects.filter(tournament=tournament):
        entry.player.club = "Schrämfreunde Müllenbach-Lüdenscheid 1987 e. V."
        entry.player.save()
    entry_withdraw(
        actor=organizer,
        entry=Entry.objects.get(tournament=tournament, start_number=3),
        reason="Unwohl, nach Hause gefahren",
        after_series=1,
        after_game=2,
    )


def test_the_organizers_pages_at_200_percent_text(live_server, browser, shot):
    in_own_thread(_world)
    base = live_server.url
    page = browser.new_page(viewport=LAPTOP)
    sign_in(page, base, "orga", "orga-pw")
    for name in PAGES:
        page.goto(f"{base}/t/{SLUG}/verwaltung/{name}/")
        page.evaluate(DOUBLED)
        assert page.evaluate("getComputedStyle(document.documentElement).fontSize") in (
            "32px",
            "34px",
        )
        shot(page, f"organizer-200-{name}")
        found = page.evaluate(MEASURE)
        assert found == {"page": LAPTOP["width"], "header": [], "tables": []}, name
        assert page.get_by_role("button", name="Ausloggen (orga)").is_visible()
