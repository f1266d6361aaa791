"""Synthetic phone photos of a table's score sheet, for the photo pages:
the site prints the series' blank sheets, they are rasterized once per
sheet (its QR code's payload: tournament, series, table and layout) for
the whole test run, struck by a simulated writer and photographed
(bench/sheetphoto.py)."""

import shutil
import struct
import zlib

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


def blank_png(width: int, height: int, *, interlaced: bool = False) -> bytes:
    """A white 8-bit grey PNG of any size, compressed row by row (one of
    60 MP is about 70 KB and never whole in memory). `interlaced`: marked
    Adam7 in its header, its data left plain (for a reader that must
    refuse it before decoding)."""
    packer = zlib.compressobj(6)
    row = b"\x00" + b"\xff" * width
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, int(interlaced))
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", data)
        + _png_chunk(b"IEND", b"")
    )


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
