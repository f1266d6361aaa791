"""Shared openpyxl styling: bold frozen headers, widths, autofilter."""

from collections.abc import Iterable, Sequence
from io import BytesIO
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def write_table(
    sheet: Worksheet,
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    number_formats: dict[int, str] | None = None,
) -> None:
    """Fill a sheet as a filterable table with a frozen bold header row."""
    sheet.append(list(headers))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    widths = [len(str(h)) for h in headers]
    for row in rows:
        sheet.append(list(row))
        for i, value in enumerate(row):
            widths[i] = max(widths[i], len(str(value)) if value is not None else 0)
    for i, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(i)].width = min(max(width + 2, 8), 50)
    for col, fmt in (number_formats or {}).items():
        for (cell,) in sheet.iter_rows(min_row=2, min_col=col, max_col=col):
            cell.number_format = fmt
    sheet.freeze_panes = "A2"
    if sheet.max_row > 1:
        sheet.auto_filter.ref = sheet.dimensions


def workbook_bytes(workbook: Workbook) -> bytes:
    buffer = BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
