"""Large print at 360 px on the Damen and Senioren rankings (a column more:
the overall place): every name wraps between its words, never inside one
("Hilde|gard Schäf|er"), and the table with its points fits the screen.
The overall standings keep the same."""

import datetime

import pytest

from tests.e2e.words import split_words
from tests.support.factories import EntryFactory, make_series, make_user
from tests.support.results import FIVE
from tests.support.threads import in_own_thread
from tournament.models import Table, Tournament
from tournament.results.services import result_enter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SLUG = "rm-namen"
NAMES = [
    ("Hildegard", "Schäfer", "ladies"),
    ("Anneliese", "Bungert-Thelen", "ladies"),
    ("Marlene", "Lüdenscheidt", "ladies"),
    ("Christa", "Hildebrandt", "ladies"),
    ("Wolfgang", "Kirchesch", "seniors"),
    ("Bernhard", "Kirchhoffer", "seniors"),
    ("Friedhelm", "Müller-Lüdenscheid", "seniors"),
    ("Hans-Dieter", "Steinbrecher", "seniors"),
]
# The table (and what it stands in): how far it reaches past its box.
TOO_WIDE = """() => {
  const table = document.querySelector("table.standings");
  return Math.round(table.getBoundingClientRect().right
    - table.parentElement.getBoundingClientRect().right);
}"""
# The cells whose content is wider than the cell (a name over the points).
OVERFLOWING = """() => [...document.querySelectorAll("table.standings td")]
  .filter((td) => td.scrollWidth > td.clientWidth + 0.5)
  .map((td) => td.textContent.trim() + " " + td.scrollWidth + "/" + td.clientWidth)"""


def _day() -> None:
    organizer = make_user("orga", "organizer")
    tournament = Tournament.objects.create(
        name="Rheinland-Meisterschaft",
        slug=SLUG,
        date=datetime.date(2026, 12, 5),
        series_count=1,
        status=Tournament.Status.RUNNING,
    )
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=first,
            player__last_name=last,
            player__category=category,
        )
        for n, (first, last, category) in enumerate(NAMES, 1)
    ]
    series = make_series(tournament, (4, 4), entries=entries)
    for table in Table.objects.filter(series=series):
        result_enter(
            actor=organizer,
            table=table,
            games=FIVE,
            mode="quick",
            revision=table.result_revision,
            auto_confirm=True,
        )


def test_no_name_is_split_in_large_print_on_a_phone(live_server, browser, shot):
    in_own_thread(_day)
    base = live_server.url
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "large_print", "value": "1", "url": base}])
    page = context.new_page()
    try:
        for word in ("damen", "senioren", ""):
            page.goto(f"{base}/t/{SLUG}/tabelle/{word}")
            shot(page, f"standings-names-large-{word or 'gesamt'}-360")
            assert page.locator("table.standings tbody tr").count() >= 4
            assert split_words(page, "table.standings") == [], word
            assert page.evaluate(TOO_WIDE) <= 0, word
            assert page.evaluate(OVERFLOWING) == [], word
            assert page.locator("table.standings td.points").first.is_visible()
    finally:
        context.close()
