"""The score sheet (Spielliste) of each table, blank or filled.

A filled sheet shows what the confirmed result says and computes nothing:
a winner who kept k marks has 7 − k strokes struck and the points stored
with the result, everybody else has all strokes struck (the GameScore rows
that confirming the result wrote).

The sheet is read back from a phone's photo (tournament/sheetphoto), so
the places of its markers, QR code, rules and strokes come from one
layout (`sheetphoto.reader.layout`) that the reader reads by. WeasyPrint
pays per box, per line of text and per style attribute, and a
championship prints 100 sheets per series: a page is a few text blocks
(names with their seats, points: each one block a column, a line a row),
one drawing (an SVG image) of the rules, strokes and strikes, the markers
and QR code as images, and every place comes from the stylesheet
(sheet_css), not from the page (templates/pdf/css/sheet.css,
bench/paper.py).
"""

import base64
import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from PIL import Image

from tournament.models import GameScore, ResultVersion, Series, Table, Tournament
from tournament.models.seating import Seat
from tournament.paper.fit import MM_PER_PT, STEP_PT, Fitted, fit, text_em
from tournament.paper.qr import qr_image, read_qr_image
from tournament.results.selectors import hand_notation
from tournament.seating.selectors import series_tables
from tournament.sheetphoto.reader import layout
from tournament.sheetphoto.reader.layout import (
    COL_GAME,
    COL_HANDS,
    COL_NAME,
    COL_POINTS,
    COL_STROKES,
    ENTRY_QR_SIZE,
    ENTRY_QR_X,
    LABEL_ROW,
    LEFT,
    MARKER_IDS,
    PAGE_H,
    PAGE_W,
    STROKE_GREY,
    STROKE_WIDTH,
    Box,
    SheetId,
    SheetLayout,
    sheet_layout,
)

# A name on a game row stands between the seat number and the strokes'
# column, at the rows' size, shrunk or wrapped to fit when it is long:
# never cut.
ROW_NAME_LEFT_MM = 29.0
ROW_NAME_WIDTH_MM = layout.COL_NAME[1] - ROW_NAME_LEFT_MM - 1.5
ROW_NAME_PT = 12.5
ROW_NAME_SINGLE_MIN_PT = 9.0
ROW_NAME_MIN_PT = 5.0

# The same name in a player's box at the foot of the sheet: bold, in at
# most the height of two lines at 9 pt, above place, start number and sum.
BOX_PADDING_MM = 4.6
BOX_WIDTH_MM = {3: 55.7, 4: 40.3}
# The boxes side by side below the bottom markers (page millimetres; the
# width is the text's, inside a padding of BOX_PAD_X_MM each side), each
# with a line to sign on drawn BOX_SIGN_MM above its bottom; the keeper's
# box has the heavier border.
BOX_TOP_MM = 256.0
BOX_STEP_MM = {3: 62.0, 4: 46.5}
BOX_HEIGHT_MM = 23.6
BOX_PAD_TOP_MM = 1.2
BOX_PAD_X_MM = 2.0
BOX_BORDER_PT = 0.9
KEEPER_BORDER_PT = 1.4
BOX_SIGN_MM = 3.5
BOX_SIGN_PT = 0.6
BOX_NAME_HEIGHT_MM = 8.6
BOX_NAME_PT = 9.0
BOX_NAME_SINGLE_MIN_PT = 7.5
BOX_NAME_MIN_PT = 5.0

# A filled sheet strikes a lost mark as the keeper would: one line across
# the stroke, the other diagonal, in black.
STRIKE_RUN_MM = 1.9
STRIKE_HEIGHT = 0.7  # of the row
STRIKE_WIDTH_MM = 0.5


def row_name(name: str, *, row_mm: float) -> Fitted:
    """A player's name as each of his game rows shows it."""
    return fit(
        name,
        width_mm=ROW_NAME_WIDTH_MM,
        height_mm=row_mm - 0.6,
        size_pt=ROW_NAME_PT,
        single_min_pt=ROW_NAME_SINGLE_MIN_PT,
        min_pt=ROW_NAME_MIN_PT,
        line_height=1.15,
    )


def box_name(name: str, *, size: int) -> Fitted:
    """The same name in the player's box at the foot of the sheet."""
    return fit(
        name,
        width_mm=_box_width(size) - BOX_PADDING_MM,
        height_mm=BOX_NAME_HEIGHT_MM,
        size_pt=BOX_NAME_PT,
        single_min_pt=BOX_NAME_SINGLE_MIN_PT,
        min_pt=BOX_NAME_MIN_PT,
        line_height=1.2,
        bold=True,
    )


def _mm(value: float) -> str:
    # Never localized: these go into CSS.
    return f"{value:.2f}".rstrip("0").rstrip(".") + "mm"


def _n(value: float) -> str:
    # SVG user units (mm), never localized.
    return f"{value:.2f}".rstrip("0").rstrip(".")


def marker_file(marker_id: int) -> str:
    """A corner marker as a PNG under static/; tests/paper/test_sheet_reader.py
    holds them to the markers the reader looks for."""
    return f"pdf/aruco-4x4-{marker_id}.png"


# The four corner markers are printed as one image (WeasyPrint pays per
# box; an image is written once per document however many pages show it),
# at this many pixels per millimetre: the layout puts the markers on whole
# millimetres, so each lands on the image's pixels exactly, and a marker's
# cell (a sixth of its side) is whole pixels.
MARKERS_PX_PER_MM = 3


@cache
def _marker_pixels(marker_id: int, side: int) -> Image.Image:
    path = Path(settings.BASE_DIR) / "static" / marker_file(marker_id)
    with Image.open(path) as source:
        return source.convert("L").resize((side, side), Image.Resampling.NEAREST)


def _markers_frame(markers: tuple[Box, ...]) -> Box:
    """The box spanning the corner markers: where their image stands."""
    left = min(box.x for box in markers)
    top = min(box.y for box in markers)
    width = max(box.x + box.w for box in markers) - left
    height = max(box.y + box.h for box in markers) - top
    return Box(left, top, width, height)


@cache
def markers_image(markers: tuple[Box, ...]) -> str:
    """The corner markers in one white image spanning them (a data: URI;
    the stylesheet places it at `_markers_frame`)."""
    scale = MARKERS_PX_PER_MM
    frame = _markers_frame(markers)
    image = Image.new("L", (round(frame.w * scale), round(frame.h * scale)), 255)
    for marker_id, box in zip(MARKER_IDS, markers, strict=True):
        pixels = _marker_pixels(marker_id, round(box.w * scale))
        image.paste(
            pixels, (round((box.x - frame.x) * scale), round((box.y - frame.y) * scale))
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def _seat_prefix(seat: int) -> str:
    """A seat's number before its player's name on a game row: the digit
    and two spaces, about the width of the old seats' column."""
    return f"{seat}  "


@cache
def _layout(*, seats: int, games: int, marks: int) -> SheetLayout:
    """One layout per kind of table, shared by its sheets."""
    return sheet_layout(seats=seats, games=games, marks=marks)


def _tile(lay: SheetLayout) -> str:
    """An SVG pattern of one stroke cell: WeasyPrint starts a pattern's
    tiles at the corner of each shape it fills (every shape filled here
    starts at a cell's corner), and the layout's cells are regular, so
    every tile is a cell."""
    cell = lay.cells[0].box
    return f'patternUnits="userSpaceOnUse" width="{_n(cell.w)}" height="{_n(cell.h)}"'


@cache
def _drawing(*, seats: int, games: int, marks: int, keeper: int) -> tuple[str, str]:
    """What the drawing of every sheet of a layout holds, before and after
    its strikes: the shade of the games' column, the grid's rules, the
    strokes (tiles of one cell, an SVG pattern: drawn once per page, cheap
    to print) and the lines to sign on."""
    lay = _layout(seats=seats, games=games, marks=marks)
    size = seats
    grid = lay.grid
    rules = []
    for i, y in enumerate(lay.rules[:-1]):
        if i % size:
            rules.append(f"M{_n(grid.x)} {_n(y)}H{_n(grid.x + grid.w)}")
    heavy = [
        f"M{_n(grid.x)} {_n(y)}H{_n(grid.x + grid.w)}"
        for i, y in enumerate(lay.rules)
        if i % size == 0 and 0 < i < len(lay.rules) - 1
    ]
    heavy += [
        f"M{_n(x)} {_n(grid.y)}V{_n(grid.y + grid.h)}"
        for x in (COL_NAME[0], COL_STROKES[0], COL_STROKES[1], COL_POINTS[0])
    ]
    # The grid's border, in the same path (a shape less to draw).
    heavy.append(f"M{_n(grid.x)} {_n(grid.y)}h{_n(grid.w)}v{_n(grid.h)}h-{_n(grid.w)}z")
    thin = f"M{_n(COL_HANDS[1])} {_n(grid.y)}V{_n(grid.y + grid.h)}"
    first = lay.cells[0]
    sx0, sy0, sx1, sy1 = first.stroke
    stroke_tile = (
        f"M{_n(sx0 - first.box.x)} {_n(sy0 - first.box.y)}"
        f"L{_n(sx1 - first.box.x)} {_n(sy1 - first.box.y)}"
    )
    # A box's line to sign on: inside its padding, BOX_SIGN_MM above the
    # bottom of it; the keeper's box shaded, under its border and text.
    width = _box_width(size)
    border = _box_border_mm(True)
    shade = (
        f'<rect x="{_n(_box_left(keeper, size))}" y="{_n(BOX_TOP_MM)}" '
        f'width="{_n(width + 2 * (BOX_PAD_X_MM + border))}" '
        f'height="{_n(BOX_HEIGHT_MM + BOX_PAD_TOP_MM + 2 * border)}" '
        'fill="#e4e4e4"/>'
    )
    signs = []
    for seat in range(1, size + 1):
        border = _box_border_mm(seat == keeper)
        x = _box_left(seat, size) + border + BOX_PAD_X_MM
        y = (
            BOX_TOP_MM
            + border
            + BOX_PAD_TOP_MM
            + BOX_HEIGHT_MM
            - BOX_SIGN_MM
            - BOX_SIGN_PT * MM_PER_PT / 2
        )
        signs.append(f"M{_n(x)} {_n(y)}h{_n(width)}")
    head = "".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {_n(PAGE_W)} {_n(PAGE_H)}" '
            f'width="{_n(PAGE_W)}mm" height="{_n(PAGE_H)}mm">',
            f'<rect x="{_n(grid.x)}" y="{_n(grid.y)}" '
            f'width="{_n(COL_GAME[1] - grid.x)}" '
            f'height="{_n(grid.h)}" fill="#e4e4e4"/>',
            shade,
            f'<path d="{"".join(rules)}" stroke="#777" stroke-width="0.18" '
            'fill="none"/>',
            f'<path d="{thin}" stroke="#777" stroke-width="0.25" fill="none"/>',
            f'<path d="{"".join(heavy)}" stroke="#111" stroke-width="0.32" '
            'fill="none"/>',
            f'<path d="{"".join(signs)}" stroke="#111" '
            f'stroke-width="{_n(BOX_SIGN_PT * MM_PER_PT)}" fill="none"/>',
            f'<defs><pattern id="stroke" {_tile(lay)}><path d="{stroke_tile}" '
            f'stroke="{STROKE_GREY}" stroke-width="{_n(STROKE_WIDTH)}" '
            'stroke-linecap="round" fill="none"/></pattern></defs>',
            f'<rect x="{_n(first.box.x)}" y="{_n(first.box.y)}" '
            f'width="{_n(first.box.w * lay.marks)}" '
            f'height="{_n(first.box.h * lay.seats * lay.games)}" '
            'fill="url(#stroke)"/>',
        ]
    )
    return head, "</svg>"


def _svg_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


@dataclass(frozen=True)
class SheetPlayer:
    seat: int
    start_number: int
    name: str
    row: Fitted  # the name on each game row: shrunk or wrapped, never cut
    box: Fitted  # the same name in the player's box
    keeper: bool  # the highest seat deals first and keeps the sheet
    total: int | None  # the series' points at this table (filled sheets)

    @property
    def row_line(self) -> bool:
        """Whether the name on the rows is one line at a size the
        stylesheet knows (sheet_css): then it shares its block with the
        other names of its size and its line with its seat."""
        return len(self.row.lines) == 1 and self.row.size_pt in ROW_SIZES

    @property
    def box_class(self) -> str:
        """The class that gives the box's name its size (sheet_css)."""
        return (
            f"n{_size_class(self.box.size_pt)}" if self.box.size_pt in BOX_SIZES else ""
        )

    @property
    def box_name_line(self) -> bool:
        """Whether the box's name is one line: then it is the box's first
        line (bold by the stylesheet), else a block of its own."""
        return len(self.box.lines) == 1 and bool(self.box_class)


def _box_width(size: int) -> float:
    return BOX_WIDTH_MM.get(size, BOX_WIDTH_MM[4])


def _box_left(seat: int, size: int) -> float:
    return LEFT + (seat - 1) * BOX_STEP_MM.get(size, BOX_STEP_MM[4])


def _box_border_mm(keeper: bool) -> float:
    return (KEEPER_BORDER_PT if keeper else BOX_BORDER_PT) * MM_PER_PT


@dataclass(frozen=True)
class SheetRow:
    """One player in one game."""

    seat: int
    struck: int  # strokes struck (filled sheets; 0 on a blank one)
    points: int | None  # the winner's, on a filled sheet


@dataclass(frozen=True)
class SheetGame:
    number: int
    rows: list[SheetRow]
    hands: str  # the hands in short notation, when the sheet was entered
    hands_style: str


@dataclass(frozen=True)
class Sheet:
    table: int
    size: int
    keeper: int
    players: list[SheetPlayer]
    games: list[SheetGame]
    confirmed: bool  # a confirmed result filled it
    version: int | None
    start_marks: int
    layout: SheetLayout
    sheet_id: SheetId  # what the reader's QR code says
    # The QR code of the table's page (as on its table card), where the
    # players enter the result on their phones, as an image (qr_image);
    # None without an address.
    qr: str | None = None

    @property
    def row_mm(self) -> float:
        return self.layout.row_mm

    @property
    def keeper_name(self) -> str:
        return next((p.name for p in self.players if p.keeper), "")

    @property
    def read_qr(self) -> str:
        """The QR code the reader decodes (short, error level Q), as an
        image (qr_image)."""
        return read_qr_image(self.sheet_id.payload)

    @property
    def markers(self) -> str:
        """The corner markers: one image (markers_image)."""
        return markers_image(self.layout.markers)

    @property
    def overlay(self) -> SafeString:
        """Everything the reader finds and the lines around it, drawn from
        the layout in page millimetres: the grid's rules and shade, the
        strokes (light grey lines, not glyphs), the lines to sign on in the
        players' boxes and, on a filled sheet, the strikes. An SVG
        document of a few paths (overlay_image)."""
        lay = self.layout
        cell = lay.cells[0].box
        # All strikes are one shape (a rectangle per row, as wide as its
        # struck marks) filled once: WeasyPrint draws a pattern per shape.
        runs = []
        for game in self.games:
            for row in game.rows:
                if row.struck:
                    box = lay.cell(game.number, row.seat, 1).box
                    width = _n(cell.w * row.struck)
                    runs.append(
                        f"M{_n(box.x)} {_n(box.y)}h{width}v{_n(cell.h)}h-{width}z"
                    )
        strikes = ""
        if runs:
            run = min(STRIKE_RUN_MM, cell.w * 0.3)
            half = cell.h * STRIKE_HEIGHT / 2
            tile = (
                f"M{_n(cell.w / 2 - run)} {_n(cell.h / 2 - half)}"
                f"L{_n(cell.w / 2 + run)} {_n(cell.h / 2 + half)}"
            )
            strikes = (
                f'<defs><pattern id="strike" {_tile(lay)}><path d="{tile}" '
                f'stroke="#111" stroke-width="{_n(STRIKE_WIDTH_MM)}" '
                'stroke-linecap="round" fill="none"/></pattern></defs>'
                f'<path d="{"".join(runs)}" fill="url(#strike)"/>'
            )
        head, tail = _drawing(
            seats=lay.seats, games=lay.games, marks=lay.marks, keeper=self.keeper
        )
        return mark_safe(head + strikes + tail)  # numbers only, no data

    @property
    def overlay_image(self) -> str:
        """The drawing as an image (a data: URI): WeasyPrint reads an SVG
        image with the XML parser and draws it, where an SVG inline in the
        page is parsed and styled node by node as part of the HTML; a
        blank sheet's drawing is the same for every table of a size, read
        once."""
        return _svg_uri(str(self.overlay))

    def _name_lines_mm(self, name: Fitted) -> tuple[int, float]:
        """Lines per game and their height for a wrapped name: a game's rows
        are `size` rows apart; the name gets close lines and blank ones to
        fill the rest (lines cost time)."""
        period = self.row_mm * self.size
        per_game = max(len(name.lines), int(period / (name.size_pt * MM_PER_PT * 1.15)))
        return per_game, period / per_game

    def _wrapped_names(self, player: "SheetPlayer") -> tuple[str, str, str]:
        """A wrapped name's block on its rows: centred in its first row,
        close lines, one game apart; its seat stands in `seats_text`."""
        per_game, line_mm = self._name_lines_mm(player.row)
        height = line_mm * len(player.row.lines)
        top = self.layout.row_top(1, player.seat) + (self.row_mm - height) / 2
        style = (
            f"top: {_mm(top)}; left: {_mm(ROW_NAME_LEFT_MM)}; "
            f"width: {_mm(ROW_NAME_WIDTH_MM)}; font-size: {player.row.size}; "
            f"line-height: {_mm(line_mm)}"
        )
        entry = list(player.row.lines)
        entry += [""] * (per_game - len(entry))
        text = "\n".join("\n".join(entry) for _ in self.games).rstrip("\n")
        return "", style, text

    def _one_line_names(self, players: list["SheetPlayer"]) -> tuple[str, str, str]:
        """The rows of seats whose names are one line at the same size, as
        one block: on each of their rows the seat and the name, the name
        from ROW_NAME_LEFT_MM; a blank line for another seat's row (a
        single seat's lines are a game apart). A line box is centred on
        its row. Placed and sized by the stylesheet (sheet_css): the
        block's classes."""
        names = {p.seat: f"{_seat_prefix(p.seat)}{p.row.lines[0]}" for p in players}
        first, last = min(names), max(names)
        classes = f"s{first} f{_size_class(players[0].row.size_pt)}"
        if first == last:
            return f"{classes} one", "", "\n".join([names[first]] * len(self.games))
        seats = range(1, self.size + 1)
        rows = [names.get(seat, "") for _ in self.games for seat in seats]
        # From the first seat's first row to the last seat's last one.
        return classes, "", "\n".join(rows[first - 1 : len(rows) - self.size + last])

    @property
    def name_blocks(self) -> list[tuple[str, str, str]]:
        """The players' names on the game rows, shrunk or wrapped to fit,
        never cut, each at its own size: a block (classes, style, text)
        per size of the names on one line (the seat before each name), and
        one per wrapped name. WeasyPrint pays per block and per line, so
        the names of a size share a block, and a seat shares its name's
        line."""
        sizes: dict[float, list[SheetPlayer]] = {}
        blocks = []
        for player in self.players:
            if player.row_line:
                sizes.setdefault(player.row.size_pt, []).append(player)
            else:
                blocks.append(self._wrapped_names(player))
        return [self._one_line_names(group) for group in sizes.values()] + blocks

    @property
    def game_numbers_text(self) -> str:
        return "\n".join(str(g.number) for g in self.games)

    @property
    def seats_text(self) -> str:
        """The seat of each row whose player's name is wrapped (line i: game
        i // size + 1); empty when every name is one line (row_line), its
        seat before it (name_blocks)."""
        wrapped = {p.seat for p in self.players if not p.row_line}
        if not wrapped:
            return ""
        return "\n".join(
            str(r.seat) if r.seat in wrapped else "" for g in self.games for r in g.rows
        ).rstrip("\n")

    @property
    def has_points(self) -> bool:
        return any(r.points is not None for g in self.games for r in g.rows)

    @property
    def points_text(self) -> str:
        """The winner's points on his row, nothing on the others'."""
        return "\n".join(
            "" if r.points is None else str(r.points)
            for g in self.games
            for r in g.rows
        )


@dataclass(frozen=True)
class SheetsData:
    tournament: Tournament
    series: Series
    filled: bool
    start_marks: int
    win_bonus: int
    sheets: list[Sheet]

    @property
    def css(self) -> SafeString:
        """Where the parts of its sheets stand, for the stylesheet
        (sheet_css)."""
        return sheet_css(games=self.tournament.games_per_series, marks=self.start_marks)


def _size_class(size_pt: float) -> str:
    """A font size in a class name: 10.5 pt is "10_5"."""
    return f"{size_pt:g}".replace(".", "_")


def _sizes(low: float, high: float) -> frozenset[float]:
    """Every size `fit` may give between `low` and `high` (it steps down
    from the largest by STEP_PT)."""
    return frozenset(
        high - i * STEP_PT for i in range(round((high - low) / STEP_PT) + 1)
    )


ROW_SIZES = _sizes(ROW_NAME_SINGLE_MIN_PT, ROW_NAME_PT)
BOX_SIZES = _sizes(BOX_NAME_MIN_PT, BOX_NAME_PT)


@cache
def sheet_css(*, games: int, marks: int) -> SafeString:
    """The places of the sheets' parts (for each size of table, from its
    layout) and the sizes of the names, as rules for the stylesheet
    (templates/pdf/css/sheet.css): the page carries classes. WeasyPrint
    parses and cascades an element's style attribute for that element
    alone, a stylesheet's rule once for the document."""
    rules = []
    for seats in (2, 3, 4):
        lay = _layout(seats=seats, games=games, marks=marks)
        t = f".t{seats}"
        frame = _markers_frame(lay.markers)
        bottom = lay.markers[3]
        rules += [
            f"{t} .markers {{ left: {_mm(frame.x)}; top: {_mm(frame.y)}; "
            f"width: {_mm(frame.w)}; }}",
            f"{t} .nos {{ top: {_mm(lay.rows_top)}; "
            f"line-height: {_mm(lay.row_mm * seats)}; }}",
            f"{t} .seats, {t} .points, {t} .names {{ top: {_mm(lay.rows_top)}; "
            f"line-height: {_mm(lay.row_mm)}; }}",
            *(
                f"{t} .names.s{seat} {{ top: {_mm(lay.row_top(1, seat))}; }}"
                for seat in range(2, seats + 1)
            ),
            # A single seat's block: a line a game, each line box centred
            # on the seat's row.
            f"{t} .names.one {{ line-height: {_mm(lay.row_mm * seats)}; }}",
            *(
                f"{t} .names.one.s{seat} {{ "
                f"top: {_mm(lay.row_top(1, seat) - lay.row_mm * (seats - 1) / 2)}; }}"
                for seat in range(1, seats + 1)
            ),
            # The bottom markers' line, below the grid.
            f"{t} .players-label {{ top: {_mm(bottom.y)}; "
            f"line-height: {_mm(bottom.h)}; }}",
            f"{t} .player {{ width: {_mm(_box_width(seats))}; }}",
            *(
                f"{t} .p{seat} {{ left: {_mm(_box_left(seat, seats))}; }}"
                for seat in range(1, seats + 1)
            ),
        ]
    # The same for every size of table: the labels print once for all
    # sheets (fixed boxes).
    lay = _layout(seats=4, games=games, marks=marks)
    qr = lay.read_qr
    rules += [
        f".sheet .label, .sheet .game-label {{ top: {_mm(lay.grid.y)}; "
        f"line-height: {_mm(LABEL_ROW)}; }}",
        f".read-qr {{ left: {_mm(qr.x)}; top: {_mm(qr.y)}; width: {_mm(qr.w)}; }}",
        f".sheet .qr {{ left: {_mm(ENTRY_QR_X)}; width: {_mm(ENTRY_QR_SIZE)}; }}",
        f".sheet .qr img {{ width: {_mm(ENTRY_QR_SIZE)}; "
        f"height: {_mm(ENTRY_QR_SIZE)}; }}",
        f".player {{ top: {_mm(BOX_TOP_MM)}; height: {_mm(BOX_HEIGHT_MM)}; "
        f"padding: {_mm(BOX_PAD_TOP_MM)} {_mm(BOX_PAD_X_MM)} 0; "
        f"border-width: {BOX_BORDER_PT:g}pt; }}",
        f".player.keeper {{ border-width: {KEEPER_BORDER_PT:g}pt; }}",
    ]
    # A name after its seat ("1  "; the digits are as wide as each other)
    # starts at ROW_NAME_LEFT_MM.
    for size in sorted(ROW_SIZES):
        left = ROW_NAME_LEFT_MM - text_em(_seat_prefix(1)) * size * MM_PER_PT
        rules.append(
            f".names.f{_size_class(size)} {{ font-size: {size:g}pt; "
            f"left: {_mm(left)}; "
            f"width: {_mm(ROW_NAME_LEFT_MM + ROW_NAME_WIDTH_MM - left)}; }}"
        )
    for size in sorted(BOX_SIZES):
        key = _size_class(size)
        rules.append(
            f".player.n{key}::first-line, .player.n{key} .name "
            f"{{ font-size: {size:g}pt; }}"
        )
    return mark_safe("\n".join(rules))  # numbers only


def _hand_text(hand: dict[str, object]) -> str:
    """A stored sheet line in the referee's short notation (`3 G1 P2:1`):
    the letters the result form reads, from results itself."""
    return hand_notation(hand)


def score_sheets(
    *, tournament: Tournament, series: Series, filled: bool, base_url: str = ""
) -> SheetsData:
    """One sheet per table of the series, blank or filled from the confirmed
    results: 2 queries for a blank series, 4 for a filled one. With
    `base_url` (the address phones open) each carries the QR code of its
    table's page."""
    tables = series_tables(series)
    scores: dict[tuple[int, int, int], GameScore] = {}
    versions: dict[int, ResultVersion] = {}
    if filled:
        for score in GameScore.objects.filter(series=series).only(
            "table_id", "game", "seat", "won", "marks", "points"
        ):
            scores[score.table_id, score.game, score.seat] = score
        for version in ResultVersion.objects.filter(
            table__series=series, status=ResultVersion.Status.CONFIRMED
        ).only("table_id", "number", "data"):
            versions[version.table_id] = version
    return SheetsData(
        tournament=tournament,
        series=series,
        filled=filled,
        start_marks=tournament.start_marks,
        win_bonus=tournament.win_bonus,
        sheets=[
            _sheet(
                table,
                tournament,
                series,
                scores,
                versions.get(table.pk),
                qr=_table_qr(tournament, table, base_url),
            )
            for table in tables
        ],
    )


def _table_qr(tournament: Tournament, table: Table, base_url: str) -> str | None:
    if not base_url:
        return None
    path = reverse(
        "tournament:table_card", kwargs={"slug": tournament.slug, "table": table.number}
    )
    return qr_image(base_url.rstrip("/") + path, error="M")


def _sheet_games(
    table: Table,
    seats: list[Seat],
    scores: dict[tuple[int, int, int], GameScore],
    version: ResultVersion | None,
    *,
    start: int,
    count: int,
    lay: SheetLayout,
) -> tuple[list[SheetGame], dict[int, int]]:
    """The sheet's `count` games, each with a row per seat (filled from
    `scores` when `version` is the confirmed result; `start` marks each)
    and its hands as entered; and each seat's total of points."""
    stored = version.result.get("games", []) if version is not None else []
    totals = dict.fromkeys((s.number for s in seats), 0)
    games = []
    for number in range(1, count + 1):
        rows = []
        for seat in seats:
            score = scores.get((table.pk, number, seat.number))
            kept = None
            if version is not None and score is not None:
                kept = score.marks if score.won else 0
                totals[seat.number] += score.points
            rows.append(
                SheetRow(
                    seat=seat.number,
                    # The lost marks, struck first, as the keeper strikes them.
                    struck=0 if kept is None else start - kept,
                    points=score.points
                    if score is not None and kept is not None and score.won
                    else None,
                )
            )
        hands = stored[number - 1].get("hands", []) if number <= len(stored) else []
        game_mm = lay.row_mm * table.size
        games.append(
            SheetGame(
                number=number,
                rows=rows,
                hands=" · ".join(_hand_text(h) for h in hands),
                hands_style=f"top: {_mm(lay.rows_top + game_mm * (number - 1))}; "
                f"height: {_mm(game_mm)}",
            )
        )
    return games, totals


def _sheet(
    table: Table,
    tournament: Tournament,
    series: Series,
    scores: dict[tuple[int, int, int], GameScore],
    version: ResultVersion | None,
    *,
    qr: str | None = None,
) -> Sheet:
    seats = list(table.seats.all())
    start = tournament.start_marks
    count = tournament.games_per_series
    sheet_id = SheetId(
        tournament=tournament.slug,
        series=series.number,
        table=table.number,
        seats=table.size,
        games=count,
        marks=start,
    )
    lay = _layout(seats=table.size, games=count, marks=start)
    keeper = max((s.number for s in seats), default=table.size)
    games, totals = _sheet_games(
        table, seats, scores, version, start=start, count=count, lay=lay
    )
    return Sheet(
        table=table.number,
        size=table.size,
        keeper=keeper,
        players=[
            SheetPlayer(
                seat=s.number,
                start_number=s.entry.start_number,
                name=s.entry.player.full_name,
                row=row_name(s.entry.player.full_name, row_mm=lay.row_mm),
                box=box_name(s.entry.player.full_name, size=table.size),
                keeper=s.number == keeper,
                total=totals[s.number] if version is not None else None,
            )
            for s in seats
        ],
        games=games,
        confirmed=version is not None,
        version=version.number if version is not None else None,
        start_marks=start,
        layout=lay,
        sheet_id=sheet_id,
        qr=qr,
    )
