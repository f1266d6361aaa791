"""Spreadsheets the site writes, as .xlsx (openpyxl) and CSV.

Every value passes through here, so that a text a user gave (a name, a
club, a team) is always written as text that no spreadsheet evaluates,
however it starts: a player called `=HYPERLINK(…)` stays a name. Numbers
stay numbers; a formula of the site's own is written only as a `Formula`.
Sheets are filterable tables with a bold frozen header row.
"""

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from io import BytesIO
from typing import Any, Protocol

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# What makes Excel or LibreOffice read a typed or imported field as a
# formula (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Formula:
    """A formula of the site's own (e.g. "=SUM(H2:H40)"): the only value
    `write_table` writes as a formula. Never build one from a user's text."""

    text: str

    def __post_init__(self) -> None:
        if not self.text.startswith("="):
            raise ValueError(f"a formula starts with '=', not {self.text!r}")


def _put(sheet: Worksheet, row: int, column: int, value: Any) -> Cell:
    """Write one value: text as a text cell, a `Formula` as a formula,
    anything else as openpyxl writes it (numbers, dates, None)."""
    cell = sheet.cell(row=row, column=column)
    assert isinstance(cell, Cell)  # a table merges no cells
    if isinstance(value, Formula):
        cell.value = value.text
    elif isinstance(value, str):
        # Control characters cannot be stored in a workbook at all.
        text = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell.value = text
        # openpyxl makes a formula of any text starting with "="; a text
        # cell is shown, never evaluated. The quote prefix keeps it text
        # when somebody edits the cell in Excel or LibreOffice.
        cell.data_type = "s"
        if text.startswith(FORMULA_START):
            cell.quotePrefix = True
    else:
        cell.value = value
    return cell


def write_table(
    sheet: Worksheet,
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    number_formats: dict[int, str] | None = None,
) -> None:
    """Fill an empty sheet as a filterable table with a frozen bold header
    row. Texts are written as text (see `_put`), so a row may carry what
    users typed as it is."""
    widths = [len(str(h)) for h in headers]
    for column, header in enumerate(headers, start=1):
        cell = _put(sheet, 1, column, header)
        cell.font = Font(bold=True)
    for row_number, row in enumerate(rows, start=2):
        for column, value in enumerate(row, start=1):
            _put(sheet, row_number, column, value)
            if value is not None:
                width = len(str(value))
                if column > len(widths):
                    widths.append(width)
                else:
                    widths[column - 1] = max(widths[column - 1], width)
    for i, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(i)].width = min(max(width + 2, 8), 50)
    for col, fmt in (number_formats or {}).items():
        for (formatted,) in sheet.iter_rows(min_row=2, min_col=col, max_col=col):
            formatted.number_format = fmt
    sheet.freeze_panes = "A2"
    if sheet.max_row > 1:
        sheet.auto_filter.ref = sheet.dimensions
    print_setup(sheet, sum(min(max(w + 2, 8), 50) for w in widths))


# About as many characters of Excel's standard width as fit across a
# portrait A4 page at 100 %; a wider table prints landscape.
PORTRAIT_WIDTH = 95


def print_setup(sheet: Worksheet, width: float) -> None:
    """Every table prints as a club expects: A4, as wide as the page (as
    long as it needs), the header row on every page, landscape when its
    columns (`width`, in characters) are wider than a portrait page."""
    setup = sheet.page_setup
    setup.paperSize = sheet.PAPERSIZE_A4
    setup.orientation = (
        sheet.ORIENTATION_LANDSCAPE
        if width > PORTRAIT_WIDTH
        else sheet.ORIENTATION_PORTRAIT
    )
    setup.fitToWidth = 1
    setup.fitToHeight = 0
    properties = sheet.sheet_properties
    if properties.pageSetUpPr is None:
        properties.pageSetUpPr = PageSetupProperties()
    properties.pageSetUpPr.fitToPage = True
    sheet.print_title_rows = "1:1"


def workbook_bytes(workbook: Workbook) -> bytes:
    buffer = BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


class Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def csv_field(value: Any) -> Any:
    """A CSV field no spreadsheet evaluates: a text starting with a formula
    character gets a leading apostrophe (OWASP); numbers are left alone."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_write(
    stream: Writable,
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    delimiter: str = ",",
) -> None:
    """Write a CSV table: every text quoted and neutralised (`csv_field`),
    numbers unquoted, so a spreadsheet opening it reads numbers as numbers
    and no text as a formula; None is an empty field."""
    writer = csv.writer(stream, quoting=csv.QUOTE_NONNUMERIC, delimiter=delimiter)
    writer.writerow([csv_field(h) for h in headers])
    for row in rows:
        writer.writerow([csv_field(v) for v in row])


# A CSV as German Excel opens it with a double click: semicolons (the
# comma is the decimal mark), UTF-8 announced by its byte-order mark.
EXCEL_DELIMITER = ";"
BOM = "\ufeff"


def excel_csv(
    stream: Writable, headers: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """`csv_write` as German Excel opens it (`EXCEL_DELIMITER`, `BOM`)."""
    stream.write(BOM)
    csv_write(stream, headers, rows, delimiter=EXCEL_DELIMITER)
