"""Strikes as people make them, read from fixed photos (bench/sheetphoto.py
draws them with a fixed seed): a strike nearly along the printed stroke,
a sheet struck in pencil, pens mixed on one sheet, a pencil smudge over a
standing mark, a row struck out of order ("von links nach rechts"), a
photo with the sheet's own QR code cut off, and where a winner's strikes
end: a faint strike along the stroke, erased pencil after a faint line,
strikes in a pen far fainter than the game's."""

import cv2
import numpy as np
import pytest

from bench.sheetphoto import (
    MM,
    Hand,
    _polyline,
    _strike_cell,
    photograph_as,
    rasterize,
    struck_counts,
    write_by_hand,
)
from tests.sheetphoto.conftest import GAMES
from tests.support.sheetphotos import needs_pdftoppm, sheet_page
from tournament.paper import pdf, sheets
from tournament.sheetphoto.reader.read import SheetRefused, read_sheet
from tournament.sheetphoto.refusals import refusal_message

pytestmark = [pytest.mark.django_db, needs_pdftoppm]

# Table 1's games (winner seat, marks kept), each read clearly.
CLEAR = [(winner, marks, False) for winner, marks in GAMES]
SEED_FAINT = 1


def photo(table, hand, *, seed=5, counts=None, touch=None):
    """A JPEG of `table`'s sheet kept with GAMES (or `counts` struck marks
    per row), struck by `hand`; `touch` changes the struck sheet before
    it is photographed."""
    page = sheet_page(table)
    rng = np.random.default_rng(seed)
    sheet = write_by_hand(page, GAMES, rng, hand, counts)
    if touch is not None:
        sheet = touch(page, sheet)
    return photograph_as(sheet, rng, hand.condition)


def games(data):
    return [(g.winner_seat, g.marks_left, g.flagged) for g in read_sheet(data).games]


def test_a_strike_nearly_along_the_printed_stroke_is_struck(photo_table):
    # Masked away with the printed stroke, every mark would stand.
    data = photo(photo_table, Hand("ballpoint_black", "along", "scan", ()))
    assert games(data) == CLEAR


def test_a_sheet_struck_in_pencil_is_read(photo_table):
    data = photo(photo_table, Hand("pencil", "oblique", "phone", ()))
    assert games(data) == CLEAR


def test_pens_mixed_on_one_sheet_are_read_each_by_its_own_level(photo_table):
    data = photo(photo_table, Hand("mixed", "across", "scan", ()), seed=1)
    assert games(data) == CLEAR


def _smudge(page, sheet, *, game=1, seat=1, mark=3):
    """A pencil smudge (a soft grey patch, no line) over one mark."""
    box = page.sheet.layout().cell(game, seat, mark).box
    patch = np.zeros(sheet.shape[:2], np.float32)
    centre = (round((box.x + box.w / 2) * MM), round((box.y + box.h / 2) * MM))
    axes = (round(2.0 * MM), round(2.8 * MM))
    cv2.ellipse(patch, centre, axes, 20.0, 0, 360, 0.3, -1, cv2.LINE_AA)
    patch = cv2.GaussianBlur(patch, (0, 0), 0.8 * MM)[..., None]
    out = sheet.astype(np.float32) * (1 - patch) + 110.0 * patch
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_smudge_over_a_standing_mark_is_no_strike(photo_table):
    # Game 1: seat 1 keeps 5 marks, so marks 1–2 are struck and mark 3
    # stands under the smudge.
    data = photo(
        photo_table, Hand("ballpoint_black", "across", "scan", ()), touch=_smudge
    )
    reading = read_sheet(data)
    cell = next(c for c in reading.cells if (c.game, c.seat, c.mark) == (1, 1, 3))
    assert cell.state == "standing"
    game = reading.games[0]
    assert (game.winner_seat, game.marks_left, game.flagged) == CLEAR[0]


def test_a_row_struck_out_of_order_is_flagged_with_its_cells(photo_table):
    # Seat 1 of game 1 has marks 1, 2 and 4 struck, mark 3 left standing:
    # against "von links nach rechts", so no count of marks is sure.
    page = sheet_page(photo_table)
    layout = page.sheet.layout()
    counts = struck_counts(layout, GAMES)
    counts[0] = 4

    def unstrike(page, sheet):
        box = layout.cell(1, 1, 3).box
        x0, x1 = round(box.x * MM), round((box.x + box.w) * MM)
        y0, y1 = round(box.y * MM), round((box.y + box.h) * MM)
        sheet[y0:y1, x0:x1] = page.image[y0:y1, x0:x1]
        return sheet

    data = photo(
        photo_table,
        Hand("ballpoint_blue", "across", "scan", ()),
        counts=counts,
        touch=unstrike,
    )
    reading = read_sheet(data)
    assert reading.games[0].flagged
    assert reading.games[0].reason == "order"
    states = {c.mark: c.state for c in reading.cells if (c.game, c.seat) == (1, 1)}
    assert states[3] == "doubtful"
    assert states[4] == "doubtful"
    assert [(g.winner_seat, g.marks_left, g.flagged) for g in reading.games[1:]] == (
        CLEAR[1:]
    )


def test_a_cut_off_sheet_code_is_unreadable_not_an_older_sheet(photo_table):
    # Printed with the site's address: the phones' code (the table page's
    # link) stands whole beside the cut one and does not name the sheet.
    series = photo_table.series
    tournament = series.tournament
    ids = [
        s.sheet_id
        for s in sheets.score_sheets(
            tournament=tournament, series=series, filled=False
        ).sheets
    ]
    document = pdf.sheets_pdf(
        tournament=tournament, series_number=1, base_url="http://192.168.1.20:8000"
    )
    page = rasterize(document.content, ids)[0]
    rng = np.random.default_rng(5)
    hand = Hand("ballpoint_black", "across", "cut_qr", ())
    data = photograph_as(write_by_hand(page, GAMES, rng, hand), rng, hand.condition)
    with pytest.raises(SheetRefused) as refused:
        read_sheet(data)
    assert refused.value.code == "no_code"
    assert "QR-Code der Spielliste ist nicht lesbar" in refusal_message(refused.value)


def _fainter(page, sheet, share=0.35):
    """The strikes a `share` of their ink: a pen running dry."""
    blank = page.image.astype(np.float32)
    out = blank + share * (sheet.astype(np.float32) - blank)
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_sheet_struck_faintly_is_asked_about_not_refused_as_empty(photo_table):
    # A third of a faint pen's ink, along the printed stroke, in a small
    # photo: what is read is flagged for a person, never "nothing struck".
    data = photo(
        photo_table,
        Hand("faint", "along", "small", ()),
        seed=SEED_FAINT,
        touch=_fainter,
    )
    reading = read_sheet(data)
    assert all(
        g.flagged or (g.winner_seat, g.marks_left) == GAMES[g.number - 1]
        for g in reading.games
    )
    assert any(g.flagged and g.reason == "faint" for g in reading.games)


def test_a_pencil_strike_along_the_printed_stroke_is_struck(photo_table):
    # Pencil is no darker than the printed grey: over the stroke only its
    # added ink shows it, so masked away every game was in doubt.
    data = photo(photo_table, Hand("pencil", "along", "phone", ()), seed=2)
    assert games(data) == CLEAR


@pytest.mark.parametrize(("condition", "seed"), [("scan", 5), ("jpeg40", 4)])
def test_pencil_strikes_along_the_stroke_the_lines_see_plainly_are_struck(
    photo_table, condition, seed
):
    # Marks the masked view reads standing and their lines far above doubt
    # with most of a strike's ink: struck, where three games (a scan) or
    # two (JPEG quality 40) were asked about.
    data = photo(photo_table, Hand("pencil", "along", condition, ()), seed=seed)
    assert games(data) == CLEAR


def test_a_last_strike_along_the_stroke_with_a_third_of_a_strike_is_plain(
    photo_table,
):
    # A strike along the printed stroke lies partly on it, so its lines
    # hold less of its writer's ink than a strike across: where a row's
    # strikes end it is plain from 0.35 of the writer's strike (at 0.45
    # game 2 was asked about).
    data = photo(photo_table, Hand("mixed", "along", "jpeg40", ()), seed=0)
    assert games(data) == CLEAR


def test_a_winner_keeping_every_mark_is_read_in_a_dim_photo_s_noise(photo_table):
    # Game 3: seat 1 keeps all 7 marks. In warm dim light the camera's
    # noise lies on them: within 4 times the noise of a stroke alone they
    # surely stand (within 3, game 3 was asked about).
    data = photo(photo_table, Hand("pencil", "doubled", "warm_dim", ()), seed=1)
    assert games(data)[2] == CLEAR[2]


@pytest.mark.parametrize("seed", [3, 4])
def test_a_faint_pen_in_warm_dim_light_is_read(photo_table, seed):
    # The camera's noise in dim light is as dark as a faint line.
    data = photo(photo_table, Hand("faint", "across", "warm_dim", ()), seed=seed)
    assert games(data) == CLEAR


def test_a_sheet_in_warm_dim_light_is_read_not_refused_as_empty(photo_table):
    data = photo(photo_table, Hand("ballpoint_blue", "oblique", "warm_dim", ()), seed=4)
    assert games(data) == CLEAR


def _blend(sheet, ink, colour, alpha):
    # Painted, not inked (bench.sheetphoto.ink_on): the hostile case of a
    # pen whose line over the printed stroke is no darker than the print.
    a = ink.astype(np.float32)[..., None] / 255 * alpha
    out = sheet.astype(np.float32) * (1 - a) + np.asarray(colour, np.float32) * a
    return np.clip(out, 0, 255).astype(np.uint8)


def _faint_along(page, sheet, *, game=4, seat=4, mark=6):
    """One mark's strike replaced by a faint pen's exactly along its
    printed stroke, no longer than it: masked away, and no darker."""
    cell = page.sheet.layout().cell(game, seat, mark)
    box = cell.box
    x0, x1 = round(box.x * MM), round((box.x + box.w) * MM)
    y0, y1 = round(box.y * MM), round((box.y + box.h) * MM)
    sheet[y0:y1, x0:x1] = page.image[y0:y1, x0:x1]
    ink = np.zeros(sheet.shape[:2], np.uint8)
    sx0, sy0, sx1, sy1 = cell.stroke
    _polyline(ink, (sx0, sy0), (sx1, sy1), 0.35, 0.0)
    return _blend(sheet, ink, (200, 188, 176), 0.8)


def test_a_winner_s_last_strike_along_the_stroke_in_a_faint_pen_is_flagged(
    photo_table,
):
    # Game 4: seat 4 keeps 1 mark, so marks 1-6 are struck; mark 6 only
    # by a faint line along its printed stroke. Where the winner's strikes
    # end the count is read: a strike no view sees plainly is asked about,
    # never read standing (2 marks left).
    data = photo(
        photo_table,
        Hand("ballpoint_blue", "across", "phone", ()),
        seed=0,
        touch=_faint_along,
    )
    game = read_sheet(data).games[3]
    assert game.flagged or (game.winner_seat, game.marks_left) == GAMES[3]


def _erased(page, sheet, *, game=1, seat=1, mark=3, alpha=0.3):
    """An erased pencil strike's remains over one standing mark."""
    cell = page.sheet.layout().cell(game, seat, mark)
    rng = np.random.default_rng(0)
    ink = np.zeros(sheet.shape[:2], np.uint8)
    _strike_cell(ink, page.sheet.layout(), cell.box, cell.stroke, "across", 0.3, rng)
    grain = 1 - 0.6 * rng.random(ink.shape, dtype=np.float32)
    return _blend(sheet, (ink * grain).astype(np.uint8), (120, 118, 115), alpha)


@pytest.mark.parametrize("seed", [0, 2])
def test_erased_pencil_after_a_faint_row_line_is_flagged_not_counted(photo_table, seed):
    # Game 1: seat 1 keeps 5 marks, struck by one faint line through marks
    # 1-2; mark 3 stands with an erased pencil strike's remains, well
    # below the line's ink. Counted as struck it read 4 marks left, unflagged.
    data = photo(
        photo_table, Hand("faint", "row_line", "phone", ()), seed=seed, touch=_erased
    )
    game = read_sheet(data).games[0]
    assert game.flagged or (game.winner_seat, game.marks_left) == GAMES[0]


@pytest.mark.parametrize("alpha", [0.2, 0.3])
def test_erased_pencil_beside_a_winner_s_one_strike_along_the_stroke_is_flagged(
    photo_table, alpha
):
    # Game 1: seat 1 strikes mark 1 only, in pencil along its stroke (the
    # masked view sees little of it); mark 2 stands with an erased pencil
    # strike's remains, across, which the masked view sees whole. Its own
    # row's level is no writer's (its three strongest marks are mostly
    # standing) and the masked view's is a strike along the stroke's: the
    # lines, all the ink there is, show the remains as a fraction of a
    # strike. Counted as struck it read 5 marks left, unflagged.
    layout = sheet_page(photo_table).sheet.layout()
    counts = struck_counts(layout, GAMES)
    counts[0] = 1
    data = photo(
        photo_table,
        Hand("pencil", "along", "phone", ()),
        seed=1,
        counts=counts,
        touch=lambda page, sheet: _erased(page, sheet, mark=2, alpha=alpha),
    )
    game = read_sheet(data).games[0]
    assert game.flagged or (game.winner_seat, game.marks_left) == (1, 6)


def test_a_smudge_over_a_winner_s_later_standing_mark_is_no_doubt(photo_table):
    # Pencil smudges over three standing marks: one lies on game 3's
    # winner's row (seat 1 keeps all 7) after marks both views see as
    # strokes alone, and its lines are a stroke alone too. Struck it would
    # break "von links nach rechts", so it stands: no person is asked.
    data = photo(
        photo_table, Hand("ballpoint_blue", "oblique", "phone", ("smudge",)), seed=3
    )
    assert games(data) == CLEAR


def _light_row(page, sheet, *, turn=20.0, game=1, seat=2):
    """A loser's whole row struck again lightly: a faint pen's line through
    each mark's middle, `turn` degrees off its printed stroke; the masked
    view sees a little of each, too little to be sure."""
    layout = page.sheet.layout()
    ink = np.zeros(sheet.shape[:2], np.uint8)
    for mark in range(1, layout.marks + 1):
        cell = layout.cell(game, seat, mark)
        box = cell.box
        x0, x1 = round(box.x * MM), round((box.x + box.w) * MM)
        y0, y1 = round(box.y * MM), round((box.y + box.h) * MM)
        sheet[y0:y1, x0:x1] = page.image[y0:y1, x0:x1]
        sx0, sy0, sx1, sy1 = cell.stroke
        angle = np.arctan2(sy1 - sy0, sx1 - sx0) + np.deg2rad(turn)
        half = np.hypot(sx1 - sx0, sy1 - sy0) / 2
        dx, dy = np.cos(angle) * half, np.sin(angle) * half
        cx, cy = (sx0 + sx1) / 2, (sy0 + sy1) / 2
        _polyline(ink, (cx - dx, cy - dy), (cx + dx, cy + dy), 0.35, 0.0)
    return _blend(sheet, ink, (200, 188, 176), 0.8)


def test_a_loser_s_doubtful_row_is_struck_when_one_row_plainly_stands(photo_table):
    # Game 1: seat 1 keeps 5 marks, plainly; seat 2 (a loser) struck all
    # seven lightly, each mark doubtful. A game has one winner and the
    # others strike all their marks: the row is a loser's, no person asked.
    data = photo(
        photo_table, Hand("ballpoint_black", "across", "scan", ()), touch=_light_row
    )
    assert games(data) == CLEAR


def test_a_loser_s_row_with_marks_read_standing_is_asked_about(photo_table):
    # As above, the light lines nearly along the strokes: the row reads
    # as marks standing, so two players keep marks and a person looks.
    data = photo(
        photo_table,
        Hand("ballpoint_black", "across", "scan", ()),
        touch=lambda page, sheet: _light_row(page, sheet, turn=10.0),
    )
    assert read_sheet(data).games[0].flagged


def _run_over(page, sheet, *, game=2, seat=2, mark=5, reach=0.0):
    """The strike before `mark` run over into its cell: a short line of
    the same ballpoint reaching `reach` mm past the cell's left edge, off
    its printed stroke."""
    box = page.sheet.layout().cell(game, seat, mark).box
    ink = np.zeros(sheet.shape[:2], np.uint8)
    y = box.y + box.h * 0.3
    _polyline(ink, (box.x - 0.5, y), (box.x + reach, y + 0.3), 0.35, 0.0)
    return _blend(sheet, ink, (40, 34, 32), 0.9)


@pytest.mark.parametrize("reach", [0.0, 0.2])
def test_a_strike_run_over_into_the_first_standing_mark_leaves_it_standing(
    photo_table, reach
):
    # Game 2: seat 2 keeps 3 marks, so marks 1-4 are struck; the strike
    # of mark 4 runs over into mark 5's cell. Its ink there is a small
    # share of the row's weakest strike in both views, and the row's pen
    # shows plainly in its lines: mark 5 stands, no person is asked.
    data = photo(
        photo_table,
        Hand("ballpoint_black", "across", "scan", ()),
        touch=lambda page, sheet: _run_over(page, sheet, reach=reach),
    )
    reading = read_sheet(data)
    cell = next(c for c in reading.cells if (c.game, c.seat, c.mark) == (2, 2, 5))
    assert cell.state == "standing"
    assert [(g.winner_seat, g.marks_left, g.flagged) for g in reading.games] == CLEAR


def test_a_strike_run_far_into_the_first_standing_mark_is_asked_about(photo_table):
    # As above, the line reaching 1.2 mm into mark 5's cell: a third of a
    # strike's ink, too much to call it standing unasked.
    data = photo(
        photo_table,
        Hand("ballpoint_black", "across", "scan", ()),
        touch=lambda page, sheet: _run_over(page, sheet, reach=1.2),
    )
    game = read_sheet(data).games[1]
    assert game.flagged


def test_a_winner_s_last_strike_alike_the_others_is_read_plainly(photo_table):
    # Pencil, doubled lines, a 1200 px photo: game 5's winner (seat 3,
    # marks 1-5 struck) struck mark 5 as the others, but its lines hold
    # less of the row's strike than a plain one must. The masked view sees
    # it struck as the row's other marks: where the strikes end is plain.
    data = photo(photo_table, Hand("pencil", "doubled", "small", ()), seed=7)
    game = read_sheet(data).games[4]
    assert (game.winner_seat, game.marks_left, game.flagged) == (3, 2, False)


def test_erased_pencil_on_a_winner_s_later_standing_mark_is_no_doubt(photo_table):
    # Game 3: seat 1 keeps all 7 marks; mark 4 holds an erased pencil
    # strike's remains, a twentieth of a strike in both views, which a
    # clean scan's lines doubt as the masked view does. After mark 1, a
    # stroke alone in both views, struck it would break "von links nach
    # rechts", and the lines see strokes alone to the row's end: it stands.
    data = photo(
        photo_table,
        Hand("ballpoint_blue", "oblique", "scan", ()),
        seed=0,
        touch=lambda page, sheet: _erased(page, sheet, game=3, mark=4, alpha=0.2),
    )
    assert games(data) == CLEAR


def _faint_crosses(page, sheet, *, game=3, seat=1, marks=3):
    """A row's first `marks` struck by a faint pen's thin crosses, light
    beside the sheet's ballpoint."""
    layout = page.sheet.layout()
    rng = np.random.default_rng(0)
    ink = np.zeros(sheet.shape[:2], np.uint8)
    for mark in range(1, marks + 1):
        cell = layout.cell(game, seat, mark)
        _strike_cell(ink, layout, cell.box, cell.stroke, "cross", 0.25, rng)
    return _blend(sheet, ink, (200, 188, 176), 0.4)


def test_a_winner_s_strikes_in_a_pen_far_fainter_than_the_game_s_are_asked_about(
    photo_table,
):
    # Game 3: seat 1 struck marks 1-3 with a faint pen's thin crosses, the
    # others in black ballpoint; below the game's doubt they read as
    # standing (7 marks left, was 4), unflagged. Marks from the first on,
    # each holding ink ten times the row's later ones: a faint pen's
    # strikes, and a person looks.
    data = photo(
        photo_table,
        Hand("ballpoint_black", "cross", "phone", ()),
        seed=0,
        touch=_faint_crosses,
    )
    game = read_sheet(data).games[2]
    assert game.flagged or (game.winner_seat, game.marks_left) == (1, 4)
