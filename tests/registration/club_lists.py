"""The club lists the player import is tried with: each a small file as a
club's program writes it (openpyxl for .xlsx, xlwt for .xls, odfpy for
.ods, the csv module for CSV) and what the import must make of it.
`test_club_lists.py` runs the importer over every one; `write_folder`
puts them in a folder (as `importplayers` reads them)."""

import datetime
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

from tests.support.workbooks import csv_bytes, ods, xls

CLUBS = ["KSC Mayen", "SC Daun", "Schrämfreunde Gerolstein"]


def players(n: int, start: int = 0) -> list[list[object]]:
    """n players: first name, last name, club."""
    return [
        [f"Vorname{i}", f"Nachname{i}", CLUBS[i % len(CLUBS)]]
        for i in range(start, start + n)
    ]


@dataclass
class ClubList:
    name: str  # the file's name
    make: Callable[[], bytes]
    # What the preview must say (None: the file is refused with `refused`).
    rows: int | None = None
    ok: bool = True
    refused: str = ""
    sheet: str | None = None
    header_row: int | None = None
    mapping: dict[str, str | None] = field(default_factory=dict)
    hidden: int = 0
    duplicates: list[list[int]] = field(default_factory=list)
    # (row, field, value) the preview reads, or (row, "error", words).
    expect: list[tuple[int, str, str]] = field(default_factory=list)


def _xlsx(build: Callable[[Workbook], None]) -> bytes:
    workbook = Workbook()
    build(workbook)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _plain(header, rows, title="Meldeliste"):
    def build(workbook):
        sheet = workbook.active
        sheet.title = title
        sheet.append(header)
        for row in rows:
            sheet.append(row)

    return _xlsx(build)


def error_cells() -> bytes:
    # openpyxl stores these as Excel stores a formula's error.
    return _plain(
        ["Vorname", "Nachname", "Verein"],
        [["Anna", "Thelen", "KSC Mayen"], ["#VALUE!", "#VALUE!", "SC Daun"]],
    )


def filtered() -> bytes:
    """22 players, filtered down to one club: 5 visible, 17 hidden."""

    def build(workbook):
        sheet = workbook.active
        sheet.title = "Meldeliste"
        sheet.append(["Vorname", "Nachname", "Verein"])
        for i in range(22):
            club = "KSC Mayen" if i < 5 else "SC Daun"
            sheet.append([f"Vorname{i}", f"Nachname{i}", club])
            if club != "KSC Mayen":
                sheet.row_dimensions[i + 2].hidden = True
        sheet.auto_filter.ref = "A1:C23"
        sheet.auto_filter.add_filter_column(2, ["KSC Mayen"])

    return _xlsx(build)


def twice() -> bytes:
    rows = players(15)
    rows.insert(2, ["Hans", "Müller", "SC Daun"])  # row 4
    rows.insert(15, ["Hans", "Müller", "SC Daun"])  # row 17
    return _plain(["Vorname", "Nachname", "Verein"], rows)


def twice_differently() -> bytes:
    return _plain(
        ["Vorname", "Nachname", "Verein", "Kategorie"],
        [["Hans", "Müller", "SC Daun", "Senioren"], ["Hans", "Müller", "SC Daun", ""]],
    )


def title_merged() -> bytes:
    def build(workbook):
        sheet = workbook.active
        sheet.title = "Rheinland 2025"
        sheet["A1"] = "Meldeliste Rheinland-Meisterschaft 2025"
        sheet["A1"].font = Font(bold=True, size=16)
        sheet.merge_cells("A1:E1")
        sheet["A2"] = "Stand: 01.12.2025"
        sheet.append([])
        sheet.append(["Lfd. Nr.", "Familienname", "Vorname", "Verein/Club", "Klasse"])
        sheet.append([1, "Jöbges", "Anna", "KSC Mayen", "Damen"])
        sheet.append([2, "Mertes", "Hubert", "SC Daun", ""])

    return _xlsx(build)


def second_sheet() -> bytes:
    def build(workbook):
        info = workbook.active
        info.title = "Hinweise"
        info.append(["Bitte bis Freitag melden."])
        sheet = workbook.create_sheet("Meldungen")
        sheet.append(["Vorname", "Nachname", "Verein"])
        sheet.append(["Anna", "Thelen", "KSC Mayen"])

    return _xlsx(build)


EXTRA = [
    [1, "Thelen", "Anna", datetime.date(1961, 3, 4), "0261 1234", "a@b.de"],
    [2, "Mertes", "Hubert", datetime.date(2008, 5, 6), "", ""],
]


def extra_columns() -> bytes:
    return _plain(
        [
            "Lfd. Nr.",
            "Familienname",
            "Vorname",
            "Geb.-Datum",
            "Telefon",
            "E-Mail",
            "Club",
            "Wertung",
            "Bemerkung",
        ],
        [
            [*EXTRA[0], "KSC Mayen", "Seniorin", "Vegetarierin"],
            [*EXTRA[1], "SC Daun", "U18", ""],
        ],
    )


def name_comma() -> bytes:
    return _plain(
        ["Nr", "Name, Vorname", "Verein", "Telefon"],
        [[1, "Thelen, Anna", "KSC Mayen", "0261"], [2, "Mertes, Hubert", "", ""]],
    )


def spieler_comma() -> bytes:
    return _plain(
        ["Spieler", "Verein"], [["Thelen, Anna", "KSC Mayen"], ["Mertes, Hubert", ""]]
    )


def categories() -> bytes:
    return _plain(
        ["Vorname", "Nachname", "Kategorie"],
        [
            ["A", "Eins", "Senior"],
            ["B", "Zwei", "Seniorin"],
            ["C", "Drei", "Ü60"],
            ["D", "Vier", "D"],
            ["E", "Fünf", "Frauen"],
            ["F", "Sechs", "weiblich"],
            ["G", "Sieben", "U18"],
            ["H", "Acht", "Jugendlicher"],
            ["I", "Neun", "Profis"],
        ],
    )


def formatted_to_6000() -> bytes:
    def build(workbook):
        sheet = workbook.active
        sheet.append(["Vorname", "Nachname", "Verein"])
        for row in players(22):
            sheet.append(row)
        for line in range(24, 6001):
            sheet.cell(row=line, column=1).font = Font(bold=True)

    return _xlsx(build)


HEADER = ["Nachname", "Vorname", "Verein"]
UMLAUT_ROWS = [["Jöbges", "Anna", "Schrämfreunde Daun"], ["Weiß", "Jürgen", ""]]

CLUB_LISTS = [
    ClubList("fehlerzellen.xlsx", error_cells, rows=2, ok=False,
             expect=[(3, "error", "Formelfehler (#VALUE!)")]),
    ClubList("fehlerzellen-deutsch.csv",
             lambda: csv_bytes(
                 [HEADER, ["#WERT!", "#NV", "SC"], ["Thelen", "Anna", ""]],
                 encoding="cp1252"),
             rows=2, ok=False, expect=[(2, "error", "Formelfehler (#WERT!)")]),
    ClubList("gefiltert.xlsx", filtered, rows=5, hidden=17,
             expect=[(6, "last_name", "Nachname4")]),
    ClubList("ausgeblendet.ods",
             lambda: ods([HEADER, *UMLAUT_ROWS, ["Lenz", "Gerda", ""]], hidden={3}),
             rows=2, hidden=1, expect=[(4, "last_name", "Lenz")]),
    ClubList("doppelt.xlsx", twice, rows=16, duplicates=[[4, 17]],
             expect=[(4, "warning", "doppelt in der Datei, Zeilen 4 und 17")]),
    ClubList("doppelt-verschieden.xlsx", twice_differently, rows=1, ok=False,
             duplicates=[[2, 3]], expect=[(2, "error", "mit verschiedenen Angaben")]),
    ClubList("excel-deutsch.csv",
             lambda: csv_bytes([HEADER, *UMLAUT_ROWS], encoding="cp1252"),
             rows=2, expect=[(2, "last_name", "Jöbges"), (3, "first_name", "Jürgen")]),
    ClubList("utf8-bom-komma.csv",
             lambda: csv_bytes([HEADER, *UMLAUT_ROWS], encoding="utf-8-sig",
                               delimiter=","),
             rows=2, expect=[(2, "last_name", "Jöbges")]),
    ClubList("utf8-semikolon.csv",
             lambda: csv_bytes([HEADER, *UMLAUT_ROWS], newline="\n"),
             rows=2, expect=[(3, "last_name", "Weiß")]),
    ClubList("utf8-tab.txt",
             lambda: csv_bytes([HEADER, *UMLAUT_ROWS], delimiter="\t"),
             rows=2, expect=[(3, "club", "")]),
    ClubList("excel97.xls", lambda: xls([HEADER, *UMLAUT_ROWS], title="Spieler"),
             rows=2, sheet="Spieler", expect=[(2, "last_name", "Jöbges")]),
    ClubList("ausgeblendet.xls",
             lambda: xls([HEADER, *UMLAUT_ROWS, ["Lenz", "Gerda", ""]], hidden={3}),
             rows=2, hidden=1, expect=[(4, "last_name", "Lenz")]),
    ClubList("libreoffice.ods", lambda: ods([[], HEADER, *UMLAUT_ROWS]),
             rows=2, header_row=2, expect=[(3, "last_name", "Jöbges")]),
    ClubList("liste.pdf", lambda: b"%PDF-1.7\n", refused="Falscher Dateityp"),
    ClubList("kaputt.xlsx", lambda: b"PK\x03\x04 nothing", refused="beschädigt"),
    ClubList("titel-verbunden.xlsx", title_merged, rows=2, sheet="Rheinland 2025",
             header_row=4,
             mapping={"Lfd. Nr.": None, "Familienname": "last_name",
                      "Vorname": "first_name", "Verein/Club": "club",
                      "Klasse": "category"},
             expect=[(5, "last_name", "Jöbges"), (5, "category", "ladies")]),
    ClubList("zweites-blatt.xlsx", second_sheet, rows=1, sheet="Meldungen",
             header_row=1),
    ClubList("weitere-spalten.xlsx", extra_columns, rows=2,
             mapping={"Lfd. Nr.": None, "Familienname": "last_name",
                      "Vorname": "first_name", "Geb.-Datum": None, "Telefon": None,
                      "E-Mail": None, "Club": "club", "Wertung": "category",
                      "Bemerkung": None},
             expect=[(2, "category", "seniors"), (3, "category", "youth")]),
    ClubList("name-komma-vorname.xlsx", name_comma, rows=2,
             mapping={"Nr": "start_number", "Name, Vorname": "name_comma",
                      "Verein": "club", "Telefon": None},
             expect=[(2, "first_name", "Anna"), (2, "last_name", "Thelen")]),
    ClubList("spieler-komma.xlsx", spieler_comma, rows=2,
             mapping={"Spieler": "name_comma", "Verein": "club"},
             expect=[(3, "first_name", "Hubert"), (3, "last_name", "Mertes")]),
    ClubList("kategorien.xlsx", categories, rows=9, ok=False,
             expect=[(2, "category", "seniors"), (3, "category", "seniors"),
                     (4, "category", "seniors"), (5, "category", "ladies"),
                     (6, "category", "ladies"), (7, "category", "ladies"),
                     (8, "category", "youth"), (9, "category", "youth"),
                     (10, "error", "Unbekannte Kategorie „Profis“")]),
    ClubList("formatiert-bis-6000.xlsx", formatted_to_6000, rows=22),
]  # fmt: skip


def write_folder(folder: Path) -> list[Path]:
    """Every club list as a file in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for club_list in CLUB_LISTS:
        path = folder / club_list.name
        path.write_bytes(club_list.make())
        paths.append(path)
    return paths
