"""Opening an uploaded .xlsx safely: size, type and readability checked
before anything is parsed. Shared by the player and the games import."""

import zipfile
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from tournament.errors import UserError


def open_uploaded_workbook(upload: IO[bytes], *, size: int, filename: str) -> Any:
    """A read-only openpyxl workbook (close it after use), or UserError with
    a message for the organizer. Too large a file is refused unread."""
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
        return load_workbook(upload, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError):
        raise UserError(
            _("Die Datei ist keine lesbare Excel-Datei (.xlsx)."), code="unreadable"
        ) from None
