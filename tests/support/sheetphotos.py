"""Synthetic phone photos of a table's score sheet, for the photo pages:
the site prints the series' blank sheets, they are rasterized once per
sheet (its QR code's payload: tournament, series, table and layout) for
the whole test run, struck by a simulated writer and photographed
(bench/sheetphoto.py)."""

import shutil

import numpy as np
import pytest

from bench.sheetphoto import Page, Result, photograph, rasterize, struck_counts, write
from tournament.models import Table
from tournament.paper import pdf, sheets

needs_pdftoppm = pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm"
)

# The blank sheets rasterized so far, by their QR code's payload.
_PAGES: dict[str, Page] = {}


def sheet_page(table: Table) -> Page:
    """`table`'s blank sheet as printed, rasterized."""
    series = table.series
    tournament = series.tournament
    data = sheets.score_sheets(tournament=tournament, series=series, filled=False)
    ids = [s.sheet_id for s in data.sheets]
    wanted = next(i for i in ids if i.table == table.number)
    if wanted.payload not in _PAGES:
        document = pdf.sheets_pdf(tournament=tournament, series_number=series.number)
        for page in rasterize(document.content, ids):
            _PAGES[page.sheet.payload] = page
    return _PAGES[wanted.payload]


def sheet_photo(
    table: Table,
    result: Result,
    *,
    seed: int = 1,
    unsure: int | None = None,
) -> bytes:
    """A JPEG as a phone takes it of `table`'s sheet kept with `result`
    (per game: winner seat, marks kept). `unsure`: that game's sheet kept
    wrong, one loser's last mark left standing, so no single player keeps
    marks and the reader must flag it."""
    page = sheet_page(table)
    layout = page.sheet.layout()
    counts = struck_counts(layout, result)
    if unsure is not None:
        winner = result[unsure - 1][0]
        loser = next(s for s in range(1, layout.seats + 1) if s != winner)
        counts[(unsure - 1) * layout.seats + loser - 1] -= 1
    rng = np.random.default_rng(seed)
    return photograph(write(page, result, rng, counts), rng)
