"""Where an image ends in the bytes sent, from its structure alone: a JPEG
at the EOI that ends its last scan (not its EXIF thumbnail's, not a stuffed
FF or a restart marker in its data), a PNG after IEND, a WebP at its RIFF
size; a file cut short has no end. And whether libjpeg decodes a JPEG
whole."""

import io
import struct

import numpy as np
import pytest
from PIL import ExifTags, Image

from tournament.sheetphoto.reader.structure import image_length, jpeg_buffered

# After the image: what a sender may append, an end marker and a PNG's
# end among it.
JUNK = b"\xff\xd9" + b"IEND" + bytes(range(256)) * 8 + b"\xff\xd9"


def noise(width: int = 320, height: int = 240) -> Image.Image:
    rng = np.random.default_rng(7)
    return Image.fromarray(rng.integers(0, 256, (height, width, 3), dtype=np.uint8))


def encoded(image: Image.Image, kind: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **options)
    return out.getvalue()


def with_exif_thumbnail(jpeg: bytes, thumbnail: bytes) -> bytes:
    """`jpeg` with an APP1 EXIF segment whose IFD1 holds `thumbnail` (a
    JPEG with its own EOI), as a camera writes it."""
    ifd1 = 8 + 2 + 4  # after the TIFF header and an empty IFD0
    at = ifd1 + 2 + 2 * 12 + 4
    tiff = (
        b"MM\x00\x2a"
        + struct.pack(">I", 8)
        + struct.pack(">HI", 0, ifd1)
        + struct.pack(">H", 2)
        + struct.pack(">HHII", 0x0201, 4, 1, at)  # JPEGInterchangeFormat
        + struct.pack(">HHII", 0x0202, 4, 1, len(thumbnail))  # …Length
        + struct.pack(">I", 0)
        + thumbnail
    )
    payload = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:2] + app1 + jpeg[2:]


def test_a_jpeg_ends_at_its_own_eoi_not_its_exif_thumbnails():
    thumbnail = encoded(noise(40, 30), "JPEG")
    photo = with_exif_thumbnail(encoded(noise(), "JPEG"), thumbnail)
    # A camera's EXIF as Pillow reads it: the thumbnail is in IFD1.
    with Image.open(io.BytesIO(photo)) as opened:
        ifd1 = opened.getexif().get_ifd(ExifTags.IFD.IFD1)
        assert ifd1[0x0202] == len(thumbnail)
        opened.load()
    # The first FFD9 is the thumbnail's: a search for it would cut the photo.
    assert photo.index(b"\xff\xd9") < len(photo) // 2
    assert image_length(photo) == len(photo)
    assert image_length(photo + JUNK) == len(photo)


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({}, id="baseline"),
        pytest.param({"progressive": True}, id="progressive"),
        pytest.param({"restart_marker_blocks": 1}, id="restart markers"),
        pytest.param({"quality": 100, "subsampling": 0}, id="many stuffed FF"),
    ],
)
def test_a_jpeg_ends_at_the_eoi_after_its_last_scan(options):
    photo = encoded(noise(), "JPEG", **options)
    assert photo.count(b"\xff\x00") > 10  # stuffed FF in its data
    scans = photo.count(b"\xff\xda")
    assert scans > 1 if options.get("progressive") else scans == 1
    assert image_length(photo + JUNK) == len(photo)
    # Another JPEG after it (as a camera's second picture) is not it.
    assert image_length(photo + photo) == len(photo)


def test_a_png_ends_after_iend_and_a_webp_at_its_riff_size():
    for kind in ("PNG", "WEBP"):
        image = encoded(noise(), kind)
        assert image_length(image + JUNK) == len(image), kind


@pytest.mark.parametrize("kind", ["JPEG", "PNG", "WEBP"])
def test_a_file_cut_short_has_no_end(kind):
    image = encoded(noise(), kind)
    for cut in (len(image) - 1, len(image) - 2, len(image) // 2, 30, 3):
        assert image_length(image[:cut]) is None, cut


def test_anything_else_has_no_end():
    for data in (b"", b"%PDF-1.7", b"GIF89a" + bytes(100), b"\xff\xd8" + bytes(50)):
        assert image_length(data) is None


def test_which_jpegs_libjpeg_decodes_whole():
    assert not jpeg_buffered(encoded(noise(), "JPEG"))
    assert jpeg_buffered(encoded(noise(), "JPEG", progressive=True))
    assert not jpeg_buffered(encoded(noise().convert("L"), "JPEG"))
    # A first scan of one colour of three: the others follow in their own.
    data = bytearray(encoded(noise(), "JPEG"))
    sos = data.index(b"\xff\xda")
    length = int.from_bytes(data[sos + 2 : sos + 4], "big")
    one = b"\x00\x08\x01" + data[sos + 5 : sos + 7] + data[sos + 11 : sos + 14]
    data[sos + 2 : sos + 2 + length] = one
    assert jpeg_buffered(bytes(data))
