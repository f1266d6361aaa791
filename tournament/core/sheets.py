"""A club's list as rows of text, from whatever program wrote it: .xlsx,
.xls (Excel 97–2003), .ods (LibreOffice) and CSV.

The readers are well-kept libraries, each for what it reads best, and none
may let a small file cost gigabytes:

- .xlsx / .xlsm: openpyxl's sheet parser, row by row as the file has them.
  It keeps a formula's error as its code ("#VALUE!") and each row's
  attributes (Excel marks a row hidden by hand or by a filter); both must
  reach the preview, never become an empty cell or a player.
- .xls: xlrd, for the same reasons (error cells, hidden rows), and it holds
  a row only as long as its cells.
- .ods: python-calamine for the values; odfpy for the rows the file hides
  and to refuse a cell far out first (calamine holds a sheet as one block
  from its first to its last cell).
- CSV: UTF-8 with or without byte-order mark, else the encoding
  charset-normalizer finds among the Western ones (German Excel writes
  Windows-1252); the delimiter by `csv.Sniffer` (semicolon, comma or tab).

Only rows with something in them are kept, each with its number in the file
as the spreadsheet program shows it; formatting down to row 6000 costs
nothing and counts for nothing."""

import csv
import datetime
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from xlrd import XLRDError

from tournament.core.errors import UserError
from tournament.core.upload import DAMAGED, MAX_COLUMNS, cell_text, refuse_zip_bomb

# What a formula's error shows as, in Excel (English and German) and
# LibreOffice: such a cell holds no value, and a name made of it is wrong.
ERROR_TEXTS = frozenset(
    {
        "#NULL!",
        "#DIV/0!",
        "#VALUE!",
        "#REF!",
        "#NAME?",
        "#NUM!",
        "#N/A",
        "#GETTING_DATA",
        "#SPILL!",
        "#CALC!",
        "#FIELD!",
        "#BLOCKED!",
        "#WERT!",
        "#BEZUG!",
        "#ZAHL!",
        "#NV",
        "#LEER!",
        "#ÜBERLAUF!",
        "#BERECHNUNG!",
        "#FELD!",
        "#BLOCKIERT!",
    }
)

FORMATS = ".xlsx, .xls, .ods, .csv"


def is_error(text: str) -> bool:
    """A cell that shows a formula's error (LibreOffice: "Err:502")."""
    return text.upper() in ERROR_TEXTS or text.startswith("Err:")


@dataclass(frozen=True)
class Bounds:
    """How much of a file is read: `keep` rows with something in them per
    sheet, and no row beyond `last_line` (twice an import's rows and room
    for gaps: no list reaches further; calamine holds a sheet as one block
    from its first to its last cell, and openpyxl's parser reads every row
    an .xlsx has, formatted or not)."""

    keep: int
    last_line: int


@dataclass
class SheetRow:
    line: int  # the row's number in the file, as the spreadsheet shows it
    cells: list[str]
    hidden: bool = False  # hidden or filtered out in the file


@dataclass
class Sheet:
    name: str  # empty for a CSV
    rows: list[SheetRow] = field(default_factory=list)
    # More than the reader's limit of rows with something in them.
    too_long: bool = False


def _kind(head: bytes, filename: str) -> str:
    name = filename.lower()
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        return "xls"
    if head.startswith(b"PK"):
        if name.endswith(".ods"):
            return "ods"
        if name.endswith((".xlsx", ".xlsm")):
            return "xlsx"
        return "zip"
    if name.endswith((".csv", ".txt", ".tsv")):
        return "csv"
    if name.endswith((".xlsx", ".xlsm", ".xls", ".ods")):
        return "damaged"  # named as a spreadsheet, but none inside
    return ""


def _wrong_type() -> UserError:
    return UserError(
        _(
            "Falscher Dateityp: diese Datei kann nicht gelesen werden. Es gehen "
            "Excel (.xlsx, .xls), LibreOffice (.ods) und CSV (.csv)."
        ),
        code="file_type",
    )


def _unreadable() -> UserError:
    return UserError(
        _(
            "Die Datei ist beschädigt oder keine Tabelle: sie lässt sich nicht "
            "lesen. Es gehen Excel (.xlsx, .xls), LibreOffice (.ods) und CSV (.csv)."
        ),
        code="unreadable",
    )


def read_sheets(
    upload: IO[bytes], *, size: int, filename: str, limit: int
) -> Iterator[Sheet]:
    """The visible sheets of an uploaded file, in order, each read when it
    is reached (a CSV is one sheet). Each keeps at most `limit` rows with
    something in them plus a few for a title and the header (else
    `too_long`). UserError for a file too large, of a type no reader here
    reads, or damaged."""
    if size > settings.IMPORT_MAX_BYTES:
        raise UserError(
            _("Die Datei ist zu groß (%(size)d MB); höchstens %(max)d MB.")
            % {"size": size // 2**20, "max": settings.IMPORT_MAX_BYTES // 2**20},
            code="too_large",
        )
    data = upload.read(settings.IMPORT_MAX_BYTES + 1)
    kind = _kind(data[:8], filename)
    if kind == "zip":
        kind = _zip_kind(data)
    if not kind:
        raise _wrong_type()
    if kind == "damaged":
        raise _unreadable()
    bounds = Bounds(keep=limit + HEADER_ROWS, last_line=2 * limit + 10_000)
    if kind in ("xlsx", "ods"):
        refuse_zip_bomb(io.BytesIO(data), _unreadable())
    try:
        if kind == "csv":
            yield _csv_sheet(data, bounds)
        elif kind == "xlsx":
            yield from _xlsx_sheets(data, bounds)
        elif kind == "xls":
            yield from _xls_sheets(data, bounds)
        else:
            yield from _ods_sheets(data, bounds)
    except UserError:
        raise
    except (*DAMAGED, RuntimeError, UnicodeError, csv.Error, XLRDError) as error:
        raise _unreadable() from error


# A list's header is looked for in its first rows with something in them
# (a title, a date, an empty line above are common).
HEADER_ROWS = 10


def _zip_kind(data: bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            if "xl/workbook.xml" in names:
                return "xlsx"
            if "content.xml" in names:
                return "ods"
    except DAMAGED:
        raise _unreadable() from None
    return ""


def text_of(value: Any) -> str:
    """A cell as text: a date as Germans write it, 3 for 3.0."""
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time():
            return value.strftime("%d.%m.%Y")
        return value.strftime("%d.%m.%Y %H:%M")
    if isinstance(value, datetime.date):
        return value.strftime("%d.%m.%Y")
    if isinstance(value, bool):
        return _("ja") if value else _("nein")
    return cell_text(value)


def _add(sheet: Sheet, line: int, values: Any, hidden: bool, bounds: Bounds) -> bool:
    """Keep a row that has something in it; False once the sheet is too
    long to read further."""
    cells = [text_of(v) for v in list(values)[:MAX_COLUMNS]]
    while cells and not cells[-1]:
        cells.pop()
    if not cells:
        return True
    if line > bounds.last_line:
        raise _too_far(bounds.last_line)
    if len(sheet.rows) >= bounds.keep:
        sheet.too_long = True
        return False
    sheet.rows.append(SheetRow(line=line, cells=cells, hidden=hidden))
    return True


def _xlsx_sheets(data: bytes, bounds: Bounds) -> Iterator[Sheet]:
    """openpyxl's own sheet parser, row by row as the file has them (a gap
    of a million rows costs nothing), with each row's attributes: the
    rows Excel hides, by hand or by a filter, say hidden="1"."""
    from openpyxl import load_workbook
    from openpyxl.worksheet._reader import WorkSheetParser

    workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        for ws in workbook.worksheets:
            if ws.sheet_state != "visible":
                continue
            sheet = Sheet(name=ws.title)
            with ws._get_source() as source:  # type: ignore[attr-defined]
                parser = WorkSheetParser(
                    source,
                    workbook.shared_strings,
                    data_only=True,
                    epoch=workbook.epoch,
                    date_formats=workbook._date_formats,  # type: ignore[attr-defined]
                    timedelta_formats=workbook._timedelta_formats,  # type: ignore[attr-defined]
                )
                for line, cells in parser.parse():
                    if line > bounds.last_line:
                        # Even rows only formatted, far below any list:
                        # reading on costs seconds per 100,000 of them.
                        raise _too_far(bounds.last_line)
                    values: list[Any] = []
                    for cell in cells:
                        column = int(cell["column"])
                        if column <= MAX_COLUMNS:
                            values.extend([None] * (column - len(values) - 1))
                            values.append(cell["value"])
                    attrs = parser.row_dimensions.get(str(line), {})
                    hidden = attrs.get("hidden") in ("1", "true")
                    if not _add(sheet, line, values, hidden, bounds):
                        break
            yield sheet
    finally:
        workbook.close()


def _xls_sheets(data: bytes, bounds: Bounds) -> Iterator[Sheet]:
    """xlrd, with each row as long as its cells (a cell in the last row
    and column costs one cell) and the rows' formatting (hidden)."""
    import xlrd

    book = xlrd.open_workbook(
        file_contents=data, formatting_info=True, ragged_rows=True, on_demand=True
    )
    try:
        for index in range(book.nsheets):
            xs = book.sheet_by_index(index)
            if xs.visibility != 0:
                continue
            sheet = Sheet(name=xs.name)
            for r in range(xs.nrows):
                values: list[Any] = []
                for cell in xs.row(r)[:MAX_COLUMNS]:
                    if cell.ctype == xlrd.XL_CELL_ERROR:
                        values.append(xlrd.error_text_from_code.get(cell.value, "#?"))
                    elif cell.ctype == xlrd.XL_CELL_DATE:
                        values.append(
                            xlrd.xldate_as_datetime(cell.value, book.datemode)
                        )
                    else:
                        values.append(cell.value)
                info = xs.rowinfo_map.get(r)
                hidden = bool(info is not None and info.hidden)
                if not _add(sheet, r + 1, values, hidden, bounds):
                    break
            yield sheet
    finally:
        book.release_resources()


def _ods_sheets(data: bytes, bounds: Bounds) -> Iterator[Sheet]:
    """calamine's values; what the file hides, and how far its cells
    reach, from its table description (`_ods_extent`)."""
    from python_calamine import CalamineError, CalamineWorkbook, SheetVisibleEnum

    hidden_rows = _ods_extent(data, bounds.last_line)
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        for index, meta in enumerate(workbook.sheets_metadata):
            if meta.visible != SheetVisibleEnum.Visible:
                continue
            calamine = workbook.get_sheet_by_index(index)
            sheet = Sheet(name=calamine.name)
            hidden = hidden_rows.get(calamine.name, set())
            # calamine's rows start at the sheet's first row.
            for line, values in enumerate(calamine.iter_rows(), start=1):
                if not _add(sheet, line, values, line in hidden, bounds):
                    break
            yield sheet
    except CalamineError as error:
        raise _unreadable() from error


# How far a list's cells may reach to the right (`Bounds.last_line`
# downwards): calamine holds a sheet as one block from its first to its
# last cell, so a single cell far out would cost gigabytes.
MAX_COLUMN = 1_000


def _ods_extent(data: bytes, last_line: int) -> dict[str, set[int]]:
    """The rows an .ods hides or filters out ("collapse", "filter") by
    sheet name, repeats counted; UserError when a cell with something in
    it lies beyond `last_line` or MAX_COLUMN."""
    from odf.namespaces import OFFICENS, TABLENS
    from odf.opendocument import load
    from odf.table import Table, TableCell, TableRow

    document = load(io.BytesIO(data))
    hidden: dict[str, set[int]] = {}
    for table in document.spreadsheet.getElementsByType(Table):
        name = table.getAttrNS(TABLENS, "name")
        line, rows = 0, set[int]()
        for row in table.getElementsByType(TableRow):
            repeated = int(row.getAttrNS(TABLENS, "number-rows-repeated") or 1)
            column, filled = 0, False
            for cell in row.getElementsByType(TableCell):
                column += int(cell.getAttrNS(TABLENS, "number-columns-repeated") or 1)
                if cell.getAttrNS(OFFICENS, "value-type") or cell.childNodes:
                    filled = True
                    if column > MAX_COLUMN:
                        raise _too_far(last_line)
            if filled and line + repeated > last_line:
                raise _too_far(last_line)
            if row.getAttrNS(TABLENS, "visibility") not in (None, "visible"):
                rows.update(range(line + 1, min(line + repeated, last_line) + 1))
            line += repeated
        hidden[name] = rows
    return hidden


def _too_far(last_line: int) -> UserError:
    return UserError(
        _(
            "Die Tabelle reicht zu weit: Einträge oder formatierte Zeilen nach "
            "Zeile %(rows)d oder Spalte %(columns)d. Bitte nur die Liste in eine "
            "neue Datei kopieren."
        )
        % {"rows": last_line, "columns": MAX_COLUMN},
        code="too_large",
    )


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    # German Windows (Excel) or an old DOS club database; offered Mac Roman
    # as well, it takes "ö" in Windows-1252 for "ˆ".
    best = from_bytes(data, cp_isolation=["cp1252", "iso8859_15", "cp850"]).best()
    return str(best) if best is not None else data.decode("cp1252", "replace")


def _csv_sheet(data: bytes, bounds: Bounds) -> Sheet:
    text = _decode(data)
    sample = text[:20000]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=";,\t")
        delimiter = dialect.delimiter
    except csv.Error:
        # One column, or a sample the sniffer cannot decide: the character
        # the first line has most of.
        first = sample.splitlines()[0] if sample else ""
        delimiter = max(";,\t", key=first.count)
    sheet = Sheet(name="")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    for line, values in enumerate(reader, start=1):
        if not _add(sheet, line, values, False, bounds):
            break
    return sheet
