"""The championship day in a real browser (Playwright driving Debian's
Chromium), everything by clicking and typing:

the organizer signs in, imports 16 players from an .xlsx, checks them in,
seats and releases series 1 and downloads its score sheets; one referee
enters every table, another confirms each; a second browser on the public
standings sees the points change without a reload; series 2 is seated
without any pair meeting again. axe-core checks every page on the way
(no serious or critical violations). Screenshots go to test-artifacts/.

The test server (pytest-django's live_server) speaks HTTP only, so the
standings page's websocket cannot connect and the page keeps itself current
by polling its fragment, the way it does whenever the socket is gone; the
page's clock is Playwright's, so the poll timer is run forward rather than
waited for. The push over the websocket is covered against a real uvicorn
in tests/live/test_live_browser.py."""

import itertools
import re
import shutil
import subprocess

import pytest

from tests.e2e.a11y import Audit
from tests.support.browser import ARTIFACTS, follow, sign_in
from tests.support.factories import make_user
from tests.support.pdf import pdf_page_count
from tests.support.workbooks import xlsx
from tournament.models import ResultVersion, Seat, Series, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "rm-e2e"
PASSWORD = "meisterschaft-2026"
PLAYERS = [
    ("Anna", "Adams", "Schrämclub Daun", "Daun", "Damen"),
    ("Bernd", "Becker", "Schrämclub Daun", "Daun", ""),
    ("Carla", "Clemens", "KC Ulmen", "Ulmen", "Damen"),
    ("Dieter", "Dörr", "KC Ulmen", "Ulmen", "Senioren"),
    ("Erika", "Engel", "7er Mayen", "Mayen", "Damen"),
    ("Frank", "Fuchs", "7er Mayen", "Mayen", ""),
    ("Gisela", "Groß", "Eifelschräm Gerolstein", "Gerolstein", "Damen"),
    ("Hans", "Hübner", "Eifelschräm Gerolstein", "Gerolstein", "Senioren"),
    ("Inge", "Ittner", "Schrämclub Daun", "Daun", "Damen"),
    ("Jürgen", "Jansen", "KC Ulmen", "Ulmen", ""),
    ("Karin", "Klein", "7er Mayen", "Mayen", "Damen"),
    ("Lothar", "Lenz", "Eifelschräm Gerolstein", "Gerolstein", ""),
    ("Monika", "Müller", "Schrämclub Daun", "Daun", "Damen"),
    ("Norbert", "Nau", "KC Ulmen", "Ulmen", "Jugend"),
    ("Olga", "Ochs", "7er Mayen", "Mayen", "Damen"),
    ("Peter", "Pütz", "Eifelschräm Gerolstein", "Gerolstein", ""),
]
# Table t of series 1: seat WINNER[t] wins all five games keeping MARKS[t]
# marks, i.e. 5 × (marks + 7 bonus) points.
WINNER = {1: 1, 2: 2, 3: 3, 4: 4}
MARKS = {1: 7, 2: 6, 3: 5, 4: 4}


def player_workbook() -> bytes:
    """The club's list as the import expects it: a header row, then a row
    per player (the start numbers are left to the site)."""
    header = ["Vorname", "Nachname", "Verein", "Ort", "Kategorie"]
    return xlsx(PLAYERS, header=header, title="Meldungen")


def pdf_pages(content: bytes, tmp_path) -> int | None:
    """The page count by poppler's pdfinfo (None where it is missing); the
    first page goes to the artifacts as a picture where pdftoppm is."""
    path = tmp_path / "spielliste.pdf"
    path.write_bytes(content)
    if shutil.which("pdftoppm"):
        ARTIFACTS.mkdir(exist_ok=True)
        target = ARTIFACTS / "championship-03-score-sheet"
        subprocess.run(
            ["pdftoppm", "-png", "-r", "50", "-singlefile", str(path), str(target)],
            check=True,
        )
    return pdf_page_count(content) if shutil.which("pdfinfo") else None


def meetings(series: Series) -> set[frozenset[int]]:
    """Every pair of start numbers at one table in this series."""
    tables: dict[int, list[int]] = {}
    for table, number in Seat.objects.filter(series=series).values_list(
        "table__number", "entry__start_number"
    ):
        tables.setdefault(table, []).append(number)
    return {
        frozenset(pair)
        for numbers in tables.values()
        for pair in itertools.combinations(numbers, 2)
    }


def test_championship_day(live_server, browser, shot, tmp_path):
    Tournament.objects.create(
        name="Rheinland-Meisterschaft 2026",
        slug=SLUG,
        date="2026-12-05",
        venue="Ulmen",
        double_entry=True,
    )
    for username, role in [
        ("leitung", "organizer"),
        ("schiri1", "referee"),
        ("schiri2", "referee"),
    ]:
        make_user(username, role, password=PASSWORD)
    base = live_server.url
    audit = Audit(base)
    desk = {"viewport": {"width": 1280, "height": 900}, "locale": "de-DE"}
    phone = {"viewport": {"width": 390, "height": 844}, "locale": "de-DE"}
    contexts = []

    def open_page(**options):
        context = browser.new_context(**options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        audit.watch(page)
        return page

    try:
        _championship_day(base, audit, open_page, desk, phone, shot, tmp_path)
    finally:
        for context in contexts:
            context.close()
        print(audit.report())  # shown with a failure further on
    audit.assert_clean()


def _championship_day(base, audit, open_page, desk, phone, shot, tmp_path):
    manage = f"/t/{SLUG}/verwaltung/"

    # --- The organizer signs in and imports the club's list. -------------
    organizer = open_page(**desk)
    organizer.goto(f"{base}/konto/anmelden/?next={manage}")
    audit.check(organizer, "login")
    sign_in(organizer, base, "leitung", PASSWORD, manage)
    audit.check(organizer, "manage")
    follow(
        organizer,
        organizer.locator("main").get_by_role(
            "button", name="Spielerliste importieren"
        ),
    )
    audit.check(organizer, "import-upload")
    organizer.get_by_label(
        "Spielerliste (Excel, LibreOffice oder CSV)"
    ).set_input_files(
        {
            "name": "meldungen.xlsx",
            "mimeType": "application/vnd.openxmlformats-officedocument"
            ".spreadsheetml.sheet",
            "buffer": player_workbook(),
        }
    )
    organizer.get_by_role("button", name="Prüfen").click()
    organizer.get_by_text("16 Spieler bereit zum Import.").wait_for()
    audit.check(organizer, "import-preview")
    shot(organizer, "championship-01-import-preview")
    organizer.get_by_role("button", name="Jetzt importieren").click()
    organizer.wait_for_url(f"{base}{manage}spieler/")

    # --- Everybody has arrived: check them in. ----------------------------
    organizer.get_by_text("16 gemeldet · 0 anwesend").wait_for()
    audit.check(organizer, "entry-list")
    for number in range(1, 17):
        organizer.get_by_role("button", name=f"Nr. {number} einchecken").click()
        organizer.get_by_role(
            "button", name=f"Nr. {number} ist anwesend – zurücksetzen"
        ).wait_for()
    organizer.get_by_text("16 gemeldet · 16 anwesend").wait_for()

    # --- Series 1: seat by lot, look at the report, release. --------------
    follow(organizer, organizer.get_by_role("link", name="Serien", exact=True))
    audit.check(organizer, "series-overview")
    follow(organizer, organizer.get_by_role("row", name="Serie 1").get_by_role("link"))
    audit.check(organizer, "series-1-draft")
    organizer.get_by_role("button", name="Setzung auslosen").click()
    organizer.get_by_role("button", name="Veröffentlichen").wait_for()
    audit.check(organizer, "series-1-seated")
    organizer.get_by_role("button", name="Veröffentlichen").click()
    organizer.get_by_role("button", name="Öffentliche Ansicht").wait_for()
    shot(organizer, "championship-02-series-1-released")
    series1 = Series.objects.get(tournament__slug=SLUG, number=1)
    assert series1.status == Series.Status.RELEASED
    assert series1.tables.count() == 4

    # --- The score sheets for the tables. ---------------------------------
    follow(organizer, organizer.get_by_role("link", name="Verwaltung", exact=True))
    follow(organizer, organizer.get_by_role("button", name="Drucken & Export"))
    audit.check(organizer, "paper")
    sheets = organizer.locator("article", has_text="Spiellisten")
    # "Sofort öffnen" opens the PDF in a new tab, in Chromium's viewer; the
    # route keeps a copy of the bytes on their way.
    served = []

    def keep(route):
        response = route.fetch()
        served.append((response.headers["content-type"], response.body()))
        route.fulfill(response=response)

    organizer.context.route("**/druck/datei/**", keep)
    with organizer.expect_popup() as popup:
        sheets.get_by_role("button", name="Sofort öffnen").click()
    popup.value.close()
    ((content_type, content),) = served
    assert content_type == "application/pdf"
    assert content.startswith(b"%PDF"), content[:40]
    pages = pdf_pages(content, tmp_path)
    assert pages in (None, 4), f"{pages} pages for 4 tables"

    # --- A second browser follows the public standings. -------------------
    public = open_page(**desk)
    public.clock.install()
    public.goto(f"{base}/t/{SLUG}/tabelle/")
    public.locator("tr#p1 td.points").wait_for()
    audit.check(public, "standings")
    assert public.locator("td.points:text-is('70')").count() == 0
    public.evaluate("window.loadedOnce = true")

    def public_shows(number: int, points: int) -> None:
        # Run the page's poll timer forward (offline polls every ~15 s).
        public.clock.run_for(20_000)
        public.locator(f"tr#p{number} td.points:text-is('{points}')").wait_for()

    # --- Referee 1 enters every table. ------------------------------------
    referee = open_page(**phone)
    sign_in(referee, base, "schiri1", PASSWORD, f"/t/{SLUG}/eingabe/")
    audit.check(referee, "results-overview")
    winners = {}
    for table in series1.tables.order_by("number"):
        t = table.number
        follow(
            referee, referee.get_by_role("link", name=re.compile(rf"^Tisch {t}: fehlt"))
        )
        if t == 1:
            audit.check(referee, "table-entry")
        for game in range(1, 6):
            fieldset = referee.locator(f"#spiel-{game}")
            fieldset.locator(f"input[name=g{game}_winner][value='{WINNER[t]}']").check()
            fieldset.locator(f"input[name=g{game}_marks][value='{MARKS[t]}']").check()
        if t == 1:
            shot(referee, "championship-04-referee-entry")
        referee.get_by_role("button", name="Speichern").click()
        referee.get_by_text("zweite Person").first.wait_for()
        if t == 1:
            audit.check(referee, "table-pending-own")
        seat = table.seats.get(number=WINNER[t])
        winners[t] = seat.entry.start_number
        referee.get_by_role("link", name="Eingabe", exact=True).click()
    assert (
        ResultVersion.objects.filter(
            table__series=series1, status=ResultVersion.Status.PENDING
        ).count()
        == 4
    )

    # --- Referee 2 confirms each; the public standings follow. ------------
    second = open_page(**phone)
    sign_in(second, base, "schiri2", PASSWORD, f"/t/{SLUG}/eingabe/")
    for t in range(1, 5):
        follow(
            second,
            second.get_by_role(
                "link", name=re.compile(rf"^Tisch {t}: wartet auf Bestätigung")
            ),
        )
        if t == 1:
            audit.check(second, "table-confirm")
        second.get_by_role(
            "button", name="Stimmt mit der Spielliste überein – bestätigen"
        ).click()
        second.locator(".message-success").wait_for()
        if t == 1:
            public_shows(winners[1], 5 * (MARKS[1] + 7))
            shot(public, "championship-05-standings-after-table-1")
        follow(second, second.get_by_role("link", name="Eingabe", exact=True))
    audit.check(second, "results-overview-complete")
    public_shows(winners[4], 5 * (MARKS[4] + 7))
    for t in range(1, 5):
        points = public.locator(f"tr#p{winners[t]} td.points").inner_text()
        assert int(points) == 5 * (MARKS[t] + 7)
    assert public.evaluate("window.loadedOnce") is True  # never reloaded
    shot(public, "championship-06-standings-series-1")
    assert not ResultVersion.objects.filter(
        table__series=series1, status=ResultVersion.Status.PENDING
    ).exists()

    # --- Series 2: nobody meets anybody a second time. --------------------
    organizer.get_by_role("link", name="Serien", exact=True).click()
    organizer.get_by_role("row", name="Serie 2").get_by_role("link").click()
    organizer.get_by_role("button", name="Setzung auslosen").click()
    organizer.get_by_role("button", name="Veröffentlichen").wait_for()
    quality = organizer.get_by_label("Güte der Setzung")
    assert "Wiederholte Begegnungen 0 ✔" in " ".join(quality.inner_text().split())
    audit.check(organizer, "series-2-seated")
    shot(organizer, "championship-07-series-2-seated")
    series2 = Series.objects.get(tournament__slug=SLUG, number=2)
    first, then = meetings(series1), meetings(series2)
    assert len(first) == len(then) == 4 * 6
    assert not first & then, f"pairs meeting again: {sorted(map(sorted, first & then))}"
