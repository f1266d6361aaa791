"""Where photos of score sheets are kept: through Django's storage API
(`storages["sheetphotos"]`), so a server with several machines points them
at storage all of them reach (a shared folder, or a bucket through
django-storages); each photo's files under `<photo id>/`."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.storage import FileSystemStorage, Storage, storages


class PhotoStorage(FileSystemStorage):
    """A folder: SHEET_PHOTO_DIR if set, else VAR_DIR/sheetphotos, read at
    each use (VAR_DIR is the laptop's, and each test's own)."""

    def __init__(self, location: str = "", **options: Any) -> None:
        super().__init__(location=location or None, **options)
        self._folder = location

    @property
    def base_location(self) -> str:
        return self._folder or str(Path(settings.VAR_DIR) / "sheetphotos")

    @property
    def location(self) -> str:
        return str(Path(self.base_location).resolve())


def photo_storage() -> Storage:
    return storages["sheetphotos"]
