"""A live page says what changed: Chromium against a real uvicorn process
with websockets. The standings are open; two players of a table enter and
confirm its result through their personal links; the page's one polite live
region then says, once and in a few words, which table counts now and
where its best-placed player stands. Nothing is said when the page opens."""

import urllib.parse

import pytest

from tests.support import servers as support
from tests.support.browser import chromium, skip_without_chromium
from tests.support.threads import in_own_thread

pytestmark = pytest.mark.e2e

LAPTOP = {"viewport": {"width": 1366, "height": 800}, "locale": "de-DE"}

# Entry at the table by one player, confirmed by another; a table of series
# 4 still without a result (the demo plays half of it), its players' links.
SETUP = """
import json
from tournament.models import Series, Table, Tournament
Tournament.objects.filter(slug="rm-2026").update(table_entry="one")
series = Series.objects.get(tournament__slug="rm-2026", number=4)
table = (
    Table.objects.filter(series=series, result_versions__isnull=True, size=4)
    .order_by("number").first()
)
print(json.dumps({
    "series": series.number,
    "table": table.number,
    "revision": table.result_revision,
    "links": {s.number: s.entry.link_token for s in table.seats.all()},
}))
"""

# Every text the live region is given, in order, once each time it is given
# (an init script: no inline script on the page itself).
RECORD = """
window.__said = [];
let last = "";
new MutationObserver(() => {
  const region = document.querySelector("[data-live-announce]");
  const text = region ? region.textContent.trim() : "";
  if (text && text !== last) window.__said.push(text);
  last = text;
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture
def hall(tmp_path):
    skip_without_chromium()
    with support.demo_hall(tmp_path, SETUP) as hall:
        yield hall


def test_a_confirmation_is_said_once_in_a_few_words(hall):
    in_own_thread(_confirmed, *hall)


def _post(base: str, path: str, fields: dict) -> int:
    port = urllib.parse.urlsplit(base).port
    body = urllib.parse.urlencode(fields, doseq=True)
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    return support.request(port, "POST", path, body, headers)[0]


def _confirmed(base, world):
    series, table = world["series"], world["table"]

    def at_table(seat: int, what: str) -> str:
        link = world["links"][str(seat)]
        return f"/t/rm-2026/mein/{link}/serie/{series}/tisch/{table}/{what}/"

    with chromium() as browser:
        context = browser.new_context(**LAPTOP)
        context.add_init_script(RECORD)
        page = context.new_page()
        page.goto(f"{base}/t/rm-2026/tabelle/")
        page.wait_for_selector(".live-status[data-live-state='live']")
        # The page's live regions beside the hidden ones of the phone's
        # offline banner and outbox: one.
        regions = page.locator(
            ":is([aria-live], [role='status'], [role='alert']):not([hidden])"
        )
        assert regions.count() == 1, "one live region on the page"
        announcer = page.locator("[data-live-announce]")
        assert announcer.get_attribute("role") == "status"
        page.wait_for_timeout(1000)
        assert page.evaluate("window.__said") == [], "nothing said on opening"

        games = {"mode": "quick", "revision": world["revision"]}
        for game, (winner, marks) in enumerate(
            [(1, 5), (2, 3), (1, 7), (4, 1), (1, 2)], 1
        ):
            games[f"g{game}_winner"] = winner
            games[f"g{game}_marks"] = marks
        assert _post(base, at_table(1, "eingeben"), games) == 302
        # An entry waiting for its confirmation does not change the standings;
        # whatever it did is not what this test listens for.
        page.wait_for_timeout(1500)
        page.evaluate("window.__said = []")
        assert _post(base, at_table(2, "stimmt"), {"version": 1}) == 302

        # Pushed over the socket at once (the page's CSP allows no
        # wait_for_function: it evaluates a string).
        for _ in range(300):
            if page.evaluate("window.__said.length"):
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(1500)  # anything more of the same update
        said = page.evaluate("window.__said")
        assert len(said) == 1, said
        text = said[0]
        assert text.startswith(f"Serie {series}, Tisch {table} bestätigt: "), text
        assert "jetzt Platz" in text, text
        assert len(text) < 120, text
        # The table itself is never in the region.
        assert announcer.locator("table, tr, li").count() == 0
        assert announcer.is_hidden() or announcer.bounding_box()["width"] <= 1
        context.close()
