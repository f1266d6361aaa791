"""A scanner's 16-bit grey PNG of a sheet is read as its 8-bit twin: its
levels are reduced by their high byte, not clipped to white."""

import io

import numpy as np
import pytest
from PIL import Image

from tests.sheetphoto.conftest import GAMES, UNSURE
from tests.support.sheetphotos import needs_pdftoppm
from tournament.sheetphoto.reader.read import Expected, read_sheet

pytestmark = [pytest.mark.django_db, needs_pdftoppm]


def png(levels: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(levels).save(out, "PNG")
    return out.getvalue()


def test_a_16_bit_grey_png_reads_as_its_8_bit_twin(photo, photo_table):
    grey = np.asarray(Image.open(io.BytesIO(photo)).convert("L"))
    eight = png(grey)
    sixteen = png(grey.astype(np.uint16) * 257)  # 0..255 → 0..65535
    assert sixteen[24] == 16  # its header's bit depth
    expected = Expected(photo_table.series.tournament.slug, 1, 1)
    read = read_sheet(sixteen, expected=expected).as_dict()
    assert read == read_sheet(eight, expected=expected).as_dict()
    assert [
        (g["winner_seat"], g["marks_left"])
        for g in read["games"]
        if g["number"] != UNSURE
    ] == [tuple(g) for n, g in enumerate(GAMES, 1) if n != UNSURE]
