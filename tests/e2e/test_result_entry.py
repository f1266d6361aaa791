"""Issue 5's acceptance in a real browser: the demo referee enters a table,
the organizer confirms it, and the standings change."""

from io import StringIO

import pytest
from django.core.management import call_command

from tests.support.browser import sign_in
from tests.support.threads import in_own_thread
from tournament.models import ResultVersion, Series, Table
from tournament.standings.selectors import standings_rows

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_referee_enters_organizer_confirms_standings_change(live_server, browser, shot):
    # Off the test's thread: Playwright's sync API runs an event loop here.
    in_own_thread(call_command, "demo", "--complete", "3", stdout=StringIO())
    series = Series.objects.get(tournament__slug="rm-2026", number=4)
    table = (
        Table.objects.filter(series=series, result_versions__isnull=True)
        .order_by("number")
        .first()
    )
    seats = list(table.seats.order_by("number").select_related("entry"))
    winner = seats[0].entry
    before = {r.start_number: r.points for r in standings_rows(series.tournament)}
    base = live_server.url

    referee = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(referee, base, "referee", "referee-demo")
    referee.goto(f"{base}/t/rm-2026/eingabe/")
    referee.click(f"a[href$='/eingabe/serie/4/tisch/{table.number}/']")
    for game in range(1, 6):
        referee.check(f"#spiel-{game} input[name=g{game}_winner][value='1']")
        referee.check(f"#spiel-{game} input[name=g{game}_marks][value='7']")
    shot(referee, "referee-entry")
    referee.click("#result-form button[type=submit]")
    referee.wait_for_selector("text=zweite Person")
    version = ResultVersion.objects.get(table=table)
    assert version.status == "pending"

    organizer = browser.new_page(viewport={"width": 1280, "height": 900})
    sign_in(organizer, base, "organizer", "organizer-demo")
    organizer.goto(f"{base}/t/rm-2026/eingabe/serie/4/tisch/{table.number}/")
    organizer.click("text=Stimmt mit der Spielliste überein – bestätigen")
    organizer.wait_for_selector(".message-success")
    version.refresh_from_db()
    assert version.status == "confirmed"

    organizer.goto(f"{base}/t/rm-2026/tabelle/?q={winner.start_number}")
    row = organizer.locator(f"tr#p{winner.start_number} td.points")
    assert int(row.inner_text()) == before[winner.start_number] + 5 * 14
    shot(organizer, "standings-after-confirmation")
