"""The score sheet (Spielliste) of each table, blank or filled.

A filled sheet shows what the confirmed result says and computes nothing:
a winner who kept k marks has 7 − k strokes struck and the points stored
with the result, everybody else has all strokes struck (the GameScore rows
that confirming the result wrote).

The sheet is read back from a phone's photo (tournament/sheetphoto), so
the places of its markers, QR code, rules and strokes come from one
layout (`sheetphoto.reader.layout`) that the reader reads by. WeasyPrint
pays per line of text and per box, and a championship prints 100 sheets
per series: a page is a few text blocks (seats, names, points, each one
block a column) and one drawing of paths for everything the reader finds
(templates/pdf/css/sheet.css, bench/paper.py).
"""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tournament.models import GameScore, ResultVersion, Series, Table, Tournament
from tournament.paper.fit import MM_PER_PT, Fitted, fit
from tournament.paper.qr import qr_svg, read_qr_svg
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
    LABEL_ROW,
    MARKER_IDS,
    PAGE_H,
    PAGE_W,
    STROKE_GREY,
    STROKE_WIDTH,
    SheetId,
    SheetLayout,
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
        width_mm=BOX_WIDTH_MM.get(size, BOX_WIDTH_MM[4]) - BOX_PADDING_MM,
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
    """A corner marker as a PNG under static/ (an image is drawn once per
    document, a drawing once per page); tests/paper/test_sheet_reader.py
    holds them to the markers the reader looks for."""
    return f"pdf/aruco-4x4-{marker_id}.png"


@dataclass(frozen=True)
class SheetPlayer:
    seat: int
    start_number: int
    name: str
    row: Fitted  # the name on each game row: shrunk or wrapped, never cut
    box: Fitted  # the same name in the player's box
    keeper: bool  # the highest seat deals first and keeps the sheet
    total: int | None  # the series' points at this table (filled sheets)


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
    # players enter the result on their phones; None without an address.
    qr: SafeString | None = None

    @property
    def row_mm(self) -> float:
        return self.layout.row_mm

    @property
    def keeper_name(self) -> str:
        return next((p.name for p in self.players if p.keeper), "")

    @property
    def read_qr(self) -> SafeString:
        """The QR code the reader decodes: short, error level Q."""
        return read_qr_svg(self.sheet_id.payload, size_mm=self.layout.read_qr.w)

    @property
    def markers(self) -> list[tuple[str, str]]:
        """The corner markers: each a static image (marker_file) and where
        it stands."""
        return [
            (
                marker_file(MARKER_IDS[i]),
                f"left: {_mm(box.x)}; top: {_mm(box.y)}; width: {_mm(box.w)}",
            )
            for i, box in enumerate(self.layout.markers)
        ]

    @property
    def read_qr_style(self) -> str:
        box = self.layout.read_qr
        return f"left: {_mm(box.x)}; top: {_mm(box.y)}; width: {_mm(box.w)}"

    @property
    def overlay(self) -> SafeString:
        """Everything the reader finds, drawn from the layout in page
        millimetres: the grid's rules, the strokes (light grey lines, not
        glyphs), the corner markers and, on a filled sheet, the strikes."""
        lay = self.layout
        grid = lay.grid
        rules = []
        for i, y in enumerate(lay.rules[:-1]):
            if i % self.size:
                rules.append(f"M{_n(grid.x)} {_n(y)}H{_n(grid.x + grid.w)}")
        heavy = [
            f"M{_n(grid.x)} {_n(y)}H{_n(grid.x + grid.w)}"
            for i, y in enumerate(lay.rules)
            if i % self.size == 0 and 0 < i < len(lay.rules) - 1
        ]
        heavy += [
            f"M{_n(x)} {_n(grid.y)}V{_n(grid.y + grid.h)}"
            for x in (COL_NAME[0], COL_STROKES[0], COL_STROKES[1], COL_POINTS[0])
        ]
        thin = f"M{_n(COL_HANDS[1])} {_n(grid.y)}V{_n(grid.y + grid.h)}"
        # The strokes and the strikes are tiles of one cell (an SVG
        # pattern: drawn once per page, cheap to print), laid over the rows;
        # the layout's cells are regular, so every tile is a cell.
        first = lay.cells[0]
        cw, ch = first.box.w, first.box.h
        sx0, sy0, sx1, sy1 = first.stroke
        stroke_tile = (
            f"M{_n(sx0 - first.box.x)} {_n(sy0 - first.box.y)}"
            f"L{_n(sx1 - first.box.x)} {_n(sy1 - first.box.y)}"
        )
        run = min(STRIKE_RUN_MM, cw * 0.3)
        half = ch * STRIKE_HEIGHT / 2
        strike_tile = (
            f"M{_n(cw / 2 - run)} {_n(ch / 2 - half)}"
            f"L{_n(cw / 2 + run)} {_n(ch / 2 + half)}"
        )
        # WeasyPrint starts a pattern's tiles at the corner of each shape it
        # fills (every shape here starts at a cell's corner).
        tile = f'patternUnits="userSpaceOnUse" width="{_n(cw)}" height="{_n(ch)}"'
        # All strikes are one shape (a rectangle per row, as wide as its
        # struck marks) filled once: WeasyPrint draws a pattern per shape.
        runs = []
        for game in self.games:
            for row in game.rows:
                if row.struck:
                    box = lay.cell(game.number, row.seat, 1).box
                    runs.append(
                        f"M{_n(box.x)} {_n(box.y)}h{_n(cw * row.struck)}"
                        f"v{_n(ch)}h-{_n(cw * row.struck)}z"
                    )
        strikes = (
            [f'<path d="{"".join(runs)}" fill="url(#strike{self.table})"/>']
            if runs
            else []
        )
        band_w = cw * lay.marks
        band_h = ch * lay.seats * lay.games
        parts = [
            f'<svg class="overlay" viewBox="0 0 {_n(PAGE_W)} {_n(PAGE_H)}" '
            f'width="{_n(PAGE_W)}mm" height="{_n(PAGE_H)}mm">',
            f'<rect x="{_n(grid.x)}" y="{_n(grid.y)}" '
            f'width="{_n(COL_GAME[1] - grid.x)}" '
            f'height="{_n(grid.h)}" fill="#e4e4e4"/>',
            f'<path d="{"".join(rules)}" stroke="#777" stroke-width="0.18" '
            'fill="none"/>',
            f'<path d="{thin}" stroke="#777" stroke-width="0.25" fill="none"/>',
            f'<path d="{"".join(heavy)}" stroke="#111" stroke-width="0.32" '
            'fill="none"/>',
            f'<rect x="{_n(grid.x)}" y="{_n(grid.y)}" width="{_n(grid.w)}" '
            f'height="{_n(grid.h)}" stroke="#111" stroke-width="0.32" fill="none"/>',
            f'<defs><pattern id="stroke{self.table}" {tile}><path d="{stroke_tile}" '
            f'stroke="{STROKE_GREY}" stroke-width="{_n(STROKE_WIDTH)}" '
            'stroke-linecap="round" fill="none"/></pattern>',
            f'<pattern id="strike{self.table}" {tile}>'
            f'<path d="{strike_tile}" stroke="#111" '
            f'stroke-width="{_n(STRIKE_WIDTH_MM)}" stroke-linecap="round" '
            'fill="none"/></pattern></defs>',
            f'<rect x="{_n(first.box.x)}" y="{_n(first.box.y)}" '
            f'width="{_n(band_w)}" height="{_n(band_h)}" '
            f'fill="url(#stroke{self.table})"/>',
            *strikes,
        ]
        parts.append("</svg>")
        return mark_safe("".join(parts))  # numbers only, no data

    def _name_lines_mm(self, name: Fitted) -> tuple[int, float]:
        """Lines per game and their height for a seat's names: a game's
        rows are `size` rows apart. A name of one line is one line a game
        apart (each line box is centred on its row); a wrapped one gets
        close lines and blank ones to fill the rest (lines cost time)."""
        period = self.row_mm * self.size
        if len(name.lines) == 1:
            return 1, period
        per_game = max(len(name.lines), int(period / (name.size_pt * MM_PER_PT * 1.15)))
        return per_game, period / per_game

    def name_style(self, player: "SheetPlayer") -> str:
        """Where a seat's names stand: centred in its first row, at their
        size, one game apart."""
        _, line_mm = self._name_lines_mm(player.row)
        height = line_mm * len(player.row.lines)
        top = self.layout.row_top(1, player.seat) + (self.row_mm - height) / 2
        return (
            f"top: {_mm(top)}; left: {_mm(ROW_NAME_LEFT_MM)}; "
            f"width: {_mm(ROW_NAME_WIDTH_MM)}; font-size: {player.row.size}; "
            f"line-height: {_mm(line_mm)}"
        )

    def names_text(self, player: "SheetPlayer") -> str:
        """A seat's name on each of its game rows, as one block of text."""
        per_game, _ = self._name_lines_mm(player.row)
        entry = list(player.row.lines)
        entry += [""] * (per_game - len(entry))
        return "\n".join("\n".join(entry) for _ in self.games).rstrip("\n")

    @property
    def seat_names(self) -> list[tuple["SheetPlayer", str, str]]:
        """Each player with the style and text of his names on the rows."""
        return [(p, self.name_style(p), self.names_text(p)) for p in self.players]

    @property
    def label_style(self) -> str:
        return f"top: {_mm(self.layout.grid.y)}; line-height: {_mm(LABEL_ROW)}"

    @property
    def game_style(self) -> str:
        top = _mm(self.layout.rows_top)
        return f"top: {top}; line-height: {_mm(self.row_mm * self.size)}"

    @property
    def row_style(self) -> str:
        return f"top: {_mm(self.layout.rows_top)}; line-height: {_mm(self.row_mm)}"

    @property
    def lower_style(self) -> str:
        """The bottom markers' line, below the grid: the players' label."""
        marker = self.layout.markers[3]
        return f"top: {_mm(marker.y)}; line-height: {_mm(marker.h)}"

    @property
    def game_numbers_text(self) -> str:
        return "\n".join(str(g.number) for g in self.games)

    @property
    def seats_text(self) -> str:
        """The seat of each row (line i: game i // size + 1)."""
        return "\n".join(str(r.seat) for g in self.games for r in g.rows)

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


def _hand_text(hand: dict[str, object]) -> str:
    """A stored sheet line in the referee's short notation (`3 G1 P2:1`):
    the letters the result form reads, from results itself."""
    return hand_notation(hand)


# The QR code of the table's page in a score sheet's head.
SHEET_QR_MM = ENTRY_QR_SIZE


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


def _table_qr(tournament: Tournament, table: Table, base_url: str) -> SafeString | None:
    if not base_url:
        return None
    path = reverse(
        "tournament:table_card", kwargs={"slug": tournament.slug, "table": table.number}
    )
    return qr_svg(base_url.rstrip("/") + path, size_mm=SHEET_QR_MM)


def _sheet(
    table: Table,
    tournament: Tournament,
    series: Series,
    scores: dict[tuple[int, int, int], GameScore],
    version: ResultVersion | None,
    *,
    qr: SafeString | None = None,
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
    lay = sheet_id.layout()
    keeper = max((s.number for s in seats), default=table.size)
    stored = version.data.get("games", []) if version is not None else []
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
