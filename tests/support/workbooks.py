"""Workbooks (.xlsx) as a club or an organizer would upload them."""

import io

from openpyxl import Workbook

# The header rows the player import and the games import read.
PLAYER_HEADER = ["Startnummer", "Vorname", "Nachname", "Verein", "Ort", "Kategorie"]
GAMES_HEADER = [
    "Serie",
    "Tisch",
    "Spiel",
    "Sitz",
    "Startnummer",
    "Name",
    "Schräm übrig",
    "Punkte",
]


def xlsx(rows, *, header=None, title: str | None = None) -> bytes:
    """A workbook of one sheet (named `title`, else openpyxl's default):
    the header row, if any, then the rows."""
    workbook = Workbook()
    sheet = workbook.active
    if title is not None:
        sheet.title = title
    if header is not None:
        sheet.append(header)
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
