"""Opening an uploaded .xlsx safely: size, type and readability checked
before anything is parsed; reading its first sheet, its headings and cells
as text, and the row-by-row preview's verdict. Shared by the player, the
champions and the games import."""

import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Generic, Protocol, TypeVar

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _
from openpyxl import Workbook, load_workbook
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from tournament.core.errors import UserError
from tournament.core.text import visible_text
from tournament.models import Tournament

# What openpyxl raises on a damaged file, while opening it and while reading
# rows (a read-only workbook parses a sheet as its rows are read). An XML
# ParseError is a SyntaxError.
DAMAGED = (
    InvalidFileException,
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    OSError,
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    SyntaxError,
)


def _unreadable() -> UserError:
    return UserError(
        _("Die Datei ist keine lesbare Excel-Datei (.xlsx)."), code="unreadable"
    )


def refuse_zip_bomb(source: IO[bytes], unreadable: UserError) -> None:
    """A zip (.xlsx, .ods) that would unpack too large is refused before it
    is unpacked: the sizes it declares bound what unpacking gives.
    `unreadable`: the refusal for what is no zip at all."""
    try:
        with zipfile.ZipFile(source) as archive:
            unpacked = sum(item.file_size for item in archive.infolist())
    except DAMAGED:
        raise unreadable from None
    if unpacked > settings.IMPORT_MAX_UNPACKED_BYTES:
        raise UserError(
            _("Die Datei ist entpackt zu groß (%(size)d MB); höchstens %(max)d MB.")
            % {
                "size": unpacked // 2**20,
                "max": settings.IMPORT_MAX_UNPACKED_BYTES // 2**20,
            },
            code="too_large",
        )


def open_uploaded_workbook(upload: IO[bytes], *, size: int, filename: str) -> Workbook:
    """A read-only openpyxl workbook (close it after use), or UserError with
    a message for the organizer. Too large a file is refused unread, one that
    would unpack too large (a zip bomb) before it is unpacked."""
    if size > settings.IMPORT_MAX_BYTES:
        raise UserError(
            _("Die Datei ist zu groß (%(size)d MB); höchstens %(max)d MB.")
            % {"size": size // 2**20, "max": settings.IMPORT_MAX_BYTES // 2**20},
            code="too_large",
        )
    if not filename.lower().endswith((".xlsx", ".xlsm")):
        raise UserError(
            _("Falscher Dateityp: bitte eine Excel-Datei (.xlsx) hochladen."),
            code="file_type",
        )
    refuse_zip_bomb(upload, _unreadable())
    upload.seek(0)
    try:
        return load_workbook(upload, read_only=True, data_only=True)
    except DAMAGED:
        raise _unreadable() from None


# No import has more than a dozen columns; a club's list may carry more
# beside them. A sheet is read this wide at most: one cell in the last of
# Excel's 16,384 columns would make every row that wide.
MAX_COLUMNS = 100


def upload_rows(sheet: ReadOnlyWorksheet, *, limit: int) -> Iterator[tuple[Any, ...]]:
    """The values of a sheet's rows of a workbook opened by
    `open_uploaded_workbook` (MAX_COLUMNS wide at most): its header and at
    most `limit` rows below it. Every row read counts, an empty one too (a
    sheet of empty rows, or of values only in columns an import ignores,
    costs as much to read as a full one), and a row beyond them ends the
    reading with UserError; so does a damaged sheet when the reading gets
    there."""
    last = limit + 1  # the header's row, then the limit's
    # types-openpyxl declares ReadOnlyWorksheet.iter_rows as Worksheet's
    # function, whose self is a Worksheet: wrong for a read-only sheet.
    rows = sheet.iter_rows(  # type: ignore[misc]
        values_only=True, max_row=last + 1, max_col=MAX_COLUMNS
    )
    for number in range(1, last + 2):
        try:
            values = next(rows, None)
        except DAMAGED:
            raise _unreadable() from None
        if values is None:
            return
        if number > last:
            raise UserError(
                _(
                    "Zu viele Zeilen: höchstens %(max)d unter der Überschrift, "
                    "leere mitgezählt. Bitte leere Zeilen am Ende löschen oder "
                    "die Liste aufteilen."
                )
                % {"max": limit},
                code="too_many_rows",
            )
        yield values


def read_first_sheet(
    upload: IO[bytes],
    *,
    size: int,
    filename: str,
    file_errors: list[str],
    read: Callable[[ReadOnlyWorksheet], None],
) -> None:
    """Open an uploaded workbook and hand its first sheet to `read`; what
    makes the file unreadable (also further in, while `read` reads its rows)
    goes to `file_errors` as the organizer's message. Closes the workbook."""
    try:
        workbook = open_uploaded_workbook(upload, size=size, filename=filename)
    except UserError as error:
        file_errors.append(error.message)
        return
    try:
        if not workbook.worksheets:
            file_errors.append(_("Die Arbeitsmappe enthält kein Blatt."))
            return
        read(workbook.worksheets[0])
    except UserError as error:  # damaged further in
        file_errors.append(error.message)
    finally:
        workbook.close()


def norm_header(value: Any) -> str:
    """A heading as the imports look it up: lower case, letters and digits
    only ("Start-Nr." is "startnr")."""
    return "".join(ch for ch in str(value or "").strip().lower() if ch.isalnum())


def cell_text(value: Any) -> str:
    """A cell's value as text: empty for an empty cell, "3" for Excel's 3.0,
    without invisible characters (as the desk's forms keep names)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return visible_text(str(value))


def row_cells(
    values: Sequence[Any],
    columns: Sequence[str | None],
    text: Callable[[Any], str] = cell_text,
) -> dict[str, str]:
    """A row's cells as text by column key (`columns`: the key of each
    column of the header, None for one left aside); a short row's missing
    cells are empty."""
    return {
        key: text(values[i]) if i < len(values) else ""
        for i, key in enumerate(columns)
        if key is not None
    }


class CheckedRow(Protocol):
    errors: list[str]


RowT = TypeVar("RowT", bound=CheckedRow)


@dataclass
class RowsPreview(Generic[RowT]):
    """An upload checked row by row: what makes the whole file unusable, and
    its rows, each with its errors. Nothing is imported unless it is `ok`."""

    file_errors: list[str] = field(default_factory=list)
    rows: list[RowT] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.file_errors and not any(r.errors for r in self.rows)

    @property
    def error_count(self) -> int:
        return len(self.file_errors) + sum(1 for r in self.rows if r.errors)


def take_preview(
    request: HttpRequest, key: str, tournament: Tournament
) -> dict[str, Any] | None:
    """The checked rows an upload left in the session, once: only for this
    tournament and the token of the page that was confirmed; else a message
    and None (the organizer uploads again)."""
    pending: dict[str, Any] | None = request.session.pop(key, None)
    if (
        not pending
        or pending.get("tournament") != tournament.pk
        or pending.get("token") != request.POST.get("token")
    ):
        messages.error(
            request,
            _(
                "Diese Vorschau ist nicht mehr gültig. "
                "Bitte die Datei erneut hochladen."
            ),
        )
        return None
    return pending
