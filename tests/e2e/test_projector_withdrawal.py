"""The projector shows a withdrawn player's mark whole, on a line of its
own below his name: at 1366 and 1920 px the name cell cut it to
"abgemeldet (nach Serie 1, Spi…" while every other page showed it whole."""

import pytest

from tests.support.factories import make_series, make_user
from tests.support.results import confirm, enter, games
from tests.support.threads import in_own_thread
from tournament.models import Entry, Tournament
from tournament.registration.services import entry_withdraw

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MARK = "abgemeldet (nach Serie 1, Spiel 2)"
# Each mark on the standings' slide: its text, how far it reaches past its
# cell's content box, and what the cell hides of its content.
MARKS = """() => [...document.querySelectorAll(
    '.slide[data-slide="standings"] .withdrawn-mark')].map((mark) => {
  const cell = mark.closest("td");
  const room = cell.getBoundingClientRect().right
    - parseFloat(getComputedStyle(cell).paddingRight);
  return {
    text: mark.textContent,
    past: Math.round(mark.getBoundingClientRect().right - room),
    hidden: cell.scrollWidth - cell.clientWidth,
  };
})"""


def _withdrawn(tournament) -> None:
    organizer = make_user("orga", "organizer")
    referee = make_user("schiri", "referee")
    series = make_series(tournament, sizes=(4, 4))
    entry = Entry.objects.get(tournament=tournament, start_number=3)
    entry.player.first_name = "Christa"
    entry.player.last_name = "Bungert-Thelen"
    entry.player.save()
    entry_withdraw(
        actor=organizer, entry=entry, reason="krank", after_series=1, after_game=2
    )
    for table in series.tables.all():
        pairs = [(3, 5), (2, 3), (1, 7), (4, 1), (2, 2)]
        confirm(enter(table, referee, games(pairs)), organizer)


@pytest.mark.parametrize("width", [1366, 1920])
def test_the_projector_shows_the_withdrawal_mark_whole(
    live_server, browser, shot, tournament: Tournament, width
):
    in_own_thread(lambda: _withdrawn(tournament))
    page = browser.new_page(viewport={"width": width, "height": width * 9 // 16})
    page.goto(f"{live_server.url}/t/{tournament.slug}/projektor/")
    shot(page, f"projector-withdrawn-{width}")
    [mark] = page.evaluate(MARKS)
    assert mark["text"] == MARK and mark["past"] <= 0 and mark["hidden"] <= 0, mark
