"""A photographed score sheet: the photo a table's result was pre-filled
from, kept with the result version it became."""

import uuid
from typing import NotRequired, TypedDict, cast

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.core import Entry
from tournament.models.results import ResultVersion
from tournament.models.seating import Table


class ReadGame(TypedDict):
    """One game as the reader read it (docs/FORMATS.md § Photo reading)."""

    number: int
    """The game's row on the sheet, from 1."""
    winner_seat: int | None
    """The only seat with marks left; None when no single one was read."""
    marks_left: int | None
    flagged: bool
    """A person must look: the review leaves the game empty."""
    confidence: float
    """0 to 1: how far the least clear cell is from doubt."""
    reason: NotRequired[str]
    """Why it is flagged: "order", "faint" or ""; photos read before the
    reader said why have none."""


class ReadingFrame(TypedDict):
    """Where the review's sheet image stands on the printed page, in mm."""

    x: float
    y: float
    w: float
    h: float


class StoredReading(TypedDict):
    """`SheetPhoto.reading` (docs/FORMATS.md § Photo reading)."""

    games: list[ReadGame]
    cells: NotRequired[list[tuple[int, int, int, str]]]
    """Every stroke cell as read: game, seat, mark, state; the review's
    buttons over the picture. Photos read before it have none."""
    frame: NotRequired[ReadingFrame]
    milliseconds: int


class SheetPhoto(models.Model):
    """One photo of a table's score sheet, read by the sheet reader. It
    pre-fills the result form; a person checks it and saves, and the version
    that saving made is linked here (`version`). The image files live under
    VAR_DIR/sheetphotos/<id>/ (the photo as sent up to its image's end, the
    review images); `sha256` and `size` are those of the photo kept; when
    they are deleted (the organizer, or after SHEET_PHOTO_RETENTION_DAYS)
    the row stays with its hash, so a version still says it came from a
    photo and which one."""

    # A random id: the address of a photo is not guessable.
    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("Nr.")
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="sheet_photos",
        verbose_name=_("Tisch"),
    )
    sha256 = models.CharField(_("Prüfsumme (SHA-256)"), max_length=64)
    size = models.PositiveIntegerField(_("Größe (Bytes)"))
    file_name = models.CharField(_("Dateiname"), max_length=40)
    # What the reader read: a `StoredReading`, read through `read_record`
    # and `games_read`.
    reading = models.JSONField(verbose_name=_("Gelesen"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fotografiert von"),
    )
    # A player of the table (entry at the table, his personal link).
    uploaded_by_player = models.ForeignKey(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fotografiert von Spieler"),
    )
    uploaded_at = models.DateTimeField(
        auto_now_add=True, verbose_name=_("fotografiert am")
    )
    version = models.OneToOneField(
        ResultVersion,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="photo",
        verbose_name=_("Ergebnisversion"),
    )
    # When the image files were deleted (the row and its hash stay).
    deleted_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("Bild gelöscht am")
    )

    class Meta:
        ordering = ["-uploaded_at"]
        verbose_name = _("Foto einer Spielliste")
        verbose_name_plural = _("Fotos von Spiellisten")
        indexes = [models.Index(fields=["uploaded_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(uploaded_by__isnull=True)
                | Q(uploaded_by_player__isnull=True),
                name="sheet_photo_uploaded_by_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.sha256[:12]}"

    @property
    def has_image(self) -> bool:
        return self.deleted_at is None

    @property
    def read_record(self) -> StoredReading:
        """`reading` as the record it is: `photo_read` writes nothing else
        into it."""
        return cast(StoredReading, self.reading)

    @property
    def games_read(self) -> list[ReadGame]:
        """The games as read, in the sheet's order."""
        return self.read_record["games"]
