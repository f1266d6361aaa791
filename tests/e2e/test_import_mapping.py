"""The player import's column mapping in Chromium, at 360 px (a phone) and
1366 px (the desk's laptop): a club list with an extra column and the name
as "Name, Vorname" in one column whose header the page does not know
("Teilnehmer/in") imports right after one change in the preview; nothing
is too wide."""

import pytest

from tests.e2e.a11y import Audit
from tests.support.browser import sign_in
from tests.support.factories import TournamentFactory, make_user
from tests.support.workbooks import xlsx

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"360": {"width": 360, "height": 740}, "1366": {"width": 1366, "height": 900}}
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("size", SIZES)
def test_one_change_in_the_mapping_imports_the_list(
    live_server, browser, shot, tmp_path, size
):
    slug = f"rm-import-{size}"
    tournament = TournamentFactory(slug=slug)
    make_user("orga", "organizer", password="orga-pw")
    path = tmp_path / "meldeliste-kreis.xlsx"
    path.write_bytes(
        xlsx(
            [
                ["Thelen, Anna", "KSC Mayen", "0261 123456"],
                ["Mertes, Hubert", "SC Daun", ""],
                ["Jöbges, Gerda", "Schrämfreunde Gerolstein", "06591 98765"],
            ],
            header=["Teilnehmer/in", "Verein", "Telefon"],
        )
    )
    base = live_server.url
    audit = Audit(base)
    page = browser.new_page(viewport=SIZES[size])
    audit.watch(page)
    sign_in(page, base, "orga", "orga-pw")
    page.goto(f"{base}/t/{slug}/verwaltung/spieler/import/")
    page.set_input_files("input[type=file]", str(path))
    page.get_by_role("button", name="Prüfen").click()
    page.wait_for_selector(".import-columns")
    shot(page, f"import-mapping-proposed-{size}")
    assert page.evaluate(SIDEWAYS) <= 0, f"the mapping scrolls sideways at {size}"
    # The page proposes nothing for "Teilnehmer/in": no name, no import.
    assert "Keine Spalte ist „Vorname“ zugeordnet" in page.content()
    assert page.get_by_role("button", name="Jetzt importieren").count() == 0
    # One change: the first column is "Name, Vorname".
    page.select_option("#spalte-0", "name_comma")
    page.get_by_role("button", name="Vorschau aktualisieren").click()
    page.wait_for_selector(".import-preview:not(.import-columns)")
    shot(page, f"import-mapping-changed-{size}")
    assert page.evaluate(SIDEWAYS) <= 0, f"the preview scrolls sideways at {size}"
    assert "3 Spieler bereit zum Import" in page.content()
    audit.check(page, f"import-mapping-{size}")
    page.get_by_role("button", name="Jetzt importieren").click()
    page.wait_for_selector(".message-success")
    assert "3 Spieler importiert" in page.inner_text(".message-success")
    names = sorted(
        tournament.entries.values_list(
            "player__first_name", "player__last_name", "player__club"
        )
    )
    assert names == [
        ("Anna", "Thelen", "KSC Mayen"),
        ("Gerda", "Jöbges", "Schrämfreunde Gerolstein"),
        ("Hubert", "Mertes", "SC Daun"),
    ]


@pytest.mark.parametrize("size", SIZES)
def test_hidden_rows_errors_and_a_player_twice_are_said(
    live_server, browser, shot, tmp_path, size
):
    """What the file hides, a formula's error and a player twice are on
    the page, in words, at both widths; nothing is imported."""
    from openpyxl import Workbook

    slug = f"rm-import-faelle-{size}"
    tournament = TournamentFactory(slug=slug)
    make_user("orga", "organizer", password="orga-pw")
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Meldungen Kreis Daun"
    sheet["A1"] = "Meldeliste Kreismeisterschaft"
    sheet.append([])
    sheet.append(["Familienname", "Vorname", "Verein/Club", "Geb.-Datum", "Klasse"])
    sheet.append(["Thelen", "Anna", "KSC Mayen", "04.03.1961", "Seniorin"])
    sheet.append(["Mertes", "#VALUE!", "SC Daun", "", ""])
    sheet.append(["Lenz", "Gerda", "SC Daun", "", "Ü60"])
    sheet.append(["Thelen", "Anna", "KSC Mayen", "04.03.1961", "Seniorin"])
    sheet.row_dimensions[6].hidden = True
    path = tmp_path / "kreis.xlsx"
    workbook.save(path)
    base = live_server.url
    page = browser.new_page(viewport=SIZES[size])
    sign_in(page, base, "orga", "orga-pw")
    page.goto(f"{base}/t/{slug}/verwaltung/spieler/import/")
    page.set_input_files("input[type=file]", str(path))
    page.get_by_role("button", name="Prüfen").click()
    page.wait_for_selector(".import-columns")
    shot(page, f"import-cases-{size}")
    assert page.evaluate(SIDEWAYS) <= 0, f"the preview scrolls sideways at {size}"
    text = page.inner_text("main")
    assert "Gelesen: Blatt „Meldungen Kreis Daun“, Überschriften in Zeile 3." in text
    assert "In der Datei ist 1 Zeile ausgeblendet oder weggefiltert (Zeile 6)." in text
    assert "„Vorname“ ist ein Formelfehler (#VALUE!)" in text
    assert "doppelt in der Datei, Zeilen 4 und 7." in text
    assert "Senioren (Seniorin)" in text
    assert page.get_by_role("button", name="Jetzt importieren").count() == 0
    assert tournament.entries.count() == 0
