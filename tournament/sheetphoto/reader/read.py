"""Read a photographed score sheet: which marks are struck, and so who won
each game with how many marks left.

The steps: decode the image within bounds (bytes and pixels are checked
from its header, before a pixel is decoded: an image bomb, or an image
that would cost more to decode than a photo of a sheet, is refused),
turn it upright (EXIF), find the four corner markers, read the QR code
(whose sheet, which layout), rectify the grid to millimetres, divide out
the light (and smooth a dim photo's noise), re-register each row on its
printed rules, and score each stroke cell by the lines drawn in it, two
ways: outside its printed stroke any line and, over the stroke, what is
darker than the sheet prints it (the masked view); and all its lines,
the printed stroke's included (a pencil or faint strike nearly along the
stroke lies on it, no darker than the print, but adds to its ink). A
smudge or a shadow is no line.

Whether a cell is struck is decided against the sheet itself, not a fixed
level: every game has exactly one winner, who keeps 1 to all marks, and
every other player's marks are all struck. So the least of each game's
last marks is a printed stroke alone (the standing level, and its noise),
and most of a game, and of a loser's row, is struck (the level of that
writer and pen: a sheet may be struck in pencil and ballpoint). A cell
clearly above the noise and near its row's level is struck, one within
the noise stands, and one between, or outside the photo, is doubtful;
one the masked view reads standing but whose lines stand out is
doubtful too. The sheet prints "von links nach rechts": the struck marks
of a row are its first ones, so a doubtful cell in a row whose last mark
is clearly struck and none clearly stands is struck, one after a mark
both views see standing stands when the lines see strokes alone from
there to the row's end (a smudge's edge, an erased strike's remains),
and the one unsure mark where a row's strikes end stands when in both
views it holds a small share of the row's weakest strike and the lines
see the row's pen plainly; a row that breaks the rule is flagged with
its cells. The game's rule settles more: where exactly one row of a game
has a mark plainly standing in both views, and no other row a mark the
masked view reads standing, every other row is a loser's: its unsure
marks are struck. Where a row's strikes end the
count of marks left is read, so there both views must agree plainly:
the first standing mark a stroke alone in each, the last struck one
with a third of its writer's ink or more in all its lines (a strike
along the stroke lies partly on it; an erased strike or a stray line's
end has less), or struck as the row's others in the masked view. A game
with a doubtful cell, or without exactly one player with marks left, is
flagged for a person: never guessed silently.

Refusals are `SheetRefused` with a stable code and its parameters; the
caller words them (tournament/sheetphoto/refusals.py).
"""

import contextlib
import io
import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import zxingcpp
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from tournament.sheetphoto.reader.layout import (
    LEFT,
    MARKER_IDS,
    PAYLOAD_PREFIX,
    RIGHT,
    SheetId,
    SheetLayout,
    parse_payload,
)
from tournament.sheetphoto.reader.markers import dictionary
from tournament.sheetphoto.reader.structure import jpeg_buffered

Gray = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

# Bounds on what is read: a phone's photo scaled in the browser is a JPEG
# of a few hundred KB and at most 2400 px (static/js/sheetphoto.js); a
# camera's original up to ~15 MB and 50 MP.
MAX_BYTES = 25 * 1024 * 1024
# A JPEG is decoded reduced (`draft`: libjpeg's DCT scaling by 1/2, 1/4 or
# 1/8) to no less than WORK_SIDE on its long side, in grey: below about
# (2 × WORK_SIDE)² pixels whatever its size (a 60 MP photo: 4500 × 3300,
# 32 MB, 0.1 s). MAX_PIXELS bounds the rest: every coefficient is still
# entropy-decoded.
MAX_PIXELS = 60_000_000
# Any other image is decoded whole before it is reduced: a PNG or a WebP,
# and a JPEG whose coefficients libjpeg keeps whole (`jpeg_buffered`:
# progressive, or scans one colour after another), at 3 to 16 bytes a
# pixel (measured: a 60 MP PNG of 190 KB took 0.5 s and 290 MB, a 60 MP
# WebP of 2 KB 1.5 s and 900 MB). So at most WHOLE_PIXELS: an A4 page
# scanned at 300 dpi (2480 × 3508, 8.7 MP) fits; more would be decoded
# only to be reduced to WORK_SIDE (a 4:3 photo is read at 2400 × 1800,
# 4.3 MP). An interlaced (Adam7) PNG has the same bound: Pillow holds every
# PNG whole once decoded, and interlacing adds only its passes' rows (a
# 12 MP one peaked at the same 61 MB as its plain twin).
WHOLE_PIXELS = 10_000_000
MIN_SIDE = 600  # px on the short side: below, strokes are a pixel wide
WORK_SIDE = 2400  # the long side the photo is read at
FORMATS = ("JPEG", "PNG", "WEBP")

# The rectified grid: pixels per millimetre.
PX = 5.0
QR_PX = 8.0
# A cell's ink is counted inside these insets (the rules above and below);
# within a band this wide around its printed stroke only what is darker
# than the printed stroke counts (the band allows for the fit's error).
CELL_INSET_X = 0.5
CELL_INSET_Y = 1.0
STROKE_MASK_MM = 1.0
# Darkness below the floor is paper (and grain); above it, ink. The floor
# is GRAIN_TIMES the sheet's typical line darkness (its grain and the
# camera's noise), between INK_FLOOR_MIN and INK_FLOOR: a clean scan keeps
# a faint pen's lines.
INK_FLOOR = 0.07
INK_FLOOR_MIN = 0.035
GRAIN_TIMES = 4.0
# A photo whose typical line darkness (the paper's grain and the camera's
# noise) is above NOISY_GRAIN is smoothed over NOISY_SMOOTH_MM first.
NOISY_GRAIN = 0.025
NOISY_SMOOTH_MM = 0.14
# Lines are what is darker than its surroundings within this width (a
# pen's line is at most 1 mm wide; a smudge or a shadow is broader).
LINE_MM = 1.6
# Over the printed stroke, ink counts where it is this much darker than
# the sheet's printed stroke.
OVER_MARGIN = 0.12
STROKE_SAMPLES = 15
# A cell less than this share of which is in the photo is not seen.
SEEN_SHARE = 0.97
# A row's rules are searched this far from where the markers put them.
REGISTER_MM = 1.5
# A cell is surely standing below DOUBT_LOW of the way from the standing
# level to its row's struck level, and surely struck above DOUBT_HIGH; in
# the noise of the sheet's standing marks (times NOISE_LOW and NOISE_HIGH
# above them) nothing is sure.
DOUBT_LOW = 0.03
DOUBT_HIGH = 0.2
NOISE_LOW = 4.0
NOISE_HIGH = 6.0
NOISE_FLOOR = 0.00001
# A cell the masked view doubts is struck when its lines are this many
# times their margin above their threshold.
LINES_SURE = 3.0
# A cell the masked view reads standing is struck when its lines are so
# far above their threshold and hold this share of its writer's strike.
ALONG_SHARE = 0.6
# Where a row's strikes end, in shares of its writer's strike (in all its
# lines): its last struck mark is plain from BOUNDARY_SHARE, its first
# standing mark a stroke alone below BOUNDARY_LINES.
BOUNDARY_SHARE = 0.35
BOUNDARY_LINES = 0.1
# An unsure mark where a row's strikes end stands when, in both views, its
# ink beyond the row's own standing marks is less than this share of the
# row's weakest strike.
BOUNDARY_NEAR = 0.15
# A row's last struck mark with less than BOUNDARY_SHARE in its lines is
# plain still when the masked view sees it struck as the row's others (a
# share of their median between these) and its lines hold this much.
BOUNDARY_ALIKE = (0.8, 1.5)
BOUNDARY_ALIKE_LINES = 0.2
# A row's last struck mark with less than this share of the row's
# strongest strike before it, in both views, is another pen's.
BOUNDARY_WEAKER = 0.3
# A row's first standing marks, at least FAINT_RUN of them, holding this
# share of their writer's strike and this many times the ink of the
# standing marks after them, are a faint pen's strikes.
FAINT_RUN = 2
FAINT_RUN_SHARE = 0.01
FAINT_RUN_TIMES = 10.0
# A game with this many cells between the levels has strikes too faint to
# read surely: the person is asked to strike more firmly.
FAINT_CELLS = 3
# A sheet with nothing struck clearly but this share of its cells inked
# above the noise is struck faintly.
FAINT_SHEET_SHARE = 0.2
# A row's own strikes set its level (another pen) when they reach this
# share of its game's level; a weaker row has no strikes of its own.
ROW_LEVEL_SHARE = 0.2
# Less of a gap than this between the levels: nothing is struck.
MIN_GAP = 0.0003
# A game's own standing level may lie this share of its gap above the
# sheet's.
LOCAL_SHARE = 0.35
# Markers further than this from where the layout puts them (mm, after
# the fit): not one flat sheet.
MAX_MARKER_ERROR_MM = 3.0


class SheetRefused(Exception):
    """The photo cannot be read: `code` says why (see CODES), `params` what
    the sentence names (e.g. the table of the sheet photographed)."""

    CODES = (
        "too_large",  # more bytes than MAX_BYTES
        "not_image",  # not a JPEG/PNG/WebP, or broken
        "too_many_pixels",  # an image bomb, or a camera beyond MAX_PIXELS
        "too_many_pixels_whole",  # decoded whole (a PNG…) beyond WHOLE_PIXELS
        "too_small",  # too few pixels to see strokes
        "not_found",  # no sheet: its corner markers are not in the photo
        "old_sheet",  # a sheet printed before sheets were readable
        "no_code",  # markers found, the QR code not readable
        "wrong_sheet",  # another tournament's, series' or table's sheet
        "blank",  # nothing struck on the sheet
    )

    def __init__(self, code: str, **params: object) -> None:
        assert code in self.CODES, code
        super().__init__(code, params)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Expected:
    """The sheet the caller waits for: a photo of another is refused."""

    tournament: str
    series: int | None = None
    table: int | None = None


@dataclass(frozen=True)
class CellReading:
    game: int
    seat: int
    mark: int
    score: float  # ink outside the printed stroke, 0..1
    struck: bool
    doubtful: bool

    @property
    def state(self) -> str:
        if self.doubtful:
            return "doubtful"
        return "struck" if self.struck else "standing"


@dataclass(frozen=True)
class GameReading:
    number: int
    winner_seat: int | None  # None: no single player with marks left
    marks_left: int | None
    flagged: bool  # a person must look: the reading is not clear
    confidence: float  # 0..1: the least clear cell's distance from doubt
    # Why it is flagged: "order" (a row's struck marks are not its first
    # ones), "faint" (its strikes barely stand out), "" (otherwise).
    reason: str = ""


@dataclass(frozen=True)
class SheetReading:
    sheet: SheetId
    games: tuple[GameReading, ...]
    cells: tuple[CellReading, ...]
    threshold: float
    milliseconds: float
    # The rectified grid (page millimetres × PX, from `origin_mm`) for a
    # review screen to outline the cells on; not part of `as_dict`.
    rectified: Gray | None = field(default=None, repr=False, compare=False)
    origin_mm: tuple[float, float] = (0.0, 0.0)

    def as_dict(self) -> dict[str, Any]:
        """What pre-fills the result form (and `readsheet --json`)."""
        return {
            "tournament": self.sheet.tournament,
            "series": self.sheet.series,
            "table": self.sheet.table,
            "games": [
                {
                    "number": g.number,
                    "winner_seat": g.winner_seat,
                    "marks_left": g.marks_left,
                    "flagged": g.flagged,
                    "confidence": round(g.confidence, 2),
                    "reason": g.reason,
                }
                for g in self.games
            ],
            "cells": [
                {
                    "game": c.game,
                    "seat": c.seat,
                    "mark": c.mark,
                    "score": round(c.score, 4),
                    "state": c.state,
                }
                for c in self.cells
            ],
        }


# --- Decoding the image -----------------------------------------------------


def _bound(image: ImageFile.ImageFile, data: bytes) -> None:
    """Refuse an image that would cost more to decode than it may (its
    header says its size), and let a JPEG be decoded reduced."""
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise SheetRefused("too_many_pixels")
    if min(width, height) < MIN_SIDE:
        raise SheetRefused("too_small")
    if image.format == "JPEG":
        # Reduced as far as the long side keeps WORK_SIDE: a target of
        # WORK_SIDE on both sides would leave a long narrow image whole.
        scale = WORK_SIDE / max(width, height)
        image.draft("L", (round(width * scale) or 1, round(height * scale) or 1))
    whole = image.format != "JPEG" or jpeg_buffered(data)
    if whole and width * height > WHOLE_PIXELS:
        raise SheetRefused(
            "too_many_pixels_whole",
            format=image.format,
            megapixels=WHOLE_PIXELS // 1_000_000,
        )


def _grey(image: Image.Image) -> Gray:
    """The image's grey levels in 8 bits. A 16-bit grey PNG opens in a
    mode of integers ("I;16", "I;16B" or "I"), whose convert("L") clips
    every level above 255 to white: its 8-bit level is its high byte."""
    if image.mode.startswith("I"):
        wide = np.asarray(image, dtype=np.int32)
        return np.asarray(np.clip(wide >> 8, 0, 255), dtype=np.uint8)
    return np.asarray(image.convert("L"), dtype=np.uint8)


def decode_image(data: bytes) -> Gray:
    """The photo as an upright grey image of at most WORK_SIDE pixels on
    its long side. Its size is read from the header and bounded (`_bound`)
    before any pixel is decoded."""
    if len(data) > MAX_BYTES:
        raise SheetRefused("too_large", megabytes=MAX_BYTES // (1024 * 1024))
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in FORMATS:
                raise SheetRefused("not_image")
            _bound(image, data)
            grey = _grey(ImageOps.exif_transpose(image))
    except SheetRefused:
        raise
    except Image.DecompressionBombError as error:
        raise SheetRefused("too_many_pixels") from error
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
        raise SheetRefused("not_image") from error
    long_side = max(grey.shape)
    if long_side > WORK_SIDE:
        scale = WORK_SIDE / long_side
        size = (round(grey.shape[1] * scale), round(grey.shape[0] * scale))
        resized = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        grey = np.asarray(resized, dtype=np.uint8)
    return grey


# --- Markers, code, rectification -------------------------------------------


def find_markers(grey: Gray) -> dict[int, Floats]:
    """The corner markers found: id → its 4 corners (clockwise from its
    top-left as printed) in image pixels."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary(), parameters)
    corners, ids, _rejected = detector.detectMarkers(grey)
    found: dict[int, Floats] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        key = int(marker_id)
        if key in MARKER_IDS and key not in found:
            found[key] = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    return found


def _homography(
    markers: dict[int, Floats], layout_boxes: dict[int, tuple[tuple[float, float], ...]]
) -> tuple[Floats, float]:
    """Image pixels → page millimetres from the markers both know, and the
    worst distance (mm) of a marker corner from where it should be."""
    src = np.concatenate([markers[k] for k in sorted(markers) if k in layout_boxes])
    dst = np.asarray(
        [p for k in sorted(markers) if k in layout_boxes for p in layout_boxes[k]],
        dtype=np.float32,
    )
    matrix, _mask = cv2.findHomography(src, dst, 0)
    if matrix is None:
        raise SheetRefused("not_found")
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), matrix).reshape(-1, 2)
    error = float(np.max(np.linalg.norm(projected - dst, axis=1)))
    return np.asarray(matrix, dtype=np.float32), error


def _warp(
    grey: Gray, to_mm: Floats, x0: float, y0: float, w: float, h: float, px: float
) -> Gray:
    """The page rectangle (x0, y0, w, h) in mm, rectified at `px` per mm."""
    scale = np.asarray([[px, 0, -x0 * px], [0, px, -y0 * px], [0, 0, 1]], np.float32)
    size = (round(w * px), round(h * px))
    warped = cv2.warpPerspective(
        grey, scale @ to_mm, size, flags=cv2.INTER_LINEAR, borderValue=255
    )
    return np.asarray(warped, dtype=np.uint8)


def _warp_seen(
    shape: tuple[int, ...], to_mm: Floats, x0: float, y0: float, w: float, h: float
) -> Gray:
    """1 where the rectified grid shows the photo, 0 where it lies beyond
    the photo's edge (there the warp shows its border, not paper)."""
    inside = np.ones(shape[:2], np.uint8)
    scale = np.asarray([[PX, 0, -x0 * PX], [0, PX, -y0 * PX], [0, 0, 1]], np.float32)
    seen = cv2.warpPerspective(
        inside,
        scale @ to_mm,
        (round(w * PX), round(h * PX)),
        flags=cv2.INTER_NEAREST,
        borderValue=0,
    )
    return np.asarray(seen, dtype=np.uint8)


def _decode_codes(grey: Gray) -> list[str]:
    formats = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    results = zxingcpp.read_barcodes(grey, formats=formats)
    return [r.text for r in results if r.valid]


def read_code(
    grey: Gray,
    to_mm: Floats | None,
    box: tuple[float, ...],
    *,
    markers: bool = False,
) -> SheetId:
    """The sheet its own QR code names: from its rectified crop if the top
    markers give one, else from the whole photo. Only the sheet's code
    names it: with a corner marker in the photo (`markers`) the phones'
    code beside it (the table page's address) says nothing about the
    sheet, so a sheet code cut off is unreadable, not an older sheet."""
    texts: list[str] = []
    if to_mm is not None:
        x, y, w, h = box
        crop = _warp(grey, to_mm, x - 3, y - 3, w + 6, h + 6, QR_PX)
        texts = _decode_codes(crop)
    if not any(parse_payload(t) for t in texts):
        texts += _decode_codes(grey)
    for text in texts:
        sheet = parse_payload(text)
        if sheet is not None:
            return sheet
    if any(t.startswith(PAYLOAD_PREFIX) for t in texts):
        raise SheetRefused("old_sheet")  # a layout version this reader lacks
    if texts and not markers:
        # No markers: a sheet printed before sheets were readable carries
        # only the table page's link.
        raise SheetRefused("old_sheet" if _is_table_link(texts) else "not_found")
    raise SheetRefused("no_code")


def _is_table_link(texts: list[str]) -> bool:
    # Sheets printed before they were readable carry the table page's link.
    return any("/tisch/" in t for t in texts)


# --- Light, rows, cells -----------------------------------------------------


def darkness(grey: Gray) -> Floats:
    """0 for paper, 1 for black: the grey divided by the paper's own light
    (its brightest nearby, smoothed), so shadows and uneven light cancel."""
    # At a quarter of the size: the light changes slowly, and it is fast.
    small = cv2.resize(
        grey, (grey.shape[1] // 4, grey.shape[0] // 4), interpolation=cv2.INTER_AREA
    )
    kernel = max(3, int(3.0 * PX / 4) | 1)
    paper_small = cv2.dilate(small, np.ones((kernel, kernel), np.uint8))
    paper_small = cv2.GaussianBlur(paper_small, (0, 0), PX)
    paper = cv2.resize(
        paper_small, (grey.shape[1], grey.shape[0]), interpolation=cv2.INTER_LINEAR
    )
    ratio = grey.astype(np.float32) / np.maximum(paper.astype(np.float32), 1.0)
    return np.asarray(np.clip(1.0 - ratio, 0.0, 1.0), dtype=np.float32)


def _rule_offsets(
    dark: Floats, layout: SheetLayout, x0: float, y0: float
) -> list[float | None]:
    """How far (mm) each horizontal rule lies from where the markers put it:
    the rules cross the whole grid, so the median of a pixel row is high
    on a rule and low on text and strikes."""
    x_from = round((LEFT + 1 - x0) * PX)
    x_to = round((RIGHT - 1 - x0) * PX)
    profile = np.median(dark[:, x_from:x_to], axis=1)
    reach = round(REGISTER_MM * PX)
    offsets: list[float | None] = []
    for y in layout.rules:
        at = round((y - y0) * PX)
        low, high = max(at - reach, 0), min(at + reach + 1, len(profile))
        if high - low < 3:
            offsets.append(None)
            continue
        window = profile[low:high]
        peak = int(np.argmax(window))
        if window[peak] < 0.05 or window[peak] < 2.0 * float(np.median(window)):
            offsets.append(None)
            continue
        offsets.append((low + peak - at) / PX)
    return offsets


def _row_shifts(offsets: list[float | None], rows: int) -> list[float]:
    known = [o for o in offsets if o is not None]
    default = float(np.median(known)) if known else 0.0
    shifts = []
    for row in range(rows):
        ends = [o for o in (offsets[row], offsets[row + 1]) if o is not None]
        shifts.append(sum(ends) / len(ends) if ends else default)
    return shifts


def _stroke_points(
    layout: SheetLayout, shifts: list[float], x0: float, y0: float
) -> Floats:
    """Points (rectified pixels) along the middle of each cell's printed
    stroke, its ends left out: cells × STROKE_SAMPLES × (x, y)."""
    strokes = np.asarray([c.stroke for c in layout.cells], np.float32)
    rows = np.asarray(
        [(c.game - 1) * layout.seats + c.seat - 1 for c in layout.cells], int
    )
    dy = np.asarray(shifts, np.float32)[rows]
    a = np.stack([strokes[:, 0] - x0, strokes[:, 1] + dy - y0], axis=1)
    b = np.stack([strokes[:, 2] - x0, strokes[:, 3] + dy - y0], axis=1)
    t = np.linspace(0.15, 0.85, STROKE_SAMPLES, dtype=np.float32)[None, :, None]
    return np.asarray((a[:, None] + (b - a)[:, None] * t) * PX, np.float32)


@dataclass(frozen=True)
class CellInk:
    """Each cell's ink (layout order), seen two ways: `masked`, the lines
    drawn in it outside its printed stroke and, over the stroke, what is
    darker than the sheet prints it (blind to a strike along the stroke in
    a pen no darker than the print); `lines`, all its lines, the printed
    stroke's included (such a strike is more ink than a stroke alone, but
    the print's own ink varies with light and focus). `whole`: the cell was
    seen whole (the rectified photo's own pixels, not its border)."""

    masked: npt.NDArray[np.float64]
    lines: npt.NDArray[np.float64]
    whole: npt.NDArray[np.bool_]


def _box_sum(
    integral: npt.NDArray[Any], top: int, bottom: int, left: int, right: int
) -> float:
    """The sum over a box, from an integral image (`cv2.integral`)."""
    return float(
        integral[bottom, right]
        - integral[top, right]
        - integral[bottom, left]
        + integral[top, left]
    )


def cell_scores(
    dark: Floats, layout: SheetLayout, x0: float, y0: float, seen: Gray | None = None
) -> CellInk:
    """Each cell's ink (see `CellInk`)."""
    offsets = _rule_offsets(dark, layout, x0, y0)
    shifts = _row_shifts(offsets, layout.games * layout.seats)
    # Lines, not patches: what is darker than its surroundings within a
    # line's width. A smudge or a shadow is broader and drops out; a
    # strike in any pen stays.
    size = max(3, round(LINE_MM * PX) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    lines = cv2.morphologyEx(dark, cv2.MORPH_TOPHAT, kernel)
    if float(np.median(lines)) > NOISY_GRAIN:
        # A dim photo's noise is as dark as a faint line: averaged over a
        # little less than a line's width, a line keeps most of its ink
        # and the noise loses most of its.
        smooth = cv2.GaussianBlur(dark, (0, 0), NOISY_SMOOTH_MM * PX)
        lines = cv2.morphologyEx(smooth, cv2.MORPH_TOPHAT, kernel)
    # The printed stroke's own darkness: along the middle of each stroke
    # (the brightest of a pixel's neighbours, for a pixel's misregistration);
    # every game has a standing mark, so each game's least is a printed
    # stroke alone.
    widened = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    height, width = dark.shape
    points = _stroke_points(layout, shifts, x0, y0)
    xs = np.clip(np.round(points[..., 0]).astype(int), 0, width - 1)
    ys = np.clip(np.round(points[..., 1]).astype(int), 0, height - 1)
    along = np.median(widened[ys, xs], axis=1)
    per_game = along.reshape(layout.games, -1)
    printed = float(np.median(per_game.min(axis=1)))
    # Paper's grain and the camera's noise set the floor below which
    # darkness is not ink: a clean scan's is low, so a faint pen counts.
    grain = float(np.median(lines))
    floor = min(max(INK_FLOOR_MIN, GRAIN_TIMES * grain), INK_FLOOR)
    ink = np.clip(lines - floor, 0.0, None).astype(np.float32)
    over = np.clip(lines - (printed + OVER_MARGIN), 0.0, None).astype(np.float32)
    band = np.zeros(dark.shape, np.uint8)
    for cell in layout.cells:
        row = (cell.game - 1) * layout.seats + cell.seat - 1
        sx0, sy0, sx1, sy1 = cell.stroke
        dy = shifts[row]
        a = (round((sx0 - x0) * PX), round((sy0 + dy - y0) * PX))
        b = (round((sx1 - x0) * PX), round((sy1 + dy - y0) * PX))
        cv2.line(band, a, b, 1, max(1, round(STROKE_MASK_MM * PX)))
    lines_sum = cv2.integral(ink)
    ink = np.where(band > 0, over, ink)
    ink_sum = cv2.integral(ink)
    seen_sum = cv2.integral(seen if seen is not None else np.ones(dark.shape, np.uint8))
    inset_y = min(CELL_INSET_Y, layout.row_mm * 0.15)
    scores = np.zeros(len(layout.cells))
    all_lines = np.zeros(len(layout.cells))
    whole = np.ones(len(layout.cells), dtype=bool)
    for i, cell in enumerate(layout.cells):
        row = (cell.game - 1) * layout.seats + cell.seat - 1
        dy = shifts[row]
        box = cell.box
        left = min(max(round((box.x + CELL_INSET_X - x0) * PX), 0), width)
        right = min(max(round((box.x + box.w - CELL_INSET_X - x0) * PX), 0), width)
        top = min(max(round((box.y + dy + inset_y - y0) * PX), 0), height)
        bottom = min(max(round((box.y + box.h + dy - inset_y - y0) * PX), 0), height)
        area = float((right - left) * (bottom - top))
        inside = (top, bottom, left, right)
        visible = _box_sum(seen_sum, *inside)
        if area > 0:
            scores[i] = _box_sum(ink_sum, *inside) / area
            all_lines[i] = _box_sum(lines_sum, *inside) / area
        whole[i] = area > 0 and visible >= SEEN_SHARE * area
    return CellInk(scores, all_lines, whole)


# --- Deciding ---------------------------------------------------------------


def _left_to_right(struck: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The cells of a row (struck or not, left to right) that break "von
    links nach rechts": the standing ones before its last struck mark and
    the struck ones after its first standing mark."""
    marks = len(struck)
    standing = np.flatnonzero(~struck)
    hit = np.flatnonzero(struck)
    wrong = np.zeros(marks, dtype=bool)
    if len(standing) and len(hit) and standing[0] < hit[-1]:
        wrong[standing[0] : hit[-1] + 1] = True
    return wrong


def _settled_by_order(
    struck: npt.NDArray[np.bool_], unsure: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The unsure cells of a row (left to right) that "von links nach
    rechts" settles as struck: in a row whose last mark is clearly struck
    and none clearly stands (a loser's), standing they would break it. In
    a row with a mark standing, a doubtful one may end its strikes or
    not: a person looks."""
    clear_standing = ~struck & ~unsure
    if struck[-1] and not unsure[-1] and not clear_standing.any():
        return np.asarray(unsure, dtype=bool)
    return np.zeros(len(unsure), dtype=bool)


def _settled_standing(
    struck: npt.NDArray[np.bool_],
    unsure: npt.NDArray[np.bool_],
    clear: npt.NDArray[np.bool_],
    strength: npt.NDArray[np.float64],
) -> npt.NDArray[np.bool_]:
    """The unsure cells of a row (left to right) that "von links nach
    rechts" settles as standing: after a mark both views see standing
    plainly, struck they would break it, when the lines see strokes alone
    from there to the row's end (`strength` below BOUNDARY_LINES, as at a
    row's end): the masked view's doubt is ink off the stroke too little
    for a line, a smudge's edge or an erased strike's remains, though the
    lines doubt it too (a clean scan's lines doubt a twentieth of a
    strike). A mark whose lines stand out there may be a faint strike
    along its stroke in a row read wrongly standing: a person looks."""
    plain = np.flatnonzero(~struck & ~unsure & clear)
    settled = np.zeros(len(struck), dtype=bool)
    if not len(plain):
        return settled
    after = slice(plain[0] + 1, None)
    if np.any(strength[after] >= BOUNDARY_LINES):
        return settled
    settled[after] = True
    return settled & unsure


def _settled_boundary(
    struck: npt.NDArray[np.bool_],
    unsure: npt.NDArray[np.bool_],
    clear: npt.NDArray[np.bool_],
    views: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    lines_plain: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """The one unsure mark of a row (left to right) read as strikes, that
    mark, then marks both views see standing, settled as standing: when
    the lines see each of the row's strikes plainly (its pen shows in
    them) and in both views (`views`: masked, lines) its ink beyond the
    row's own standing marks is less than BOUNDARY_NEAR of the row's
    weakest strike. A pen the lines hardly see (faint, in dim light)
    strikes as weakly as a smudge's edge looks: a person looks."""
    out = np.zeros(len(struck), dtype=bool)
    doubt = np.flatnonzero(unsure)
    if len(doubt) != 1 or doubt[0] in (0, len(struck) - 1):
        return out
    mark = int(doubt[0])
    if not (struck[:mark].all() and lines_plain[:mark].all()):
        return out
    if struck[mark + 1 :].any() or not clear[mark + 1 :].all():
        return out
    for view in views:
        stands = float(np.max(view[mark + 1 :]))
        weakest = float(np.min(view[:mark]))
        if view[mark] - stands >= BOUNDARY_NEAR * (weakest - stands):
            return out
    out[mark] = True
    return out


def _settled_losers(
    struck: npt.NDArray[np.bool_],
    unsure: npt.NDArray[np.bool_],
    plain: npt.NDArray[np.bool_],
    layout: SheetLayout,
) -> npt.NDArray[np.bool_]:
    """The unsure cells the game's rule settles as struck: a game has one
    winner and every other player strikes all his marks, so where exactly
    one row of a game has a mark both views see plainly as a stroke alone
    (`plain`), every other row is a loser's and its unsure marks struck.
    Not where a loser's row has a mark the masked view reads standing: a
    strike that view hardly sees, so the winner's row may hide one where
    its strikes end, and a person looks (as where two rows have a plain
    mark)."""
    settled = np.zeros(len(struck), dtype=bool)
    plains = plain.reshape(layout.games, layout.seats, layout.marks)
    per_game = layout.seats * layout.marks
    for game in range(layout.games):
        standing = plains[game].any(axis=1)
        if standing.sum() != 1:
            continue
        losers = np.repeat(~standing, layout.marks)
        span = slice(game * per_game, (game + 1) * per_game)
        if np.any(losers & ~struck[span] & ~unsure[span]):
            continue
        settled[span] = losers & unsure[span]
    return settled


def _levels(
    scores: npt.NDArray[np.float64], layout: SheetLayout
) -> tuple[npt.NDArray[np.float64], float, npt.NDArray[np.float64]]:
    """Each game's standing level (a printed stroke alone), the sheet's
    noise, and the struck level of each row's writer and pen.

    Every game has a standing mark (the winner's last), so the least of a
    game's last marks is a stroke alone: the sheet's standing level is
    their median, and a game's own least, a little above it, its local
    level (the light over a photo is not even). Most of a game is struck,
    so its median is its writer's struck level; a row's own level (the
    median of its three strongest marks) is its pen's when another struck
    it, but only when it is clearly ink: a row that keeps all its marks
    has no level of its own."""
    rows = scores.reshape(layout.games * layout.seats, layout.marks)
    last = rows[:, -1].reshape(layout.games, layout.seats)
    least = last.min(axis=1)
    standing = float(np.median(least))
    below = scores[scores <= standing] - standing
    noise = max(float(np.sqrt(np.mean(below**2))) if len(below) else 0.0, NOISE_FLOOR)
    game_levels = np.median(scores.reshape(layout.games, -1), axis=1)
    local = np.clip(
        least, standing, standing + LOCAL_SHARE * np.maximum(game_levels - standing, 0)
    )
    strongest = np.sort(rows, axis=1)[:, -3:]
    own = np.median(strongest, axis=1)
    game_of_row = np.repeat(game_levels, layout.seats)
    standing_of_row = np.repeat(local, layout.seats)
    credible = (own - standing_of_row) >= ROW_LEVEL_SHARE * (
        game_of_row - standing_of_row
    )
    levels = np.where(credible, own, game_of_row)
    return local, noise, levels


def _verdicts(
    scores: npt.NDArray[np.float64], layout: SheetLayout
) -> tuple[
    npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.float64], float
]:
    """Each cell struck or not against its game's and row's levels, whether
    it is unsure (between them), its distance from doubt, and the median
    threshold."""
    local, noise, levels = _levels(scores, layout)
    standing = np.repeat(local, layout.seats * layout.marks)
    gaps = np.repeat(levels, layout.marks) - standing
    faint_sheet = False
    if float(np.max(gaps)) < NOISE_HIGH * noise or float(np.max(gaps)) < MIN_GAP:
        # Nothing struck clearly. Ink in many cells is a faint pen: asked
        # about, game by game, never refused as empty.
        inked = np.count_nonzero(scores - standing > NOISE_HIGH * noise)
        if inked < FAINT_SHEET_SHARE * len(scores):
            raise SheetRefused("blank")
        faint_sheet = True
    # Below `low` a cell is surely a stroke alone, above `high` surely
    # struck; between, a person looks.
    low = np.maximum(DOUBT_LOW * gaps, NOISE_LOW * noise)
    high = np.maximum(DOUBT_HIGH * gaps, NOISE_HIGH * noise)
    threshold = standing + (low + high) / 2
    distance = (scores - threshold) / ((high - low) / 2)
    struck = distance > 0
    unsure = (np.abs(distance) < 1) | faint_sheet
    return struck, unsure, distance, float(np.median(threshold))


Verdicts = tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.float64]]


def _either_view(
    masked: Verdicts, lines: npt.NDArray[np.float64], layout: SheetLayout
) -> tuple[Verdicts, npt.NDArray[np.bool_]]:
    """The masked view's verdicts (struck, unsure, distance) checked by the
    lines' (`CellInk`), and the cells the lines see clearly standing. A
    cell the masked view reads struck is struck: its ink is a line off the
    printed stroke or darker than it. One it reads standing is unsure if
    the lines see it struck: a strike along the printed stroke, masked
    away, no darker than the print; struck when they see it far above
    doubt (LINES_SURE) with ALONG_SHARE of its writer's strike (the
    print's own ink, darker in uneven light, holds less). One it doubts
    is struck when the lines see it far above doubt; never standing by
    the lines alone, whose printed ink hides a faint strike."""
    struck, unsure, distance = masked
    try:
        l_struck, l_unsure, l_distance, _ = _verdicts(lines, layout)
    except SheetRefused:
        return masked, np.ones(len(struck), dtype=bool)
    sure = l_distance > LINES_SURE
    along = ~struck & ~unsure & l_struck & ~l_unsure
    settled = (unsure & sure) | (
        along & sure & (_strength(lines, layout) >= ALONG_SHARE)
    )
    along &= ~settled
    verdicts = (
        np.where(settled, l_struck, struck),
        (unsure & ~settled) | along,
        np.where(settled, l_distance, np.where(along, 0.0, distance)),
    )
    return verdicts, ~l_struck & ~l_unsure


def _strength(
    scores: npt.NDArray[np.float64], layout: SheetLayout
) -> npt.NDArray[np.float64]:
    """Each cell's ink as a share of the way from its game's standing level
    to its writer's struck level (0: a stroke alone, 1: as its writer
    strikes): its row's own level, or its game's where that is more (a
    row's own level is the median of its three strongest marks: in a
    winner's row that kept most of its marks, standing ones and what lies
    on them)."""
    local, _noise, levels = _levels(scores, layout)
    game_levels = np.median(scores.reshape(layout.games, -1), axis=1)
    writer = np.maximum(levels, np.repeat(game_levels, layout.seats))
    standing = np.repeat(local, layout.seats * layout.marks)
    gaps = np.maximum(np.repeat(writer, layout.marks) - standing, MIN_GAP)
    return np.asarray((scores - standing) / gaps, dtype=np.float64)


def _boundary_unsure(
    struck: npt.NDArray[np.bool_],
    unsure: npt.NDArray[np.bool_],
    strength: npt.NDArray[np.float64],
    clear: npt.NDArray[np.bool_],
    masked: npt.NDArray[np.float64] | None = None,
) -> npt.NDArray[np.bool_]:
    """The cells of a row (left to right, in order) where its strikes end,
    when they are not plain: the count of marks left is read there and
    nowhere else. `strength` is the lines' view (`_strength`): all the ink
    there is, a strike along the stroke's and one across alike, where the
    masked view sees an erased strike's remains across the stroke whole
    and a real strike along it hardly. Its last struck mark is plain when
    it holds at least BOUNDARY_SHARE of its writer's ink (an erased strike,
    a smudge or a stray line's end holds less), or the `masked` view sees
    it struck as the row's other marks (`_struck_alike`); its first
    standing mark when both views see a stroke alone (`clear`), or its
    lines hold less than BOUNDARY_LINES more (a faint strike along the
    stroke, masked away, adds to them; the print's own ink varies a
    little)."""
    out = np.zeros(len(struck), dtype=bool)
    standing = np.flatnonzero(~struck)
    if not len(standing):
        return out
    first = int(standing[0])
    if not unsure[first] and not clear[first] and strength[first] >= BOUNDARY_LINES:
        out[first] = True
    last = first - 1
    if last >= 0 and not unsure[last] and strength[last] < BOUNDARY_SHARE:
        out[last] = not _struck_alike(masked, strength, last)
    return out


def _struck_alike(
    masked: npt.NDArray[np.float64] | None,
    strength: npt.NDArray[np.float64],
    last: int,
) -> bool:
    """Whether a row's last struck mark is struck as the row's other marks
    are: in the masked view between BOUNDARY_ALIKE's shares of their median
    (the same pen and habit, where a pen the lines hardly see leaves its
    lines weak), with at least BOUNDARY_ALIKE_LINES of its writer's strike
    in its lines. An erased strike's remains hold a fraction of a strike
    beside strikes across, and many times one beside strikes along the
    stroke; a mark the masked view sees but its lines do not is misread
    where the printed stroke lies."""
    if masked is None or last < 1 or strength[last] < BOUNDARY_ALIKE_LINES:
        return False
    low, high = BOUNDARY_ALIKE
    share = masked[last] / max(float(np.median(masked[:last])), MIN_GAP)
    return bool(low <= share <= high)


def _another_pen_s_end(
    struck: npt.NDArray[np.bool_],
    views: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
) -> npt.NDArray[np.bool_]:
    """A row's last struck mark (left to right) where, after a strike of
    its own, it holds less than BOUNDARY_WEAKER of the row's strongest
    strike before it in both views (`views`: the masked view's and the
    lines' `_strength`): another pen's line or an erased strike's remains
    beside the row's own strikes, though the game's writers strike as
    weakly (a person looks). Its first standing marks, when it has no
    strike of its own, see `_faint_run`."""
    out = np.zeros(len(struck), dtype=bool)
    if struck.all():
        return out
    first = int(np.argmin(struck))
    if first == 0:
        return _faint_run(views[0])
    last = first - 1
    if last >= 1 and all(
        view[last] < BOUNDARY_WEAKER * float(np.max(view[:last])) for view in views
    ):
        out[last] = True
    return out


def _faint_run(masked: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """The first marks of a row read without a strike (left to right, the
    masked view's `_strength`) that look struck by a faint pen: at least
    FAINT_RUN of them from the first on, each holding FAINT_RUN_SHARE of
    its writer's strike and FAINT_RUN_TIMES the ink of every mark after
    them. A pen far fainter than the game's others falls below its doubt;
    no smudge or erased strike lies on mark after mark from the first."""
    out = np.zeros(len(masked), dtype=bool)
    for run in range(len(masked) - 1, FAINT_RUN - 1, -1):
        weakest = float(np.min(masked[:run]))
        if weakest > FAINT_RUN_SHARE and weakest > FAINT_RUN_TIMES * float(
            np.max(masked[run:])
        ):
            out[:run] = True
            break
    return out


def decide(
    scores: npt.NDArray[np.float64],
    layout: SheetLayout,
    whole: npt.NDArray[np.bool_] | None = None,
    lines: npt.NDArray[np.float64] | None = None,
) -> tuple[tuple[GameReading, ...], tuple[CellReading, ...], float]:
    """Cells struck or standing against the sheet's own levels (each row
    its writer's and pen's), and each game read by its rules: exactly one
    player keeps marks, and the struck marks of a row are its first ones
    ("von links nach rechts"). A cell between the levels, one not in the
    photo, and every cell of a row that breaks the rule is doubtful."""
    if whole is None:
        whole = np.ones(len(scores), dtype=bool)
    per_game = layout.seats * layout.marks
    seen = scores
    try:
        struck, unsure, distance, threshold = _verdicts(scores, layout)
    except SheetRefused:
        # Nothing seen outside the printed strokes: strikes along them
        # may still stand out of the lines (or the sheet is blank).
        if lines is None:
            raise
        struck, unsure, distance, threshold = _verdicts(lines, layout)
        seen, lines = lines, None
    strength = seen_strength = _strength(seen, layout)
    clear = ~struck & ~unsure
    # Where the lines see each strike plainly, a row's pen shows in them.
    lines_plain = np.zeros(len(scores), dtype=bool)
    if lines is not None:
        (struck, unsure, distance), clear = _either_view(
            (struck, unsure, distance), lines, layout
        )
        strength = _strength(lines, layout)
        # A sheet whose lines show nothing struck: no pen shows in them.
        with contextlib.suppress(SheetRefused):
            lines_plain = _verdicts(lines, layout)[2] > LINES_SURE
    plain = ~struck & ~unsure & clear
    for row in range(layout.games * layout.seats):
        span = slice(row * layout.marks, (row + 1) * layout.marks)
        settled = _settled_by_order(struck[span], unsure[span]) & whole[span]
        struck[span] |= settled
        unsure[span] &= ~settled
        distance[span] = np.where(settled, 1.0, distance[span])
        standing = _settled_standing(
            struck[span], unsure[span], clear[span], strength[span]
        )
        if lines is not None and whole[span].all():
            # A mark only the lines doubt is weighed as one both doubt.
            near = _settled_boundary(
                struck[span],
                unsure[span] | (~struck[span] & ~clear[span]),
                clear[span],
                (scores[span], lines[span]),
                lines_plain[span],
            )
            standing |= near
            clear[span] |= near
        standing &= whole[span]
        struck[span] &= ~standing
        unsure[span] &= ~standing
        distance[span] = np.where(standing, -1.0, distance[span])
    # Strikes barely above the noise make a flagged game's reason, though
    # the game's rule settles a loser's.
    faint = unsure.copy()
    losers = _settled_losers(struck, unsure, plain, layout) & whole
    struck |= losers
    unsure &= ~losers
    distance = np.where(losers, 1.0, distance)
    doubtful = unsure | ~whole
    disorder = np.zeros(len(scores), dtype=bool)
    for row in range(layout.games * layout.seats):
        span = slice(row * layout.marks, (row + 1) * layout.marks)
        disorder[span] = _left_to_right(struck[span])
        if not disorder[span].any() and whole[span].all():
            doubtful[span] |= _boundary_unsure(
                struck[span],
                unsure[span],
                strength[span],
                clear[span],
                None if lines is None else scores[span],
            )
            if lines is not None:
                doubtful[span] |= _another_pen_s_end(
                    struck[span], (seen_strength[span], strength[span])
                )
    doubtful |= disorder
    cells = tuple(
        CellReading(
            game=c.game,
            seat=c.seat,
            mark=c.mark,
            score=float(scores[i]),
            struck=bool(struck[i]),
            doubtful=bool(doubtful[i]),
        )
        for i, c in enumerate(layout.cells)
    )
    games = []
    for game in range(1, layout.games + 1):
        span = slice((game - 1) * per_game, game * per_game)
        counted = struck[span].reshape(layout.seats, layout.marks).sum(axis=1)
        kept = [(seat + 1, layout.marks - int(n)) for seat, n in enumerate(counted)]
        with_marks = [(seat, left) for seat, left in kept if left > 0]
        clearness = float(np.min(np.abs(distance[span])))
        confidence = min(1.0, clearness / 2)
        unclear = bool(np.any(doubtful[span]))
        reason = ""
        # Many cells between the levels: the strikes are faint (a row out
        # of order among them is more likely faint than struck so).
        if np.count_nonzero(faint[span]) >= FAINT_CELLS:
            reason = "faint"
        elif np.any(disorder[span]):
            reason = "order"
        if len(with_marks) == 1:
            seat, left = with_marks[0]
            games.append(
                GameReading(
                    game,
                    seat,
                    left,
                    unclear,
                    confidence if not unclear else 0,
                    reason if unclear else "",
                )
            )
        else:
            games.append(GameReading(game, None, None, True, 0.0, reason))
    return tuple(games), cells, threshold


# --- The whole --------------------------------------------------------------


def read_sheet(
    data: bytes, *, expected: Expected | None = None, keep_image: bool = False
) -> SheetReading:
    """Read the photo `data` (JPEG, PNG or WebP bytes)."""
    started = time.perf_counter()
    grey = decode_image(data)
    markers = find_markers(grey)
    top = {k: v for k, v in markers.items() if k in MARKER_IDS[:2]}
    # The top markers stand where they stand on every sheet: enough to
    # find the QR code, which says where the rest is.
    probe = SheetId("", 1, 1, 4, 5, 7).layout()
    to_mm: Floats | None = None
    if len(top) == 2:
        boxes = {MARKER_IDS[i]: probe.markers[i].corners for i in range(2)}
        to_mm, _ = _homography(top, boxes)
    qr = probe.read_qr
    try:
        sheet = read_code(grey, to_mm, (qr.x, qr.y, qr.w, qr.h), markers=bool(markers))
    except SheetRefused as refusal:
        if refusal.code == "no_code" and len(markers) < 3:
            raise SheetRefused("not_found") from refusal
        raise
    if expected is not None:
        mismatch = (
            sheet.tournament != expected.tournament
            or (expected.series is not None and sheet.series != expected.series)
            or (expected.table is not None and sheet.table != expected.table)
        )
        if mismatch:
            raise SheetRefused(
                "wrong_sheet",
                tournament=sheet.tournament,
                series=sheet.series,
                table=sheet.table,
            )
    if len(markers) < 3:
        raise SheetRefused("not_found")
    layout = sheet.layout()
    boxes = {MARKER_IDS[i]: layout.markers[i].corners for i in range(4)}
    to_mm, error = _homography(markers, boxes)
    if error > MAX_MARKER_ERROR_MM:
        raise SheetRefused("not_found")
    x0, y0 = LEFT - 2, layout.grid.y - 2
    rectified = _warp(grey, to_mm, x0, y0, RIGHT - LEFT + 4, layout.grid.h + 4, PX)
    seen = _warp_seen(grey.shape, to_mm, x0, y0, RIGHT - LEFT + 4, layout.grid.h + 4)
    dark = darkness(rectified)
    ink = cell_scores(dark, layout, x0, y0, seen)
    games, cells, threshold = decide(ink.masked, layout, ink.whole, ink.lines)
    return SheetReading(
        sheet=sheet,
        games=games,
        cells=cells,
        threshold=threshold,
        milliseconds=(time.perf_counter() - started) * 1000,
        rectified=rectified if keep_image else None,
        origin_mm=(x0, y0),
    )


__all__ = [
    "CellReading",
    "Expected",
    "GameReading",
    "SheetReading",
    "SheetRefused",
    "decode_image",
    "read_sheet",
]
