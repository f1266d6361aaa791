"""Opening an uploaded .xlsx safely: size, type and readability checked
before anything is parsed. Shared by the player and the games import."""

import zipfile
import zlib
from collections.abc import Iterator
from typing import IO, Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _
from openpyxl import Workbook, load_workbook
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from tournament.core.errors import UserError
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
    try:
        # The sizes the zip declares; unpacking never gives more than these.
        with zipfile.ZipFile(upload) as archive:
            unpacked = sum(item.file_size for item in archive.infolist())
        upload.seek(0)
    except DAMAGED:
        raise _unreadable() from None
    if unpacked > settings.IMPORT_MAX_UNPACKED_BYTES:
        raise UserError(
            _("Die Datei ist entpackt zu groß (%(size)d MB); höchstens %(max)d MB.")
            % {
                "size": unpacked // 2**20,
                "max": settings.IMPORT_MAX_UNPACKED_BYTES // 2**20,
            },
            code="too_large",
        )
    try:
        return load_workbook(upload, read_only=True, data_only=True)
    except DAMAGED:
        raise _unreadable() from None


def upload_rows(
    sheet: ReadOnlyWorksheet, *, max_row: int | None = None
) -> Iterator[tuple[Any, ...]]:
    """The values of a sheet's rows (up to `max_row`) of a workbook opened by
    `open_uploaded_workbook`; a damaged sheet raises UserError when the
    reading gets there."""
    try:
        # types-openpyxl declares ReadOnlyWorksheet.iter_rows as Worksheet's
        # function, whose self is a Worksheet: wrong for a read-only sheet.
        rows = sheet.iter_rows(values_only=True, max_row=max_row)  # type: ignore[misc]
        yield from rows
    except DAMAGED:
        raise _unreadable() from None


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
