"""The table's points on "Mein Turnier" at 360 px, in Chromium: a long
double-barrelled name breaks only between its words or after its hyphen
("Müller-" / "Lüdenscheid"), never inside a word ("Müller-Lüdenschei" /
"d"), and the game columns keep a visible gap ("· 12 ·" read as one)."""

import pytest

from tests.support.factories import TournamentFactory, make_series
from tests.support.results import games
from tournament.tableentry.services import result_enter_by_player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 780}, "locale": "de-DE"}

# Where each line of the name cell ends: the last character before the
# next line begins, per line break.
LINE_ENDS = """(cell) => {
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  const chars = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getBoundingClientRect();
      // A space at the end of a line has no width: it stays on that line.
      const top = rect.width > 0 || !chars.length ? rect.top : chars.at(-1)[1];
      chars.push([node.data[i], Math.round(top)]);
    }
  }
  const ends = [];
  for (let i = 1; i < chars.length; i++) {
    if (chars[i][1] > chars[i - 1][1] + 2) ends.push(chars[i - 1][0] + chars[i][0]);
  }
  return ends;
}"""

# The smallest horizontal gap between the texts of two neighbouring number
# cells in any row.
NUMBER_GAP = """(table) => {
  let gap = Infinity;
  for (const row of table.querySelectorAll("tbody tr")) {
    const boxes = [...row.querySelectorAll("td.num")].map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return range.getBoundingClientRect();
    });
    for (let i = 1; i < boxes.length; i++) {
      gap = Math.min(gap, boxes[i].left - boxes[i - 1].right);
    }
  }
  return gap;
}"""


def test_a_long_name_breaks_between_words_and_the_points_keep_apart(
    live_server, browser, shot
):
    tournament = TournamentFactory(slug="rm-namen", table_entry="one")
    series = make_series(tournament, sizes=(4,))
    table = series.tables.get()
    seats = {s.number: s.entry for s in table.seats.select_related("entry__player")}
    # The others with the longest names the factory's German names have: a
    # word of 13 letters in the names' column must leave the table inside
    # its card.
    for number in (1, 3, 4):
        other = seats[number].player
        other.first_name, other.last_name = "Friedrich-Wilhelm", "Ruppersberger"
        other.save()
    player = seats[2].player
    player.first_name, player.last_name = "Hans-Dieter", "Müller-Lüdenscheid"
    player.save()
    result_enter_by_player(
        player=seats[1],
        table=table,
        games=games([(2, 7), (1, 5), (2, 6), (3, 7), (4, 6)]),
        mode="quick",
        revision=table.result_revision,
    )

    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/rm-namen/mein/{seats[2].link_token}/")
    grid = page.locator(".mine-result table.table-points")
    name = grid.locator("tbody th", has_text="Müller-Lüdenscheid")
    name.wait_for()
    shot(page, "mine-score-table-360")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    ends = name.evaluate(LINE_ENDS)
    assert ends, "the name fits one line: nothing to check at this width"
    for end in ends:
        before = end[0]
        assert before in " -\u00a0", f"a line breaks inside a word: {ends}"
    assert grid.evaluate(NUMBER_GAP) >= 8
    # The whole table lies inside its card's padding.
    spill = grid.evaluate(
        """(table) => {
          const card = table.closest(".mine-result");
          const inner = card.getBoundingClientRect().right
            - parseFloat(getComputedStyle(card).paddingRight);
          return table.getBoundingClientRect().right - inner;
        }"""
    )
    assert spill <= 0.5, f"the table reaches {spill:.1f} px into the card's padding"
    context.close()
