"""Reads of photographed score sheets: a table's photo for its review, what
the review pre-fills, a tournament's photos for the organizer."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import SheetPhoto, Table, Tournament
from tournament.models.sheetphoto import ReadGame
from tournament.sheetphoto.reader.layout import sheet_layout
from tournament.sheetphoto.services import SHEET_FILE, game_file, photo_file_name
from tournament.sheetphoto.storage import photo_storage


def table_photo(table: Table, photo_id: uuid.UUID) -> SheetPhoto | None:
    """The photo `photo_id` of `table` (None: no such photo of this table)."""
    return (
        SheetPhoto.objects.select_related("version")
        .filter(pk=photo_id, table=table)
        .first()
    )


def unreviewed_photos(
    table: Table, *, user: Any = None, player: Any = None
) -> list[SheetPhoto]:
    """The photos of `table` a sender (a signed-in `user`, or a `player` of
    the table) sent that no result was saved from yet, their images kept,
    newest first: a photo sent by the phone's outbox while its page was
    not open waits here for its review."""
    photos = SheetPhoto.objects.filter(
        table=table, version__isnull=True, deleted_at__isnull=True
    )
    if player is not None:
        photos = photos.filter(uploaded_by_player=player)
    elif user is not None and user.is_authenticated:
        photos = photos.filter(uploaded_by=user, uploaded_by_player__isnull=True)
    else:
        return []
    return list(photos.order_by("-uploaded_at"))


def photo_file(photo: SheetPhoto, part: str) -> bytes | None:
    """A review image of the photo: "blatt" the whole sheet outlined, a
    game's number its rows. None if there is none (deleted, no such game)."""
    if not photo.has_image:
        return None
    if part == "blatt":
        name = SHEET_FILE
    elif part.isascii() and part.isdigit() and len(part) <= 2:
        # ASCII digits only: "²" and "①" are digits to isdigit() but not
        # to int().
        name = game_file(int(part))
    else:
        return None
    try:
        with photo_storage().open(photo_file_name(photo.pk, name)) as image:
            return bytes(image.read())
    except FileNotFoundError:
        return None


@dataclass(frozen=True)
class GameNote:
    """What the result form shows with a game read from the photo (see
    `results.forms.GameNote`): its rows on the photo and, read unsure, what
    to do."""

    text: str = ""
    image_url: str = ""
    image_alt: str = ""
    flagged: bool = False


@dataclass(frozen=True)
class TapRow:
    """A player's row of strokes on the sheet: his seat and name, each
    mark's state as read ("struck", "standing" or "doubtful")."""

    seat: int
    name: str
    cells: list[tuple[int, str]]


@dataclass(frozen=True)
class TapGame:
    number: int
    rows: list[TapRow]


@dataclass(frozen=True)
class TapSheet:
    """The strokes of the outlined sheet to tap on, game by game: the
    part of the sheet's image that holds them, in percent of the image
    (`left`, `top`, `width`, `height`), and the games' rows."""

    left: float
    top: float
    width: float
    height: float
    games: list[TapGame]


@dataclass(frozen=True)
class PhotoReview:
    """What the review of a photo shows: the games read clearly (number:
    winner's seat and marks kept) that pre-fill the form, a note per game
    (its picture, and for a game read unsure what to do), the games read
    unsure, and the strokes to correct on the picture (None: a photo read
    before its cells were kept, or its image deleted)."""

    games: dict[int, tuple[int, int]]
    notes: dict[int, GameNote]
    flagged: list[int]
    taps: TapSheet | None = None

    @property
    def summary(self) -> str:
        if not self.flagged:
            return _(
                "Alle Spiele klar gelesen. Bitte trotzdem mit der Spielliste "
                "vergleichen, dann speichern."
            )
        games = ", ".join(str(g) for g in self.flagged)
        return ngettext(
            "Spiel %(games)s ist unsicher gelesen und nicht ausgefüllt: bitte "
            "nach der Spielliste eintragen.",
            "Die Spiele %(games)s sind unsicher gelesen und nicht ausgefüllt: "
            "bitte nach der Spielliste eintragen.",
            len(self.flagged),
        ) % {"games": games}


def _unsure_text(game: ReadGame) -> str:
    reason = game.get("reason", "")
    if reason == "order":
        return _(
            "In einer Zeile sind die Striche nicht von links nach rechts "
            "durchgestrichen (auf dem Bild mit ? umrandet). Bitte auf dem Blatt "
            "nachsehen und Gewinner und Schräm wählen."
        )
    if reason == "faint":
        return _(
            "Die Striche sind zu schwach, um sie sicher zu lesen. Bitte Gewinner "
            "und Schräm wählen – und künftig kräftiger durchstreichen oder gleich "
            "eintippen."
        )
    if game["winner_seat"] is None:
        return _("Kein eindeutiger Gewinner gelesen. Bitte Gewinner und Schräm wählen.")
    return _(
        "Gelesen: Sitz %(seat)d mit %(marks)d Schräm, aber nicht sicher. Bitte "
        "auf dem Blatt nachsehen und wählen."
    ) % {"seat": game["winner_seat"], "marks": game["marks_left"]}


def photo_review(
    photo: SheetPhoto, table: Table, *, image_url: Callable[[str], str]
) -> PhotoReview:
    """What the photo fills the form with: per game read clearly its winner
    and marks (quick entry); a game read unsure stays empty with a note,
    never filled by a guess. `image_url`: the address of a part of the
    photo's review images (`photo_file`)."""
    games: dict[int, tuple[int, int]] = {}
    notes: dict[int, GameNote] = {}
    flagged: list[int] = []
    for game in photo.games_read:
        number = game["number"]
        alt = _("Spiel %(g)d auf dem Foto") % {"g": number}
        url = image_url(str(number)) if photo.has_image else ""
        winner, marks = game["winner_seat"], game["marks_left"]
        if game["flagged"] or winner is None or marks is None:
            flagged.append(number)
            notes[number] = GameNote(
                text=_unsure_text(game), image_url=url, image_alt=alt, flagged=True
            )
            continue
        games[number] = (winner, marks)
        notes[number] = GameNote(image_url=url, image_alt=alt)
    return PhotoReview(
        games=games, notes=notes, flagged=flagged, taps=_tap_sheet(photo, table)
    )


def _tap_sheet(photo: SheetPhoto, table: Table) -> TapSheet | None:
    """The strokes of the photo's outlined sheet, where they stand on its
    image: the printed layout of the table's sheet (the same the reader
    read by) within the image's frame on the page, both in mm."""
    frame = photo.read_record.get("frame")
    cells = photo.read_record.get("cells")
    if not photo.has_image or not frame or not cells or not frame.get("w"):
        return None
    tournament = table.series.tournament
    layout = sheet_layout(
        seats=table.size,
        games=tournament.games_per_series,
        marks=tournament.start_marks,
    )
    states = {(g, s, m): state for g, s, m, state in cells}
    if len(states) != len(layout.cells):
        return None  # read for another layout: nothing to lay over it
    first, last = layout.cells[0].box, layout.cells[-1].box
    names = {
        seat.number: seat.entry.player.full_name
        for seat in table.seats.select_related("entry__player")
    }
    games = [
        TapGame(
            number=g,
            rows=[
                TapRow(
                    seat=s,
                    name=names.get(s, ""),
                    cells=[
                        (m, states.get((g, s, m), "doubtful"))
                        for m in range(1, layout.marks + 1)
                    ],
                )
                for s in range(1, layout.seats + 1)
            ],
        )
        for g in range(1, layout.games + 1)
    ]
    x, y = float(frame["x"]), float(frame["y"])
    w, h = float(frame["w"]), float(frame["h"])
    return TapSheet(
        left=round((first.x - x) / w * 100, 3),
        top=round((first.y - y) / h * 100, 3),
        width=round((last.x + last.w - first.x) / w * 100, 3),
        height=round((last.y + last.h - first.y) / h * 100, 3),
        games=games,
    )


@dataclass(frozen=True)
class TournamentPhotos:
    """A tournament's photos whose images are kept: how many, how many of
    them became a result."""

    kept: int
    saved: int


def tournament_photos(tournament: Tournament) -> TournamentPhotos:
    counts = SheetPhoto.objects.filter(
        table__series__tournament=tournament, deleted_at__isnull=True
    ).aggregate(kept=Count("pk"), saved=Count("pk", filter=Q(version__isnull=False)))
    return TournamentPhotos(kept=counts["kept"] or 0, saved=counts["saved"] or 0)
