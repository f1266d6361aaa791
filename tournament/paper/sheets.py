"""The score sheet (Spielliste) of each table, blank or filled.

A filled sheet shows what the confirmed result says and computes nothing:
a winner who kept k marks has 7 − k strokes struck and the points stored
with the result, everybody else has all strokes struck (the GameScore rows
that confirming the result wrote).

WeasyPrint pays per line of text and per box, and a championship prints
100 sheets per series, so a page is a few text blocks: one line per player
per game holds seat, name, strokes and, for the winner, the points; the
grid's rules are backgrounds (templates/pdf/css/sheet.css, bench/paper.py).
"""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.safestring import SafeString

from tournament.models import GameScore, ResultVersion, Series, Table, Tournament
from tournament.paper.fit import MM_PER_PT, Fitted, fit
from tournament.paper.qr import qr_svg
from tournament.results.selectors import hand_notation
from tournament.seating.selectors import series_tables

# One chalk stroke per mark; a lost mark is struck through: the keeper draws
# the other diagonal over the stroke (box-drawing glyphs, so that the struck
# stroke is exactly the stroke and its crossing).
STROKE = "\u2571"  # ╱
STRUCK = "\u2573"  # ╳
# An en space between strokes: the glyphs' ink is wider than their advance.
STROKE_GAP = "\u2002"

# The geometry of a game row (templates/pdf/css/sheet.css): DejaVu Sans at
# 12.5 pt; the strokes start at the tab stop 79 mm, the points column is
# 160–186 mm. Advances in em, from the vendored font.
ROW_FONT_MM = 12.5 * 25.4 / 72
STROKES_AT_MM = 79.0
POINTS_CENTER_MM = 173.0
STROKE_EM = 0.602
GAP_EM = 0.5
DIGIT_EM = 0.636
# A name on a game row stands between the seat number and the strokes'
# column (17.5–75 mm of the grid; its rule is at 76), at the rows' size,
# shrunk or wrapped to fit when it is long: never cut.
ROW_NAME_LEFT_MM = 17.5
ROW_NAME_WIDTH_MM = 57.5
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

# Rows (and the label row) are 9 mm, unless more games or seats than 5 × 4
# have to fit.
GRID_MM = 180.0
ROW_MM = 9.0


def strokes(*, start_marks: int, kept: int | None) -> str:
    """The row of chalk strokes: all standing on a blank sheet (`kept` is
    None), else the lost ones struck, first, as the keeper strikes them."""
    if kept is None:
        return STROKE_GAP.join(STROKE * start_marks)
    return STROKE_GAP.join(STRUCK * (start_marks - kept) + STROKE * kept)


def points_pad(*, start_marks: int, points: int) -> str:
    """Spaces from the end of the strokes to the points, centred in the
    points column (em, en and thin spaces: within 0.1 em)."""
    strokes_em = start_marks * STROKE_EM + (start_marks - 1) * GAP_EM
    number_em = len(str(points)) * DIGIT_EM
    gap = (POINTS_CENTER_MM - STROKES_AT_MM) / ROW_FONT_MM - strokes_em
    gap -= number_em / 2
    if gap <= 0.5:
        return "\u2002"
    ems, rest = divmod(gap, 1.0)
    ens, rest = divmod(rest, 0.5)
    return "\u2003" * int(ems) + "\u2002" * int(ens) + "\u2009" * round(rest / 0.2)


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
    strokes: str
    struck: int
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
    row_mm: float
    start_marks: int
    # The QR code of the table's page (as on its table card), where the
    # players enter the result on their phones; None without an address.
    qr: SafeString | None = None

    @property
    def keeper_name(self) -> str:
        return next((p.name for p in self.players if p.keeper), "")

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
        top = self.row_mm * player.seat + (self.row_mm - height) / 2
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
    def grid_style(self) -> str:
        # A label row, then the games; the tiled rules start below it.
        game_mm = self.row_mm * self.size
        return (
            f"height: {_mm(self.row_mm + game_mm * len(self.games))}; "
            f"background-size: 100% {_mm(game_mm)}, 100% {_mm(self.row_mm)}; "
            f"background-position: 0 {_mm(self.row_mm)}"
        )

    @property
    def shade_style(self) -> str:
        # The heavy rule under every game crosses the game numbers too.
        return (
            f"background-size: 100% {_mm(self.row_mm * self.size)}; "
            f"background-position: 0 {_mm(self.row_mm)}"
        )

    @property
    def label_style(self) -> str:
        return f"line-height: {_mm(self.row_mm)}"

    @property
    def game_style(self) -> str:
        row = _mm(self.row_mm)
        return f"top: {row}; line-height: {_mm(self.row_mm * self.size)}"

    @property
    def row_style(self) -> str:
        row = _mm(self.row_mm)
        return f"top: {row}; line-height: {row}"

    @property
    def game_numbers_text(self) -> str:
        return "\n".join(str(g.number) for g in self.games)

    @property
    def rows_text(self) -> str:
        """A line per player per game (line i: game i // size + 1, seat
        i % size + 1): seat, a tab, the strokes, the winner's points. The
        names stand in blocks of their own (`seat_names`), each at the size
        that fits it."""
        seats = [str(p.seat) for p in self.players]
        lines = []
        for game in self.games:
            for seat, row in zip(seats, game.rows, strict=True):
                line = f"{seat}\t{row.strokes}"
                if row.points is not None:
                    pad = points_pad(start_marks=self.start_marks, points=row.points)
                    line += pad + str(row.points)
                lines.append(line)
        return "\n".join(lines)


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


# The QR code in a score sheet's head, beside the table number.
SHEET_QR_MM = 21.0


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
    scores: dict[tuple[int, int, int], GameScore],
    version: ResultVersion | None,
    *,
    qr: SafeString | None = None,
) -> Sheet:
    seats = list(table.seats.all())
    start = tournament.start_marks
    count = tournament.games_per_series
    row_mm = min(ROW_MM, GRID_MM / (count * max(table.size, 1)))
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
            text = strokes(start_marks=start, kept=kept)
            rows.append(
                SheetRow(
                    seat=seat.number,
                    strokes=text,
                    struck=text.count(STRUCK),
                    points=score.points
                    if score is not None and kept is not None and score.won
                    else None,
                )
            )
        hands = stored[number - 1].get("hands", []) if number <= len(stored) else []
        game_mm = row_mm * table.size
        games.append(
            SheetGame(
                number=number,
                rows=rows,
                hands=" · ".join(_hand_text(h) for h in hands),
                hands_style=f"top: {_mm(row_mm + game_mm * (number - 1))}; "
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
                row=row_name(s.entry.player.full_name, row_mm=row_mm),
                box=box_name(s.entry.player.full_name, size=table.size),
                keeper=s.number == keeper,
                total=totals[s.number] if version is not None else None,
            )
            for s in seats
        ],
        games=games,
        confirmed=version is not None,
        version=version.number if version is not None else None,
        row_mm=row_mm,
        start_marks=start,
        qr=qr,
    )
