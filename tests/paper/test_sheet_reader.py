"""The score sheet read back: a sheet printed filled and rasterized reads as
its confirmed result (`manage.py readsheet`), its layout is one rule for
the PDF and the reader, and bad input is refused with a German sentence."""

import io
import json
import shutil
import struct
import subprocess
import zlib
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from PIL import Image

from tests.support.results import RESULTS
from tournament.paper import pdf
from tournament.sheetphoto.reader.layout import (
    COL_STROKES,
    SheetId,
    parse_payload,
    sheet_layout,
)
from tournament.sheetphoto.reader.read import (
    MAX_BYTES,
    Expected,
    SheetRefused,
    decode_image,
    read_sheet,
)
from tournament.sheetphoto.refusals import refusal_message

needs_pdftoppm = pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm"
)


def rasterize(content: bytes, folder: Path, dpi: int = 150) -> list[Path]:
    source = folder / "raster.pdf"
    source.write_bytes(content)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-png", str(source), str(folder / "page")],
        check=True,
    )
    return sorted(folder.glob("page-*.png"))


@needs_pdftoppm
@pytest.mark.django_db
def test_a_filled_sheet_at_150_dpi_reads_as_its_confirmed_result(
    tournament, scored_series, tmp_path
):
    printed = tmp_path / "filled.pdf"
    call_command(
        "print",
        tournament.slug,
        "sheets",
        "--series",
        "1",
        "--filled",
        "--address",
        "http://192.168.1.20:8000/",  # the phones' code stands beside it
        "-o",
        str(printed),
        stdout=StringIO(),
    )
    pages = rasterize(printed.read_bytes(), tmp_path)
    assert len(pages) == 3
    for table, page in enumerate(pages, 1):
        out = StringIO()
        call_command("readsheet", str(page), "--json", stdout=out)
        reading = json.loads(out.getvalue())
        assert (reading["tournament"], reading["series"], reading["table"]) == (
            tournament.slug,
            1,
            table,
        )
        assert [
            (g["winner_seat"], g["marks_left"], g["flagged"]) for g in reading["games"]
        ] == [(winner, marks, False) for winner, marks in RESULTS[table]]
        size = 3 if table == 3 else 4
        assert len(reading["cells"]) == 5 * size * 7
    # Without --json it says the same in lines.
    out = StringIO()
    call_command("readsheet", str(pages[0]), stdout=out)
    assert out.getvalue().splitlines() == [
        f"{tournament.slug} · Serie 1 · Tisch 1",
        *(
            f"Spiel {n}: Sitz {winner}, {marks} Schräm"
            for n, (winner, marks) in enumerate(RESULTS[1], 1)
        ),
    ]
    # Another table's sheet is refused by its number.
    with pytest.raises(CommandError, match="Das ist die Spielliste von Tisch 2"):
        call_command(
            "readsheet", str(pages[1]), "--tournament", tournament.slug, "--table", "1"
        )


@needs_pdftoppm
@pytest.mark.django_db
def test_a_blank_sheet_is_refused_as_blank(tournament, scored_series, tmp_path):
    document = pdf.sheets_pdf(tournament=tournament, series_number=1)
    page = rasterize(document.content, tmp_path)[0]
    with pytest.raises(SheetRefused) as refused:
        read_sheet(page.read_bytes())
    assert refused.value.code == "blank"
    assert "nichts durchgestrichen" in refusal_message(refused.value)


# --- The layout: one rule for the PDF and the reader -------------------------


@pytest.mark.parametrize(
    ("seats", "games", "marks"), [(4, 5, 7), (3, 5, 7), (4, 10, 15)]
)
def test_stroke_cells_stand_apart_inside_the_stroke_band(seats, games, marks):
    layout = sheet_layout(seats=seats, games=games, marks=marks)
    assert len(layout.cells) == seats * games * marks
    for cell in layout.cells:
        assert COL_STROKES[0] + 2 <= cell.box.x
        assert cell.box.x + cell.box.w <= COL_STROKES[1] - 2
        x0, _y0, x1, _y1 = cell.stroke
        # The printed stroke keeps clear of its neighbours' cells.
        assert cell.box.x + cell.box.w / 4 <= x0 < x1 <= cell.box.x + cell.box.w * 0.75
    assert layout.grid.y + layout.grid.h < layout.markers[3].y < 256
    assert layout.read_qr.w >= 25


def test_the_code_names_tournament_series_table_and_layout():
    sheet = SheetId("rm-2026", 3, 17, 4, 5, 7)
    assert sheet.payload == "7S2:rm-2026:3:17:4:5:7"
    assert parse_payload(sheet.payload) == sheet
    others = (
        "7S1:rm-2026:3:17:4:5:7",
        "http://x/t/rm/tisch/3/",
        "7S2:a:b:c",
        # A QR code anyone can print: a digit only to Unicode is no number.
        "7S2:rm-2026:²:17:4:5:7",
        "7S2:rm-2026:3:①:4:5:7",
    )
    for other in others:
        assert parse_payload(other) is None


# --- Bad input ----------------------------------------------------------------


def refused(data: bytes) -> SheetRefused:
    with pytest.raises(SheetRefused) as caught:
        read_sheet(data)
    return caught.value


def test_not_an_image_is_refused():
    refusal = refused(b"%PDF-1.7 not a photo at all")
    assert refusal.code == "not_image"
    assert refusal_message(refusal) == "Das ist kein Foto (JPEG oder PNG erwartet)."


def test_a_huge_file_is_refused_before_it_is_decoded():
    refusal = refused(b"\xff\xd8\xff" + bytes(MAX_BYTES))
    assert refusal.code == "too_large"
    assert "zu groß" in refusal_message(refusal)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def test_an_image_bomb_is_refused_from_its_header():
    # 60000 x 60000 pixels declared, a few hundred bytes sent: decoding
    # would take 3.6 GB.
    header = struct.pack(">IIBBBBB", 60000, 60000, 8, 0, 0, 0, 0)
    row = b"\x00" + bytes(60000)
    bomb = (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(row * 4, 9))
        + _png_chunk(b"IEND", b"")
    )
    assert len(bomb) < 2000
    refusal = refused(bomb)
    assert refusal.code == "too_many_pixels"
    assert "zu viele Pixel" in refusal_message(refusal)


def test_a_photo_of_something_else_is_refused():
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 255, (1200, 1600), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(noise).save(buffer, "JPEG", quality=80)
    refusal = refused(buffer.getvalue())
    assert refusal.code == "not_found"
    assert "Bitte näher heran, das ganze Blatt muss drauf sein" in refusal_message(
        refusal
    )


@pytest.mark.django_db
def test_the_wrong_table_is_refused_by_name():
    refusal = SheetRefused("wrong_sheet", tournament="rm-test", series=1, table=7)
    assert refusal_message(refusal).startswith("Das ist die Spielliste von Tisch 7")
    assert Expected("rm-test", 1, 7).table == 7


def test_a_photo_is_turned_upright_by_its_exif_orientation():
    # A phone stores a portrait photo landscape, with "turn 90°" in EXIF.
    image = Image.new("L", (1000, 700), 255)
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90° clockwise to view
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif)
    assert decode_image(buffer.getvalue()).shape == (1000, 700)


def test_the_printed_corner_markers_are_those_the_reader_looks_for():
    from django.conf import settings

    from tournament.paper.sheets import marker_file
    from tournament.sheetphoto.reader.layout import MARKER_IDS
    from tournament.sheetphoto.reader.markers import MARKER_CELLS, marker_black_cells

    for marker_id in MARKER_IDS:
        path = Path(settings.BASE_DIR) / "static" / marker_file(marker_id)
        image = np.asarray(Image.open(path).convert("L"))
        cell = image.shape[0] // MARKER_CELLS
        black = {
            (c, r)
            for r in range(MARKER_CELLS)
            for c in range(MARKER_CELLS)
            if image[r * cell + cell // 2, c * cell + cell // 2] < 128
        }
        assert black == set(marker_black_cells(marker_id))
