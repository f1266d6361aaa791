"""The score sheet photographed: a photo read into a pre-filled result
form, the result a person saved from it, and the photos' end.

`photo_read` reads a photo of a table's sheet (in the bounded pool,
`pool.read_bounded`) and keeps it with what was read, so the review page
can show it; nothing of the table's result changes. Only
`result_enter_from_photo`, when a person presses save on the review,
writes a result: through the same services as a typed entry (a referee's
`results.services.result_enter`, a player's
`tableentry.services.result_enter_by_player`), so every check and the
confirmation by a second person apply unchanged; the photo is then linked
to the version it became and its hash goes into the Protokoll.

The image files live in the photos' storage under <id>/ (`storage`); `photos_delete`
(the organizer, for a tournament) and `photos_expire` (after
SHEET_PHOTO_RETENTION_DAYS, by `manage.py housekeeping`) delete them and
keep the rows with their hashes, so a version still says it came from a
photo.
"""

import contextlib
import hashlib
import math
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError, UserError
from tournament.core.ratelimit import count_in_window, seconds_left
from tournament.core.roles import Actor, acting_user
from tournament.models import (
    Entry,
    ResultVersion,
    SheetPhoto,
    Table,
    Tournament,
)
from tournament.models.results import winners_and_marks
from tournament.models.sheetphoto import ReadGame, ReadingFrame, StoredReading
from tournament.results import services as results_services
from tournament.results.services import GameInput
from tournament.sheetphoto.pool import Busy, read_bounded
from tournament.sheetphoto.reader.overlay import ReviewImages
from tournament.sheetphoto.reader.read import (
    MAX_BYTES,
    PX,
    Expected,
    SheetReading,
    SheetRefused,
)
from tournament.sheetphoto.reader.structure import image_length
from tournament.sheetphoto.refusals import refusal_message
from tournament.sheetphoto.storage import photo_storage
from tournament.tableentry import services as tableentry_services

# A photo read but never saved as a result is kept this long (the person
# may come back to its review), then deleted with its row.
UNSAVED_FOR = timedelta(days=1)
# A table keeps at most this many photos not saved as a result: the photo,
# a retake of a blurred one, and the referee's beside a player's; a newer
# one replaces the oldest. So photos sent again and again take at most this
# many times MAX_BYTES of disk per table, and a saved one is never touched.
UNSAVED_PER_TABLE = 3
# How many photos a player (his personal link) and a signed-in user may
# send in PHOTO_WINDOW seconds, counted as the personal links' requests are
# (core.ratelimit: Django's cache, which the workers share). A table sends
# one or two a series (a retake): six leave a player room for bad light; a
# referee who photographs the tables he looks after at the end of a series
# sends one every ten seconds at most: thirty. Beyond them a photo is
# refused before it is read.
PHOTO_WINDOW = 300
PHOTOS_PER_PLAYER = 6
PHOTOS_PER_USER = 30
SHEET_FILE = "sheet.jpg"
PHOTO_SUFFIXES = {"JPEG": ".jpg", "PNG": ".png", "WEBP": ".webp"}


class PhotoRefused(UserError):
    """A photo that gives no pre-filled form: the message says what to do."""


class TooManyPhotos(PhotoRefused):
    """The sender sent his share of photos: `retry_after` seconds until the
    next is taken."""

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message, code="rate_limited")
        self.retry_after = retry_after


def _count_photo(*, actor: Actor, player: Entry | None) -> None:
    """Count a photo sent by `player` or the signed-in `actor`; TooManyPhotos
    beyond their share of the window, saying when to try again."""
    user = acting_user(actor)
    if player is not None:
        key, share = f"sheetphoto:player:{player.pk}", PHOTOS_PER_PLAYER
    elif user is not None:
        key, share = f"sheetphoto:user:{user.pk}", PHOTOS_PER_USER
    else:
        return
    if count_in_window(key, PHOTO_WINDOW) <= share:
        return
    seconds = seconds_left(key, PHOTO_WINDOW)
    minutes = math.ceil(seconds / 60)
    raise TooManyPhotos(
        ngettext(
            "Es wurden gerade sehr viele Fotos geschickt. Bitte in %(minutes)d "
            "Minute noch einmal fotografieren oder das Ergebnis von Hand eingeben.",
            "Es wurden gerade sehr viele Fotos geschickt. Bitte in %(minutes)d "
            "Minuten noch einmal fotografieren oder das Ergebnis von Hand eingeben.",
            minutes,
        )
        % {"minutes": minutes},
        retry_after=seconds,
    )


def photo_file_name(photo_id: uuid.UUID, name: str) -> str:
    """A photo's file `name` in the photos' storage (`storage.photo_storage`)."""
    return f"{photo_id}/{name}"


def game_file(number: int) -> str:
    return f"game-{number}.jpg"


def _expected(table: Table) -> Expected:
    series = table.series
    return Expected(
        tournament=series.tournament.slug, series=series.number, table=table.number
    )


def _refuse_other_layout(reading: SheetReading, table: Table) -> None:
    """A sheet printed for another table size, number of games or marks
    (the table changed after printing: a late arrival on a table of three):
    its rows are not this table's players."""
    sheet = reading.sheet
    tournament = table.series.tournament
    if (sheet.seats, sheet.games, sheet.marks) != (
        table.size,
        tournament.games_per_series,
        tournament.start_marks,
    ):
        raise PhotoRefused(
            _(
                "Diese Spielliste wurde für einen Tisch mit %(printed)d Spielern "
                "gedruckt; Tisch %(t)d hat jetzt %(now)d. Bitte das Ergebnis von "
                "Hand eingeben."
            )
            % {"printed": sheet.seats, "t": table.number, "now": table.size},
            code="other_layout",
        )


def _read(data: bytes, table: Table) -> tuple[SheetReading, ReviewImages]:
    try:
        reading, images = read_bounded(data, expected=_expected(table))
    except SheetRefused as refusal:
        raise PhotoRefused(refusal_message(refusal), code=refusal.code) from None
    except Busy:
        raise PhotoRefused(
            _(
                "Bitte einen Moment, es werden gerade andere Fotos gelesen. In "
                "ein paar Sekunden noch einmal senden."
            ),
            code="busy",
        ) from None
    _refuse_other_layout(reading, table)
    return reading, images


def _suffix(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return PHOTO_SUFFIXES["PNG"]
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return PHOTO_SUFFIXES["WEBP"]
    return PHOTO_SUFFIXES["JPEG"]


def _write_files(
    photo_id: uuid.UUID, data: bytes, suffix: str, images: ReviewImages
) -> None:
    """The photo and its review images, before its row exists: nothing
    shows them until then (files a failed upload left are swept later)."""
    storage = photo_storage()
    files = {f"photo{suffix}": data, SHEET_FILE: images.sheet}
    files |= {game_file(number): image for number, image in images.games.items()}
    for name, content in files.items():
        storage.save(photo_file_name(photo_id, name), ContentFile(content))


def _sent_before(
    table: Table, sha256: str, *, actor: Actor, player: Entry | None
) -> SheetPhoto | None:
    """The photo of these very bytes this sender already sent of `table`,
    its image still kept (None: none)."""
    photos = SheetPhoto.objects.filter(
        table=table, sha256=sha256, deleted_at__isnull=True
    )
    if player is not None:
        photos = photos.filter(uploaded_by_player=player)
    else:
        photos = photos.filter(
            uploaded_by=acting_user(actor), uploaded_by_player__isnull=True
        )
    return photos.order_by("-uploaded_at").first()


def _frame(reading: SheetReading) -> ReadingFrame:
    """Where the review's sheet image stands on the page, in mm: its
    top-left corner and its size (the image is the rectified grid, PX
    pixels a millimetre), so a page can lay each cell's button over it."""
    x0, y0 = reading.origin_mm
    height, width = (
        reading.rectified.shape[:2] if reading.rectified is not None else (0, 0)
    )
    return {
        "x": round(x0, 3),
        "y": round(y0, 3),
        "w": round(width / PX, 3),
        "h": round(height / PX, 3),
    }


def _record(reading: SheetReading) -> StoredReading:
    """What is kept of `reading` (docs/FORMATS.md § Photo reading): its
    games as the reader gives them, each stroke cell's state, the frame."""
    games: list[ReadGame] = reading.as_dict()["games"]
    return {
        "games": games,
        "cells": [(c.game, c.seat, c.mark, c.state) for c in reading.cells],
        "frame": _frame(reading),
        "milliseconds": round(reading.milliseconds),
    }


def photo_read(
    *,
    table: Table,
    data: bytes,
    actor: Actor = None,
    player: Entry | None = None,
) -> SheetPhoto:
    """Read a photo of `table`'s score sheet and keep it for the review:
    who took it (a user, or a player of the table), its hash, what was
    read (each game, each cell's state and where the sheet's image stands
    on the page). PhotoRefused (a UserError) says what to do about a photo
    that cannot be read: not a photo, too large, not a sheet, another
    table's, a moment's wait when others are being read; TooManyPhotos
    (one) when the sender sent his share. The table's result does not
    change; who may enter it the caller checked.

    The same bytes sent again by the same sender (a phone's outbox sending
    a photo taken without network once more, its first answer lost; a
    double tap) are the photo already kept: it is returned, not read or
    counted again, never a second photo. So no transaction is held while
    a photo is read, and a repeat is still answered as the first."""
    # What is read, kept and hashed is the image, up to its end: bytes sent
    # after it are no part of the photo and would fill the disk.
    length = image_length(data) if len(data) <= MAX_BYTES else None
    if length is not None:
        data = data[:length]
        before = _sent_before(
            table, hashlib.sha256(data).hexdigest(), actor=actor, player=player
        )
        if before is not None:
            return before
    _count_photo(actor=actor, player=player)
    if len(data) > MAX_BYTES:
        raise PhotoRefused(refusal_message(SheetRefused("too_large")), code="too_large")
    if length is None:
        raise PhotoRefused(refusal_message(SheetRefused("not_image")), code="not_image")
    reading, images = _read(data, table)
    return _keep(table, data, reading, images, actor=actor, player=player)


def _keep(
    table: Table,
    data: bytes,
    reading: SheetReading,
    images: ReviewImages,
    *,
    actor: Actor,
    player: Entry | None,
) -> SheetPhoto:
    """Keep the photo `data` read as `reading`: its files, then its row,
    unless the same sender's same bytes were kept meanwhile (that photo is
    returned and these files go)."""
    sha256 = hashlib.sha256(data).hexdigest()
    photo_id = uuid.uuid4()
    suffix = _suffix(data)
    _write_files(photo_id, data, suffix, images)
    try:
        with transaction.atomic():
            # The table locked: of two sends of one photo at the same
            # moment (both read meanwhile), the second finds the first's.
            Table.objects.select_for_update().filter(pk=table.pk).first()
            before = _sent_before(table, sha256, actor=actor, player=player)
            if before is None:
                _make_room(table)
                return SheetPhoto.objects.create(
                    id=photo_id,
                    table=table,
                    sha256=sha256,
                    size=len(data),
                    file_name=f"photo{suffix}",
                    reading=_record(reading),
                    uploaded_by=acting_user(actor),
                    uploaded_by_player=player,
                )
    except BaseException:
        _remove_files([photo_id])
        raise
    _remove_files([photo_id])
    return before


def _make_room(table: Table) -> None:
    """Make room for a new photo of `table`: its oldest photos never saved
    as a result beyond UNSAVED_PER_TABLE - 1 are deleted, files and row
    (as an unsaved one expires). Not in the Protokoll: no result came of
    them, as none comes of reading one."""
    unsaved = SheetPhoto.objects.filter(table=table, version__isnull=True)
    old = list(
        unsaved.order_by("-uploaded_at").values_list("pk", flat=True)[
            UNSAVED_PER_TABLE - 1 :
        ]
    )
    if not old:
        return
    # Locked and asked again: one saved meanwhile stays.
    gone = list(
        unsaved.select_for_update().filter(pk__in=old).values_list("pk", flat=True)
    )
    SheetPhoto.objects.filter(pk__in=gone).delete()
    transaction.on_commit(lambda: _remove_files(gone))


def _lock_unsaved(photo: SheetPhoto) -> SheetPhoto:
    """`photo` locked, to be saved as a result: a conflict when it was
    saved already, refused when its image went meanwhile."""
    locked = SheetPhoto.objects.select_for_update().filter(pk=photo.pk).first()
    if locked is not None and locked.version_id is not None:
        raise ConflictError(
            _(
                "Das Ergebnis aus diesem Foto ist schon gespeichert. Bitte "
                "den neuen Stand ansehen."
            )
        )
    if locked is None or not locked.has_image:  # replaced, or expired
        raise UserError(
            _(
                "Dieses Foto wurde inzwischen gelöscht. Bitte die Spielliste "
                "noch einmal fotografieren oder das Ergebnis eingeben."
            ),
            code="photo_deleted",
        )
    return locked


def _audit_saved(
    photo: SheetPhoto, version: ResultVersion, *, actor: Actor, player: Entry | None
) -> None:
    """The Protokoll's line for `version` saved from `photo`: the photo's
    hash, the games read unsure, and those the person changed."""
    read = photo.read_record.get("games", [])
    saved = winners_and_marks(version.games)
    changed = [
        g["number"]
        for g in read
        if g["number"] <= len(saved)
        and (g["winner_seat"], g["marks_left"]) != saved[g["number"] - 1]
    ]
    audit_record(
        actor=actor,
        player=player,
        action="result.photo",
        obj=version,
        tournament=photo.table.series.tournament,
        after={
            "photo": photo.sha256,
            "flagged": [g["number"] for g in read if g["flagged"]],
            "changed": changed,
        },
        note=_("aus Foto, SHA-256 %(hash)s") % {"hash": photo.sha256},
    )


def result_enter_from_photo(
    *,
    photo: SheetPhoto,
    games: Sequence[GameInput],
    mode: str,
    revision: int | None,
    reason: str = "",
    actor: Actor = None,
    player: Entry | None = None,
) -> ResultVersion:
    """A person saves the result form the photo pre-filled (as corrected):
    a referee's entry (`actor`), or a player's at his table (`player`),
    with every check and the confirmation of a typed one. The version is
    linked to the photo, and the Protokoll gets the photo's hash and which
    games were read unsure or changed. A photo saved once is not saved
    again (a conflict); one whose image was deleted meanwhile is refused."""
    with transaction.atomic():
        locked = _lock_unsaved(photo)
        table = locked.table
        if player is not None:
            version = tableentry_services.result_enter_by_player(
                player=player, table=table, games=games, mode=mode, revision=revision
            )
        else:
            version = results_services.result_enter(
                actor=actor,
                table=table,
                games=games,
                mode=mode,
                revision=revision,
                reason=reason,
            )
        locked.version = version
        locked.save(update_fields=["version"])
        _audit_saved(locked, version, actor=actor, player=player)
    photo.version = version
    return version


def _remove_files(photo_ids: Sequence[uuid.UUID | str]) -> None:
    storage = photo_storage()
    for photo_id in photo_ids:
        folder = str(photo_id)
        with contextlib.suppress(FileNotFoundError):
            for name in storage.listdir(folder)[1]:
                storage.delete(f"{folder}/{name}")
        _remove_empty_folder(storage, folder)


def _remove_empty_folder(storage: Storage, folder: str) -> None:
    """A folder on disk stays when its files go (a bucket has none)."""
    try:
        path = Path(storage.path(folder))
    except NotImplementedError:
        return
    with contextlib.suppress(OSError):
        path.rmdir()


def _forget(photos: Any, now: datetime) -> int:
    """The images of `photos` (a queryset) deleted once the transaction
    commits: a saved one keeps its row and hash (its image gone), one
    never saved goes whole. Returns how many."""
    ids = list(photos.values_list("pk", flat=True))
    photos.filter(version__isnull=True).delete()
    SheetPhoto.objects.filter(pk__in=ids).update(deleted_at=now)
    transaction.on_commit(lambda: _remove_files(ids))
    return len(ids)


def photos_delete(*, actor: Actor, tournament: Tournament) -> int:
    """The organizer deletes the photos of a tournament's score sheets:
    their images go, the rows of saved ones stay with their hashes (the
    versions still say "aus Foto"). Audited; returns how many."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        photos = SheetPhoto.objects.filter(
            table__series__tournament=tournament, deleted_at__isnull=True
        )
        count = _forget(photos, timezone.now())
        audit_record(
            actor=actor,
            action="sheetphoto.delete",
            obj=tournament,
            tournament=tournament,
            before={"photos": count},
            after={"photos": 0},
        )
    return count


def photos_expire(*, now: datetime | None = None) -> int:
    """Delete the images of photos older than SHEET_PHOTO_RETENTION_DAYS,
    of photos never saved as a result after UNSAVED_FOR, and folders no row
    knows (a tournament deleted, a restore that replaced one). Each
    tournament's expiry is audited. Returns how many photos went."""
    now = now or timezone.now()
    kept = timedelta(days=int(settings.SHEET_PHOTO_RETENTION_DAYS))
    with transaction.atomic():
        old = SheetPhoto.objects.filter(deleted_at__isnull=True).filter(
            uploaded_at__lt=now - kept
        ) | SheetPhoto.objects.filter(
            deleted_at__isnull=True,
            version__isnull=True,
            uploaded_at__lt=now - UNSAVED_FOR,
        )
        by_tournament = Counter(old.values_list("table__series__tournament", flat=True))
        total = _forget(old, now)
        for tournament in Tournament.objects.filter(pk__in=by_tournament):
            audit_record(
                actor=None,
                action="sheetphoto.expire",
                obj=tournament,
                tournament=tournament,
                before={"photos": by_tournament[tournament.pk]},
                after={"photos": 0},
                note=_("nach %(days)d Tagen") % {"days": kept.days},
            )
    _sweep_unknown(now)
    return total


def _sweep_unknown(now: datetime) -> None:
    """Files of photos no row knows any more, left for a while first (a
    photo being read has its files a moment before its row)."""
    storage = photo_storage()
    try:
        folders = storage.listdir("")[0]
    except FileNotFoundError:
        return
    known = {str(pk) for pk in SheetPhoto.objects.values_list("pk", flat=True)}
    cutoff = now - timedelta(hours=1)
    for folder in folders:
        if folder in known:
            continue
        names = storage.listdir(folder)[1]
        if any(storage.get_modified_time(f"{folder}/{n}") > cutoff for n in names):
            continue
        _remove_files([folder])
