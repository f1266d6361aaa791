"""Every import (players, champions, games) stops at its limit with a
German error. The champions import counts every row it reads, an empty one
too (`core.upload.upload_rows`); the player list and the games import count
the rows with something in them (`core.sheets`: rows that are only
formatted are not in their way) and read no further than a list reaches."""

import io
import re
import time
import zipfile

import pytest
from openpyxl import Workbook

from tests.support.workbooks import GAMES_HEADER, PLAYER_HEADER
from tournament.core.upload import MAX_COLUMNS, open_uploaded_workbook, upload_rows
from tournament.history import champions_workbook
from tournament.history.champions_workbook import parse_champions_workbook
from tournament.paper import games_import
from tournament.paper.games_import import parse_games_workbook
from tournament.registration import player_import
from tournament.registration.player_import import parse_player_workbook

pytestmark = pytest.mark.django_db


def workbook(header, rows, *, last_row=None, title=None):
    """A sheet: the header, `rows`, and one cell at `last_row` (the rows
    between are empty: no cell, as Excel leaves them)."""
    book = Workbook()
    sheet = book.active
    if title:
        sheet.title = title
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    if last_row:
        sheet.cell(row=last_row, column=1, value=1)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def formatted_down_to(last, header, row):
    """A sheet: the header, `row`, and from row 3 down to `last` one bold
    cell with nothing in it each, as Excel saves a column formatted down.
    Its rows are written as openpyxl writes the first of them (openpyxl
    takes 20 s for 300,000 cells of its own)."""
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.append(header)
    sheet.append(row)
    sheet.cell(row=3, column=2).font = Font(bold=True)
    buffer = io.BytesIO()
    book.save(buffer)
    written = io.BytesIO()
    with (
        zipfile.ZipFile(buffer) as small,
        zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as large,
    ):
        for part in small.infolist():
            data = small.read(part)
            if part.filename == "xl/worksheets/sheet1.xml":
                xml = data.decode()
                third = re.search(r'<row r="3".*?</row>', xml).group(0)
                rows = (
                    third.replace('r="3"', f'r="{n}"').replace('"B3"', f'"B{n}"')
                    for n in range(3, last + 1)
                )
                xml = xml.replace(third, "".join(rows))
                data = re.sub(r'ref="A1:\w+"', f'ref="A1:F{last}"', xml).encode()
            large.writestr(part, data)
    return written.getvalue()


def champions(content, tournament):
    return parse_champions_workbook(
        io.BytesIO(content), size=len(content), filename="meister.xlsx"
    )


def players(content, tournament):
    return parse_player_workbook(
        io.BytesIO(content),
        size=len(content),
        filename="spieler.xlsx",
        tournament=tournament,
    )


def games(content, tournament):
    return parse_games_workbook(
        io.BytesIO(content),
        size=len(content),
        filename="ergebnisse.xlsx",
        tournament=tournament,
    )


IMPORTS = {
    "champions": (champions, champions_workbook, ["Jahr", "Name", "Verein"]),
    "players": (players, player_import, PLAYER_HEADER),
    "games": (games, games_import, GAMES_HEADER),
}


def too_many(preview):
    return [e for e in preview.file_errors if e.startswith("Zu viele Zeilen")]


@pytest.mark.parametrize("name", IMPORTS)
def test_rows_empty_in_the_imports_columns_count_against_its_limit(
    name, tournament, monkeypatch
):
    parse, module, header = IMPORTS[name]
    monkeypatch.setattr(module, "MAX_ROWS", 20)
    # A value only beyond the import's columns (a note, a formula's leftover).
    aside = [None] * (len(header) + 2) + ["Notiz"]
    content = workbook(header, [aside] * 50, title="Spiele")
    preview = parse(content, tournament)
    assert too_many(preview) == [
        {
            "players": "Zu viele Zeilen: höchstens 20 Spieler in einer Liste "
            "(leere Zeilen zählen nicht). Bitte die Liste aufteilen.",
            "games": "Zu viele Zeilen: höchstens 20 unter der Überschrift (leere "
            "Zeilen zählen nicht). Bitte die Liste aufteilen.",
        }.get(
            name,
            "Zu viele Zeilen: höchstens 20 unter der Überschrift, leere "
            "mitgezählt. Bitte leere Zeilen am Ende löschen oder die Liste "
            "aufteilen.",
        )
    ]
    assert not preview.ok


@pytest.mark.parametrize("name", IMPORTS)
def test_a_sheet_a_million_rows_long_stops_at_the_limit(name, tournament):
    parse, _module, header = IMPORTS[name]
    content = workbook(header, [], last_row=1_000_000, title="Spiele")
    started = time.perf_counter()
    preview = parse(content, tournament)
    if name == "champions":
        assert too_many(preview), preview.file_errors
    else:  # `core.sheets`: no list reaches that far
        last = {"players": 20_000, "games": 90_000}[name]
        assert preview.file_errors == [
            "Die Tabelle reicht zu weit: Einträge oder formatierte Zeilen nach "
            f"Zeile {last} oder Spalte 1000. Bitte nur die Liste in eine neue "
            "Datei kopieren."
        ]
    assert time.perf_counter() - started < 5


def test_rows_only_formatted_far_down_are_refused_in_a_moment(tournament):
    """Formatting down to row 6000 is read (and counts for nothing); an
    .xlsx formatted down to row 300,000 is refused at row 20,000, not read
    to its end."""
    for last, refused in ((6000, False), (300_000, True)):
        content = formatted_down_to(last, PLAYER_HEADER, [1, "Anna", "Thelen"])
        started = time.perf_counter()
        preview = players(content, tournament)
        assert time.perf_counter() - started < 5
        assert bool(preview.file_errors) == refused, preview.file_errors
        assert len(preview.rows) == (0 if refused else 1)


@pytest.mark.parametrize("name", IMPORTS)
def test_the_limit_itself_is_read(name, tournament, monkeypatch):
    parse, module, header = IMPORTS[name]
    monkeypatch.setattr(module, "MAX_ROWS", 20)
    content = workbook(header, [], last_row=21, title="Spiele")
    assert not too_many(parse(content, tournament))


def test_a_cell_in_excels_last_column_does_not_widen_every_row():
    book = Workbook()
    sheet = book.active
    sheet.append(["Jahr", "Name"])
    for _row in range(200):
        sheet.append([2000, "Anna Jöbges"])
    sheet.cell(row=2, column=16_384, value="x")
    buffer = io.BytesIO()
    book.save(buffer)
    read = open_uploaded_workbook(
        io.BytesIO(buffer.getvalue()), size=len(buffer.getvalue()), filename="a.xlsx"
    )
    try:
        rows = list(upload_rows(read.worksheets[0], limit=500))
    finally:
        read.close()
    assert len(rows) == 201
    assert {len(r) for r in rows} == {MAX_COLUMNS}
    assert rows[1][:2] == (2000, "Anna Jöbges")
