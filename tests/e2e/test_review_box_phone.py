"""A disputed table on the referee's phone: after a player's entry was
disputed and a referee entered the sheet's games in its place, the box
"Abweichung: Schiedsrichter und Tisch" compares both versions game by game.
At 360 px, in normal and in large print, it fits the screen: the column
to compare is never cut off, no word is split, and the page does not
scroll sideways."""

import pytest

from tests.e2e.words import split_words
from tests.support.browser import sign_in
from tests.support.factories import TournamentFactory, make_series, make_user
from tests.support.results import games
from tests.support.threads import in_own_thread
from tournament.models import Table
from tournament.results.services import result_enter
from tournament.tableentry.services import (
    result_enter_by_player,
    result_reject_by_player,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
PAST_THE_EDGE = """() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  if (document.documentElement.scrollWidth > width) found.push("page");
  for (const el of document.querySelectorAll(".review, .review *")) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 0.5) found.push(el.tagName + " " + box.right);
  }
  const table = document.querySelector(".review-games");
  if (table.getBoundingClientRect().right
      > table.parentElement.getBoundingClientRect().right + 0.5) found.push("table");
  return found;
}"""


def _disputed_and_replaced() -> None:
    """Table 1: a player's entry, disputed; the referee's in its place
    (made in a thread of its own: this one holds Playwright's event loop,
    where the results' pushes cannot run)."""
    tournament = TournamentFactory(slug="rm-klaeren", table_entry="one")
    series = make_series(tournament, sizes=(4, 4))
    table = Table.objects.get(series=series, number=1)
    seats = {s.number: s.entry for s in table.seats.select_related("entry__player")}
    for number, entry in seats.items():
        entry.player.first_name = "Hildegard"
        entry.player.last_name = f"Schäfer-Lüdenscheid {number}"
        entry.player.save()
    referee = make_user("schiri", "referee", password="schiri-pw")
    referee.first_name, referee.last_name = "Bernhard", "Klasen-Göbel"
    referee.save()
    version = result_enter_by_player(
        player=seats[1],
        table=table,
        games=games([(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)]),
        mode="quick",
        revision=table.result_revision,
    )
    result_reject_by_player(player=seats[2], version=version, reason="Spiel 1")
    table.refresh_from_db()
    result_enter(
        actor=referee,
        table=table,
        games=games([(2, 5), (2, 3), (1, 7), (4, 1), (3, 2)]),
        mode="quick",
        revision=table.result_revision,
        reason="Spielliste",
    )


def test_the_review_box_fits_the_referees_phone(live_server, browser, shot):
    in_own_thread(_disputed_and_replaced)
    base = live_server.url
    page = browser.new_page(viewport=PHONE)
    sign_in(page, base, "schiri", "schiri-pw")
    for large in (False, True):
        page.context.add_cookies(
            [{"name": "large_print", "value": "1" if large else "0", "url": base}]
        )
        page.goto(f"{base}/t/rm-klaeren/eingabe/serie/1/tisch/1/")
        assert page.get_by_text("Abweichung: Schiedsrichter und Tisch").is_visible()
        shot(page, f"review-box-360{'-large' if large else ''}")
        assert page.evaluate(PAST_THE_EDGE) == [], f"large print: {large}"
        assert split_words(page, ".review-games") == [], f"large print: {large}"
        # Both versions' words of game 1 are on the screen, whole.
        row = page.locator(".review-games tr.differs")
        assert "Sitz 2" in row.inner_text() and "Sitz 1" in row.inner_text()
