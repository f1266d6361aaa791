"""The corner markers: OpenCV's ArUco dictionary, the same for printing and
for finding them."""

from functools import cache

import cv2
import numpy as np

from tournament.sheetphoto.reader.layout import MARKER_DICTIONARY

# A 4x4 marker with its black border: 6 x 6 cells.
MARKER_CELLS = 6


@cache
def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))


def marker_black_cells(marker_id: int) -> tuple[tuple[int, int], ...]:
    """The black cells (column, row) of a marker, border included."""
    image = cv2.aruco.generateImageMarker(
        dictionary(), marker_id, MARKER_CELLS, None, 1
    )
    rows, cols = np.nonzero(image < 128)
    return tuple((int(c), int(r)) for r, c in zip(rows, cols, strict=True))
