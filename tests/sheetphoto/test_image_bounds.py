"""What decoding a photo may cost is bounded from its header, before a
pixel is decoded: a JPEG is decoded reduced (its DCT scaling) whatever its
shape; an image decoded whole (PNG, WebP, a progressive JPEG) beyond
WHOLE_PIXELS is refused without being decoded, with what to do instead."""

import io
import struct

import pytest
from PIL import Image, ImageFile, WebPImagePlugin

from tests.support.sheetphotos import blank_png
from tournament.sheetphoto.reader.read import (
    MAX_PIXELS,
    WHOLE_PIXELS,
    WORK_SIDE,
    SheetRefused,
    decode_image,
)
from tournament.sheetphoto.refusals import refusal_message


class Decoded(Exception):
    """A decoder was started (the spy stops it there)."""


@pytest.fixture
def decoding(monkeypatch):
    """Every decode of an image is stopped and its size (as it would be
    decoded, after any reduction) recorded here."""
    sizes: list[tuple[int, int]] = []

    def spy(image, *args, **kwargs):
        sizes.append(image.size)
        raise Decoded

    monkeypatch.setattr(ImageFile.ImageFile, "load", spy)
    monkeypatch.setattr(WebPImagePlugin.WebPImageFile, "load", spy)
    return sizes


def refused(data: bytes) -> SheetRefused:
    with pytest.raises(SheetRefused) as caught:
        decode_image(data)
    return caught.value


def jpeg(*, size: tuple[int, int] | None = None, progressive: bool = False) -> bytes:
    """A small JPEG; `size`: its header says this size instead (no pixel
    data for it: decoding it would fail, refusing it must not need to)."""
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 190, 180)).save(
        out, "JPEG", progressive=progressive
    )
    data = bytearray(out.getvalue())
    at = 2
    while size is not None:
        marker = data[at + 1]
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if marker in (0xC0, 0xC2):  # the frame: precision, height, width
            data[at + 5 : at + 9] = struct.pack(">HH", size[1], size[0])
            break
        at += 2 + length
    return bytes(data)


def test_a_60_megapixel_png_is_refused_without_being_decoded(decoding):
    png = blank_png(9000, 6600)  # 59.4 MP: within MAX_PIXELS, 73 KB
    assert MAX_PIXELS >= 9000 * 6600 and len(png) < 200_000
    refusal = refused(png)
    assert decoding == []
    assert refusal.code == "too_many_pixels_whole"
    assert refusal_message(refusal) == (
        "Dieses Bild (PNG) ist zu groß zum Lesen: höchstens 10 Megapixel. Bitte "
        "die Spielliste mit der Handykamera fotografieren und als Foto (JPEG) "
        "schicken oder das Bild kleiner speichern."
    )


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(blank_png(4000, 3000, interlaced=True), id="interlaced PNG"),
        pytest.param(jpeg(size=(4000, 3000), progressive=True), id="progressive"),
    ],
)
def test_any_image_decoded_whole_has_the_same_bound(decoding, data):
    assert WHOLE_PIXELS < 4000 * 3000
    assert refused(data).code == "too_many_pixels_whole"
    assert decoding == []


def test_a_large_webp_is_refused_without_being_decoded(decoding):
    out = io.BytesIO()
    Image.new("L", (4000, 3000), 255).save(out, "WEBP", lossless=True)
    refusal = refused(out.getvalue())
    assert refusal.code == "too_many_pixels_whole"
    assert "Dieses Bild (WebP)" in refusal_message(refusal)
    assert decoding == []


def test_a_jpeg_whose_scans_come_one_colour_after_another_is_decoded_whole(
    decoding,
):
    data = bytearray(jpeg(size=(4000, 3000)))
    # Its first scan (SOS) names one colour of the frame's three.
    sos = data.index(b"\xff\xda")
    length = int.from_bytes(data[sos + 2 : sos + 4], "big")
    assert data[sos + 4] == 3
    one = b"\x00\x08" + b"\x01" + data[sos + 5 : sos + 7] + data[sos + 11 : sos + 14]
    data[sos + 2 : sos + 2 + length] = one
    assert refused(bytes(data)).code == "too_many_pixels_whole"
    assert decoding == []


def test_an_a4_page_scanned_at_300_dpi_is_read():
    grey = decode_image(blank_png(2480, 3508))
    assert grey.shape == (WORK_SIDE, round(2480 * WORK_SIDE / 3508))


@pytest.mark.parametrize(
    "size",
    [(9000, 6600), (7745, 7745), (60000, 1000), (1000, 60000), (4799, 3599)],
)
def test_the_largest_jpegs_are_decoded_reduced(decoding, size):
    assert size[0] * size[1] <= MAX_PIXELS
    with pytest.raises(Decoded):
        decode_image(jpeg(size=size))
    [(width, height)] = decoding
    # Never below the side the photo is read at; in pixels, below twice
    # that side squared (at most 1/8: a long narrow one keeps its length).
    assert max(width, height) >= WORK_SIDE
    assert width * height < (2 * WORK_SIDE) ** 2


def test_a_small_progressive_jpeg_is_decoded(decoding):
    with pytest.raises(Decoded):
        decode_image(jpeg(size=(3000, 2000), progressive=True))
    assert decoding == [(3000, 2000)]
