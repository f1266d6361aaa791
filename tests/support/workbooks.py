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


def import_confirmation(response) -> dict:
    """The player import's preview form as "Jetzt importieren" posts it:
    the preview's token and the columns' fields as the page shows them."""
    preview = response.context["preview"]
    data = {"token": response.context["token"], "action": "import"}
    for column in preview.mapping:
        data[f"spalte-{column.index}"] = column.field or ""
    if preview.take_hidden:
        data["ausgeblendete"] = "1"
    return data


def ods(rows, *, hidden=(), title="Tabelle1") -> bytes:
    """An .ods (odfpy) of one sheet: `rows` of text, numbers or None, the
    row numbers in `hidden` hidden as LibreOffice hides them."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name=title)
    for number, row in enumerate(rows, start=1):
        line = TableRow(visibility="collapse") if number in hidden else TableRow()
        for value in row:
            if value is None or value == "":
                cell = TableCell()
            elif isinstance(value, int | float):
                cell = TableCell(valuetype="float", value=value)
                cell.addElement(P(text=str(value)))
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=str(value)))
            line.addElement(cell)
        table.addElement(line)
    document.spreadsheet.addElement(table)
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue()


def xls(rows, *, title="Tabelle1", hidden=()) -> bytes:
    """An Excel 97-2003 workbook (.xls, written by xlwt) of one sheet, the
    row numbers in `hidden` hidden."""
    import xlwt

    workbook = xlwt.Workbook(encoding="utf-8")
    sheet = workbook.add_sheet(title)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                sheet.write(r, c, value)
        if r + 1 in hidden:
            sheet.row(r).hidden = True
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def csv_bytes(rows, *, encoding="utf-8", delimiter=";", newline="\r\n") -> bytes:
    """A CSV as a spreadsheet program writes it (csv module)."""
    import csv

    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=newline)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return buffer.getvalue().encode(encoding)
