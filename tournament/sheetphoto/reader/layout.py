"""Where everything a reader needs stands on the printed score sheet, in
millimetres from the top-left corner of the A4 page: the four corner
markers, the QR code, every stroke cell. The PDF draws from this and the
reader reads by it, so moving a stroke moves it in both.

The corner markers frame the games' grid (two above its top corners, two
below its bottom ones), so the grid is found from them however the page
was scaled when printed ("fit to page"). The QR code names the sheet
(`SheetId`) and the layout's version; a reader refuses a version it does
not know rather than read cells where there are none.
"""

from dataclasses import dataclass

# Bump when anything below moves: a sheet printed with another version is
# refused by the reader, never read at the wrong places.
LAYOUT_VERSION = 2
PAYLOAD_PREFIX = "7S"

PAGE_W = 210.0
PAGE_H = 297.0
LEFT = 12.0
RIGHT = 198.0
TOP = 10.0
BOTTOM = 287.0

# The head: title and event, the phones' QR code (when printed with an
# address), the QR code the reader decodes, the table number's box.
HEAD_BOTTOM = 38.0
READ_QR_X = 134.0
READ_QR_SIZE = 28.0  # quiet zone included: the symbol itself is > 25 mm
ENTRY_QR_X = 110.0
ENTRY_QR_SIZE = 21.0
WHERE_X = 165.0

# ArUco 4x4 markers (OpenCV's DICT_4X4_50): ids in the order top-left,
# top-right, bottom-right, bottom-left.
MARKER_DICTIONARY = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)
MARKER_MM = 10.0
MARKER_GAP = 2.0  # between a marker and the grid

# The games' grid: a label row, then a row per player per game.
GRID_TOP = HEAD_BOTTOM + MARKER_GAP + MARKER_MM + 3.0
LABEL_ROW = 7.0
ROWS_MM = 180.0  # the game rows' room
ROW_MAX = 9.0
# Columns (page x): game 12–22, seat and name 22–86, strokes 86–140,
# hands 140–172, points 172–198.
COL_GAME = (LEFT, 22.0)
COL_NAME = (22.0, 86.0)
COL_STROKES = (86.0, 140.0)
COL_HANDS = (140.0, 172.0)
COL_POINTS = (172.0, RIGHT)
# The strokes: cells at most 7 mm wide, blank margins to the band's
# rules; each stroke a light slanted line in the middle of its cell.
CELL_MAX = 7.0
BAND_MARGIN = 2.5
STROKE_HALF_W = 1.0  # half the stroke's horizontal run
STROKE_HEIGHT = 0.64  # of the row
STROKE_GREY = "#a0a0a0"
STROKE_WIDTH = 0.45


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def corners(self) -> tuple[tuple[float, float], ...]:
        """Clockwise from the top-left, as ArUco reports a marker's."""
        return (
            (self.x, self.y),
            (self.x + self.w, self.y),
            (self.x + self.w, self.y + self.h),
            (self.x, self.y + self.h),
        )


@dataclass(frozen=True)
class Cell:
    """One stroke: `game` (1..), `seat` (1..), `mark` (1.., left to right),
    its cell and its printed stroke from (x0, y0) to (x1, y1)."""

    game: int
    seat: int
    mark: int
    box: Box
    stroke: tuple[float, float, float, float]


@dataclass(frozen=True)
class SheetLayout:
    seats: int
    games: int
    marks: int
    row_mm: float
    grid: Box  # label row included
    markers: tuple[Box, Box, Box, Box]  # in MARKER_IDS order
    read_qr: Box
    cells: tuple[Cell, ...]  # game-major, then seat, then mark

    @property
    def rows_top(self) -> float:
        return self.grid.y + LABEL_ROW

    def row_top(self, game: int, seat: int) -> float:
        return self.rows_top + ((game - 1) * self.seats + seat - 1) * self.row_mm

    @property
    def rules(self) -> tuple[float, ...]:
        """The y of every horizontal rule of the grid below the label row:
        the rows' tops and the grid's bottom."""
        count = self.games * self.seats
        return tuple(self.rows_top + i * self.row_mm for i in range(count + 1))

    def cell(self, game: int, seat: int, mark: int) -> Cell:
        index = ((game - 1) * self.seats + seat - 1) * self.marks + mark - 1
        return self.cells[index]


def row_height(*, seats: int, games: int) -> float:
    return min(ROW_MAX, ROWS_MM / (games * max(seats, 1)))


def cell_width(marks: int) -> float:
    band = COL_STROKES[1] - COL_STROKES[0] - 2 * BAND_MARGIN
    return min(CELL_MAX, band / marks)


def sheet_layout(*, seats: int, games: int, marks: int) -> SheetLayout:
    """The layout of a table of `seats` playing `games` games a series,
    `marks` marks each."""
    row = row_height(seats=seats, games=games)
    grid = Box(LEFT, GRID_TOP, RIGHT - LEFT, LABEL_ROW + row * games * seats)
    top = GRID_TOP - MARKER_GAP - MARKER_MM
    bottom = grid.y + grid.h + MARKER_GAP
    markers = (
        Box(LEFT, top, MARKER_MM, MARKER_MM),
        Box(RIGHT - MARKER_MM, top, MARKER_MM, MARKER_MM),
        Box(RIGHT - MARKER_MM, bottom, MARKER_MM, MARKER_MM),
        Box(LEFT, bottom, MARKER_MM, MARKER_MM),
    )
    width = cell_width(marks)
    start = (COL_STROKES[0] + COL_STROKES[1]) / 2 - width * marks / 2
    half_h = row * STROKE_HEIGHT / 2
    cells = []
    for game in range(1, games + 1):
        for seat in range(1, seats + 1):
            y = grid.y + LABEL_ROW + ((game - 1) * seats + seat - 1) * row
            for mark in range(1, marks + 1):
                x = start + (mark - 1) * width
                cx, cy = x + width / 2, y + row / 2
                run = min(STROKE_HALF_W, width / 4)
                cells.append(
                    Cell(
                        game=game,
                        seat=seat,
                        mark=mark,
                        box=Box(x, y, width, row),
                        stroke=(cx - run, cy + half_h, cx + run, cy - half_h),
                    )
                )
    return SheetLayout(
        seats=seats,
        games=games,
        marks=marks,
        row_mm=row,
        grid=grid,
        markers=markers,
        read_qr=Box(READ_QR_X, TOP, READ_QR_SIZE, READ_QR_SIZE),
        cells=tuple(cells),
    )


@dataclass(frozen=True)
class SheetId:
    """What the QR code says: whose sheet this is and how it is laid out."""

    tournament: str  # the slug
    series: int
    table: int
    seats: int
    games: int
    marks: int
    version: int = LAYOUT_VERSION

    @property
    def payload(self) -> str:
        """Short (a small QR code has big modules, read from far):
        `7S2:slug:series:table:seats:games:marks`."""
        return ":".join(
            [
                f"{PAYLOAD_PREFIX}{self.version}",
                self.tournament,
                *(
                    str(n)
                    for n in (
                        self.series,
                        self.table,
                        self.seats,
                        self.games,
                        self.marks,
                    )
                ),
            ]
        )

    def layout(self) -> SheetLayout:
        return sheet_layout(seats=self.seats, games=self.games, marks=self.marks)


def parse_payload(text: str) -> SheetId | None:
    """The sheet a QR code names, None for anything else (another code, an
    older layout's)."""
    parts = text.strip().split(":")
    if len(parts) != 7 or parts[0] != f"{PAYLOAD_PREFIX}{LAYOUT_VERSION}":
        return None
    slug, *numbers = parts[1:]
    # ASCII digits only: "²" is a digit to isdigit() but not to int().
    if not slug or not all(
        n.isascii() and n.isdigit() and len(n) <= 4 for n in numbers
    ):
        return None
    series, table, seats, games, marks = (int(n) for n in numbers)
    if not (2 <= seats <= 4 and 1 <= games <= 10 and 1 <= marks <= 15):
        return None
    if series < 1 or table < 1:
        return None
    return SheetId(slug, series, table, seats, games, marks)
