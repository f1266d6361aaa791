"""Issue 16's acceptance in a real browser (Playwright driving Debian's
Chromium): the table enters its own result on the players' phones, and the
hall's Wi-Fi loses nothing.

Two players of one table, each on a phone of his own (a browser context):
the first opens his personal link and the entry form, loses the network,
types the five games and saves: the phone keeps the entry (IndexedDB) and
says "Wartet auf Netz", also after a reload without network (the service
worker's copy of the page, "Stand von …"). The network returns: the entry
arrives, once. The second player says "Stimmt" on his phone, whose first
answer is lost on the way back (the server saved it): the phone sends it
again with the same key and gets the first answer, not "already answered".
A third, public phone follows the standings: the points appear, and without
network it still shows its last copy with "Stand von …".

pytest-django's live_server speaks plain HTTP on localhost, which browsers
treat as secure: the service worker runs there (in the hall it needs HTTPS
with a certificate the phone trusts, or localhost; the outbox does not).
The public phone's poll timer is run forward, as in test_championship_day.
"""

import re

import pytest

from tests.support.factories import TournamentFactory, make_series
from tournament.models import AuditEvent, ResultAnswer, ResultVersion, SubmissionKey

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 780}, "locale": "de-DE"}
SLUG = "rm-wlan"


def controlled(page) -> None:
    """Wait for the service worker, then load the page again through it, so
    that this page is kept."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")


def test_an_entry_made_offline_arrives_once_is_confirmed_and_counts(
    live_server, browser, shot
):
    tournament = TournamentFactory(slug=SLUG, table_entry="one")
    series = make_series(tournament, sizes=(4, 4))
    table = series.tables.get(number=1)
    seats = {s.number: s.entry for s in table.seats.select_related("entry__player")}
    enterer, confirmer = seats[1], seats[2]
    base = live_server.url

    def mine(entry) -> str:
        return f"{base}/t/{SLUG}/mein/{entry.link_token}/"

    # --- The public phone opens the standings: nobody has points yet. ------
    public_context = browser.new_context(**PHONE)
    public = public_context.new_page()
    public.clock.install()
    public.goto(f"{base}/t/{SLUG}/tabelle/")
    controlled(public)
    assert public.locator("td.points").count() == 0

    # --- Player 1 opens his link and the entry form. -------------------------
    first_context = browser.new_context(**PHONE)
    first = first_context.new_page()
    first.goto(mine(enterer))
    first.get_by_text("Tisch 1").first.wait_for()
    first.get_by_role("button", name="Ergebnis eingeben").click()
    first.wait_for_url(re.compile(r"/eingeben/$"))
    controlled(first)

    # ... the hall's Wi-Fi goes; he types the five games and saves.
    first_context.set_offline(True)
    for game in range(1, 6):
        fieldset = first.locator(f"#spiel-{game}")
        fieldset.locator(f"input[name=g{game}_winner][value='1']").check()
        fieldset.locator(f"input[name=g{game}_marks][value='7']").check()
    first.get_by_role("button", name="Speichern").click()
    status = first.locator(".outbox-status")
    status.filter(has_text="Wartet auf Netz").wait_for()
    # Nothing seems to happen, so he taps again: still one entry waiting.
    first.get_by_role("button", name="Speichern").click()
    status.filter(has_text="Wartet auf Netz").wait_for()
    assert not ResultVersion.objects.exists()
    shot(first, "selfentry-1-waiting-for-network")

    # ... reloads without network: the page is the phone's copy, the entry
    # is still on the phone and still waiting.
    first.reload()
    first.locator("[data-offline-banner]").filter(
        has_text=re.compile(r"Kein Netz\. Stand von \d\d:\d\d")
    ).wait_for()
    status.filter(has_text="Wartet auf Netz").wait_for()
    assert not ResultVersion.objects.exists()

    # ... the network returns: sent, once.
    first_context.set_offline(False)
    status.filter(has_text="Gesendet ✓").wait_for(timeout=20_000)
    shot(first, "selfentry-2-sent")
    # ... and the phone goes back to Mein Turnier, as a save while online
    # does: the filled form is not there to be saved a second time.
    assert first.get_by_role("button", name="Speichern").is_disabled()
    first.wait_for_url(mine(enterer), timeout=10_000)
    first.get_by_text("Tisch 1").first.wait_for()
    shot(first, "selfentry-2b-back-to-mein-turnier")
    version = ResultVersion.objects.get(table=table)
    assert version.status == "pending" and version.entered_by_player == enterer
    assert AuditEvent.objects.filter(action="result.table_enter").count() == 1
    assert SubmissionKey.objects.count() == 1

    # --- Player 2 says "Stimmt"; the first answer is lost on the way back. --
    # (His phone without service worker: the outbox needs none, as on the
    # hall's plain HTTP, and Playwright's routes see every request.)
    second_context = browser.new_context(**PHONE, service_workers="block")
    second = second_context.new_page()
    lost = []

    def lose_first_answer(route) -> None:
        if route.request.method == "POST" and not lost:
            route.fetch()  # the server saves it ...
            lost.append(route.request.headers.get("idempotency-key"))
            route.abort("connectionreset")  # ... the phone never hears of it
        else:
            route.continue_()

    second.route(re.compile(r"/stimmt/$"), lose_first_answer)
    second.goto(mine(confirmer))
    second.get_by_role("button", name="Stimmt", exact=True).click()
    second.locator(".outbox-status").filter(has_text="Gesendet ✓").wait_for(
        timeout=20_000
    )
    shot(second, "selfentry-3-confirmed-after-a-lost-answer")
    assert lost and lost[0]
    version.refresh_from_db()
    assert version.status == "confirmed"
    assert ResultAnswer.objects.filter(version=version).count() == 1
    assert (
        AuditEvent.objects.filter(
            action__in=["result.table_confirm", "result.table_agree"]
        ).count()
        == 1
    )
    # The repeat came with the lost one's key and got its answer.
    assert SubmissionKey.objects.filter(key=lost[0]).count() == 1

    # --- The public phone: the points appear (its poll, run forward). ------
    points = 5 * (7 + 7)
    public.clock.run_for(20_000)
    public.locator(f"tr#p{enterer.start_number} td.points").filter(
        has_text=str(points)
    ).wait_for()
    shot(public, "selfentry-4-standings")

    # ... and without network it keeps showing them, with the copy's time.
    public.reload()  # the worker keeps this state of the page
    public_context.set_offline(True)
    public.reload()
    public.locator("[data-offline-banner]").filter(
        has_text=re.compile(r"Stand von \d\d:\d\d")
    ).wait_for()
    public.locator(f"tr#p{enterer.start_number} td.points").filter(
        has_text=str(points)
    ).wait_for()
    shot(public, "selfentry-5-standings-offline")
    for context in (first_context, second_context, public_context):
        context.close()


def test_an_entry_overtaken_while_offline_says_so_in_words(live_server, browser):
    """While one phone waits for the network, another player of the table
    enters the result: the first phone's entry is refused as a conflict,
    said in words beside the form, and kept until discarded."""
    tournament = TournamentFactory(slug=SLUG, table_entry="one")
    series = make_series(tournament, sizes=(4,))
    table = series.tables.get()
    seats = {s.number: s.entry for s in table.seats.all()}
    base = live_server.url

    def entry_form(entry) -> str:
        return f"{base}/t/{SLUG}/mein/{entry.link_token}/serie/1/tisch/1/eingeben/"

    def type_games(page, winner: int) -> None:
        for game in range(1, 6):
            fieldset = page.locator(f"#spiel-{game}")
            fieldset.locator(f"input[name=g{game}_winner][value='{winner}']").check()
            fieldset.locator(f"input[name=g{game}_marks][value='3']").check()

    slow_context = browser.new_context(**PHONE, service_workers="block")
    slow = slow_context.new_page()
    slow.goto(entry_form(seats[1]))
    slow_context.set_offline(True)
    type_games(slow, winner=1)
    slow.get_by_role("button", name="Speichern").click()
    slow.locator(".outbox-status").filter(has_text="Wartet auf Netz").wait_for()

    quick_context = browser.new_context(**PHONE, service_workers="block")
    quick = quick_context.new_page()
    quick.goto(entry_form(seats[3]))
    type_games(quick, winner=3)
    quick.get_by_role("button", name="Speichern").click()
    # Sent at once: "Mein Turnier" (where the answer leads), or its words.
    quick.locator(".outbox-status").filter(has_text="Gesendet ✓").or_(
        quick.get_by_role("heading", name="Mein Turnier")
    ).wait_for()
    assert ResultVersion.objects.get(table=table).entered_by_player == seats[3]

    slow_context.set_offline(False)
    refused = slow.locator(".outbox-status[data-state=refused]")
    refused.filter(has_text="inzwischen").wait_for(timeout=20_000)
    assert refused.get_by_role("button", name="Verwerfen").is_visible()
    assert ResultVersion.objects.filter(table=table).count() == 1
    # Kept on the phone: it is still there after a reload, until discarded.
    slow.reload()
    slow.locator("[data-outbox-summary]").filter(
        has_text="1 Eingabe wurde nicht gespeichert"
    ).wait_for()
    refused.get_by_role("button", name="Verwerfen").click()
    slow.locator("[data-outbox-summary]").wait_for(state="hidden")
    for context in (slow_context, quick_context):
        context.close()
