"""An image file's structure, walked without decoding a pixel: where the
image ends in the bytes sent (what follows is not the image, and is not
kept), and whether a JPEG can be decoded reduced.

JPEG: SOI, then marker segments, each with its length (an EXIF thumbnail
inside APP1, with its own EOI, is skipped with its segment); after each
SOS its entropy-coded data, in which FF00 (a stuffed FF) and RSTn are not
markers; a progressive JPEG has further scans; EOI ends it. PNG: the
signature, then chunks by their lengths until IEND. WebP: the RIFF size.
"""

import re
from collections.abc import Iterator

SOI, EOI, SOS = 0xD8, 0xD9, 0xDA
# Markers without a length: RST0..RST7 and TEM.
_STANDALONE = frozenset({*range(0xD0, 0xD8), 0x01})
# Frame headers (SOFn): C0..CF but DHT (C4), JPG (C8) and DAC (CC).
_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Frames whose scans refine one another: progressive DCT, Huffman or
# arithmetic coded, sequential or differential.
_PROGRESSIVE = frozenset({0xC2, 0xC6, 0xCA, 0xCE})
# In entropy-coded data: one or more FF (fill bytes) and a byte that is
# neither 00 (a stuffed FF) nor a restart marker is the next marker.
_NEXT_MARKER = re.compile(rb"\xff+[^\x00\xd0-\xd7\xff]")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _jpeg_segments(data: bytes) -> Iterator[tuple[int, int, int]]:
    """Each marker of a JPEG in order as (marker, start, end) of its
    segment's payload, EOI last (empty); it stops early where the bytes end
    or break off before EOI."""
    if not data.startswith(b"\xff\xd8"):
        return
    at = 2
    while at < len(data) and data[at] == 0xFF:
        while at < len(data) and data[at] == 0xFF:  # fill bytes
            at += 1
        if at >= len(data):
            return
        marker = data[at]
        at += 1
        if marker == EOI:
            yield marker, at, at
            return
        if marker in _STANDALONE:
            continue
        if marker == 0x00 or at + 2 > len(data):
            return
        end = at + int.from_bytes(data[at : at + 2], "big")
        if end < at + 2 or end > len(data):
            return
        yield marker, at + 2, end
        at = end
        if marker == SOS:
            found = _NEXT_MARKER.search(data, at)
            if found is None:
                return
            at = found.start()


def jpeg_buffered(data: bytes) -> bool:
    """Whether libjpeg keeps a JPEG's every coefficient in memory while it
    decodes it (2 bytes each, of every colour, whatever the scale asked
    for): a progressive JPEG, or one whose first scan lacks some of the
    frame's colours (its scans come one after another)."""
    colours = 0
    for marker, start, end in _jpeg_segments(data):
        if marker in _PROGRESSIVE:
            return True
        if marker in _FRAMES and end - start >= 6:
            colours = data[start + 5]
        elif marker == SOS:
            return end > start and data[start] < colours
    return False


def image_length(data: bytes) -> int | None:
    """How many bytes at the start of `data` are its image (JPEG, PNG or
    WebP) up to and with its end; None if it is none of these or its end
    is not in `data` (a file cut short)."""
    if data.startswith(b"\xff\xd8"):
        for marker, _start, end in _jpeg_segments(data):
            if marker == EOI:
                return end
        return None
    if data.startswith(PNG_SIGNATURE):
        at = len(PNG_SIGNATURE)
        while at + 12 <= len(data):
            length = int.from_bytes(data[at : at + 4], "big")
            kind = data[at + 4 : at + 8]
            at += 12 + length  # length, type, data, CRC
            if kind == b"IEND":
                return at if at <= len(data) else None
        return None
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        end = 8 + int.from_bytes(data[4:8], "little")
        return end if 12 <= end <= len(data) else None
    return None
