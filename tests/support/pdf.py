"""PDF pages as poppler's pdftotext and pdfinfo read them (the same text a
person or a screen reader gets), and the strokes of a printed score sheet."""

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.results import RESULTS

needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None,
    reason="poppler-utils not installed",
)


def _poppler(content: bytes, *command: str) -> str:
    """The output of a poppler tool run on `content` (as a file named where
    the command says FILE)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(content)
        args = [str(path) if arg == "FILE" else arg for arg in command]
        return subprocess.run(args, capture_output=True, check=True).stdout.decode()


def pdf_page_count(content: bytes) -> int:
    """The page count as poppler reads the file (not as WeasyPrint says)."""
    info = _poppler(content, "pdfinfo", "FILE")
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M)[1])


def pdf_pages_text(content: bytes, *, layout: bool = True) -> list[str]:
    """The text of every page (pdftotext, pages split at form feeds)."""
    options = ["-layout"] if layout else []
    out = _poppler(content, "pdftotext", "-enc", "UTF-8", *options, "FILE", "-")
    return out.split("\f")[: pdf_page_count(content)]


def pdf_words(content: bytes, page: int) -> list[tuple[str, float, float]]:
    """(word, x, y of its top left corner in mm) on one page (pdftotext
    -bbox)."""
    number = str(page)
    out = _poppler(
        content, "pdftotext", "-bbox", "-f", number, "-l", number, "FILE", "-"
    )
    found = re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', out
    )
    return [(word, float(x) * 25.4 / 72, float(y) * 25.4 / 72) for x, y, word in found]


# --- Score sheets ---------------------------------------------------------------


def expected_struck(table: int, size: int) -> list[int]:
    """Struck strokes per row (game-major, seat-minor) as the RESULTS of
    `seated_with_results` say: the winner kept k of 7 marks, every other
    player lost all 7."""
    return [
        7 - marks if seat == winner else 7
        for winner, marks in RESULTS[table]
        for seat in range(1, size + 1)
    ]
