"""Synthetic phone photos of the site's own blank sheets, struck by
simulated writers (bench/sheetphoto.py), read back: a small fixed-seed run
with floors under the benchmark's targets."""

import shutil

import pytest

from bench.sheetphoto import DPI, Page, evaluate, rasterize
from tests.support.factories import make_series
from tournament.paper import pdf, sheets

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm"),
]

PHOTOS = 6


def test_synthetic_photos_read_right_or_flagged(tournament):
    series = make_series(tournament, sizes=(4, 3))
    data = sheets.score_sheets(tournament=tournament, series=series, filled=False)
    document = pdf.sheets_pdf(tournament=tournament, series_number=1)
    pages: list[Page] = rasterize(document.content, [s.sheet_id for s in data.sheets])
    assert DPI == 200 and len(pages) == 2
    figures = evaluate(pages, PHOTOS, seed=5)
    assert figures["photos"] == PHOTOS
    assert figures["not_found"] == 0
    assert figures["cell_accuracy"] >= 0.998
    assert figures["wrong_unflagged_games"] == 0
    assert figures["flagged_games"] <= 0.1 * figures["games"]
    assert figures["games"] == 5 * PHOTOS
    assert figures["p50_ms"] < 2000  # a loaded machine: the bench holds 500
