"""What a person checks a reading against: the rectified sheet with every
stroke cell outlined as the reader saw it, and each game's rows cut out
to stand beside that game in the result form.

Outlines differ in width and mark as well as colour (a person who cannot
tell green from orange still sees them): a standing stroke is framed
thick, a struck one thin, a doubtful one thickest with a question mark,
and a game the reader flagged is framed as a whole.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from tournament.sheetphoto.reader.layout import COL_NAME, COL_STROKES, LEFT, RIGHT
from tournament.sheetphoto.reader.read import PX, SheetReading

Colour = npt.NDArray[np.uint8]

# BGR, dark enough to stand out on paper and ink alike.
STANDING = (40, 130, 20)
STRUCK = (170, 100, 30)
DOUBTFUL = (0, 100, 235)
JPEG_QUALITY = 82
# Around a game's cut-out: a little of the rules above and below (mm).
CUT_MARGIN = 0.6


@dataclass(frozen=True)
class ReviewImages:
    sheet: bytes  # JPEG: the whole grid, outlined
    games: dict[int, bytes]  # JPEG per game: its rows, names and strokes


def _px(value_mm: float, origin_mm: float) -> int:
    return round((value_mm - origin_mm) * PX)


def _outlined(reading: SheetReading) -> Colour:
    assert reading.rectified is not None, "read with keep_image=True"
    image = cv2.cvtColor(reading.rectified, cv2.COLOR_GRAY2BGR)
    layout = reading.sheet.layout()
    x0, y0 = reading.origin_mm
    for cell in reading.cells:
        box = layout.cell(cell.game, cell.seat, cell.mark).box
        a = (_px(box.x + 0.3, x0), _px(box.y + 0.4, y0))
        b = (_px(box.x + box.w - 0.3, x0), _px(box.y + box.h - 0.4, y0))
        if cell.doubtful:
            cv2.rectangle(image, a, b, DOUBTFUL, 3)
            cv2.putText(
                image,
                "?",
                (a[0] + 3, a[1] + 12),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.45,
                DOUBTFUL,
                2,
                cv2.LINE_AA,
            )
        elif cell.struck:
            cv2.rectangle(image, a, b, STRUCK, 1)
        else:
            cv2.rectangle(image, a, b, STANDING, 2)
    return np.asarray(image, dtype=np.uint8)


def _framed(reading: SheetReading, outlined: Colour) -> Colour:
    """The whole sheet, each game the reader flagged framed as a whole."""
    image = outlined.copy()
    layout = reading.sheet.layout()
    x0, y0 = reading.origin_mm
    for game in reading.games:
        if not game.flagged:
            continue
        top = layout.row_top(game.number, 1)
        bottom = layout.row_top(game.number, layout.seats) + layout.row_mm
        cv2.rectangle(
            image,
            (_px(LEFT + 0.5, x0), _px(top + 0.3, y0)),
            (_px(RIGHT - 0.5, x0), _px(bottom - 0.3, y0)),
            DOUBTFUL,
            4,
        )
    return image


def _jpeg(image: Colour) -> bytes:
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    assert ok
    return bytes(encoded.tobytes())


def review_images(reading: SheetReading) -> ReviewImages:
    """The outlined sheet and each game's cut-out (names and strokes; the
    form says in words which game is flagged)."""
    image = _outlined(reading)
    layout = reading.sheet.layout()
    x0, y0 = reading.origin_mm
    height, width = image.shape[:2]
    left = max(_px(COL_NAME[0], x0), 0)
    right = min(_px(COL_STROKES[1] + CUT_MARGIN, x0), width)
    games = {}
    for game in reading.games:
        top = layout.row_top(game.number, 1) - CUT_MARGIN
        bottom = layout.row_top(game.number, layout.seats) + layout.row_mm
        games[game.number] = _jpeg(
            image[
                max(_px(top, y0), 0) : min(_px(bottom + CUT_MARGIN, y0), height),
                left:right,
            ]
        )
    return ReviewImages(sheet=_jpeg(_framed(reading, image)), games=games)
