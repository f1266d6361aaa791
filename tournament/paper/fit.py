"""Names that fit their place on paper, in full: shrunk, then wrapped, never
cut (a cut name can lose what matters, e.g. the start number after a long
name on the seating list).

WeasyPrint cannot shrink text to a box by itself, so the widths are
measured here, with the fonts it prints with (static/fonts, DejaVu), and
the templates get the size and the lines. Printed lines come out up to
a few percent wider or narrower than the fonts' advances add up to (Pango's
shaping), so a line is measured against a little less than its room.
"""

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import ImageFont

FONTS = Path(settings.BASE_DIR) / "static" / "fonts"
FACES = {
    ("sans", False): "DejaVuSans.ttf",
    ("sans", True): "DejaVuSans-Bold.ttf",
    ("serif", False): "DejaVuSerif.ttf",
    ("serif", True): "DejaVuSerif-Bold.ttf",
}
MM_PER_PT = 25.4 / 72
# Advances are read at this size in pixels, then taken per em.
_UNITS = 1000
# Where a line may break: after a space or a hyphen.
_BREAKS = re.compile(r"(?<=[ \-‐–])")
STEP_PT = 0.25
# The share of a line's room the measured text may take.
ROOM = 0.95


@cache
def _font(family: str, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / FACES[family, bold]), _UNITS)


@cache
def _characters(family: str, bold: bool) -> frozenset[int]:
    cmap = TTFont(str(FONTS / FACES[family, bold]), lazy=True).getBestCmap()
    return frozenset(cmap)


@cache
def _glyph_em(char: str, family: str, bold: bool) -> float:
    if ord(char) not in _characters(family, bold):
        # Not in the font: another font prints it; count a whole em.
        return 1.0
    return _font(family, bold).getlength(char) / _UNITS


def text_em(text: str, *, family: str = "sans", bold: bool = False) -> float:
    """How wide `text` prints, in em of its font size."""
    return sum(_glyph_em(char, family, bold) for char in text)


@dataclass(frozen=True)
class Fitted:
    """A text as it is to be printed: its lines, at this size."""

    lines: tuple[str, ...]
    size_pt: float

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def size(self) -> str:
        """The size for CSS (never localized)."""
        return f"{self.size_pt:g}pt"

    def centred(self, *, at_mm: float, line_height: float) -> str:
        """CSS placing the lines, at their size, centred on `at_mm` from
        the top of the box they stand in."""
        height = len(self.lines) * self.size_pt * MM_PER_PT * line_height
        return (
            f"top: {at_mm - height / 2:.2f}mm; font-size: {self.size}; "
            f"line-height: {line_height:g}"
        )


def wrap(
    text: str, *, width_mm: float, size_pt: float, family: str, bold: bool
) -> list[str]:
    """Greedy lines no wider than `width_mm`: broken after spaces and
    hyphens, a word wider than the line by its letters."""
    limit = width_mm * ROOM / (size_pt * MM_PER_PT)
    lines: list[str] = []
    line = ""
    for piece in _BREAKS.split(text):
        if not piece:
            continue
        if text_em((line + piece).rstrip(), family=family, bold=bold) <= limit:
            line += piece
            continue
        if line:
            lines.append(line.rstrip())
            line = ""
        while text_em(piece.rstrip(), family=family, bold=bold) > limit:
            cut = 1
            while text_em(piece[: cut + 1], family=family, bold=bold) <= limit:
                cut += 1
            lines.append(piece[:cut])
            piece = piece[cut:]
        line = piece
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def fit(
    text: str,
    *,
    width_mm: float,
    height_mm: float,
    size_pt: float,
    single_min_pt: float,
    min_pt: float,
    line_height: float = 1.2,
    family: str = "sans",
    bold: bool = False,
) -> Fitted:
    """`text` at the largest size up to `size_pt` that keeps it on one line
    of `width_mm`, down to `single_min_pt`; else wrapped, at the largest
    size down to `min_pt` whose lines stand in `height_mm`; else wrapped at
    `min_pt` (taller than asked, but whole)."""
    size = size_pt
    while size >= single_min_pt:
        if (
            text_em(text, family=family, bold=bold) * size * MM_PER_PT
            <= width_mm * ROOM
        ):
            return Fitted((text,), size)
        size -= STEP_PT
    size = single_min_pt
    while size >= min_pt:
        lines = wrap(text, width_mm=width_mm, size_pt=size, family=family, bold=bold)
        if len(lines) * size * MM_PER_PT * line_height <= height_mm:
            return Fitted(tuple(lines), size)
        size -= STEP_PT
    lines = wrap(text, width_mm=width_mm, size_pt=min_pt, family=family, bold=bold)
    return Fitted(tuple(lines), min_pt)
