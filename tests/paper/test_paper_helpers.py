"""Helpers for the paper tests (no tests here): a series with confirmed
results, and the text of a PDF page as poppler's pdftotext reads it (the
same text a person or a screen reader gets)."""

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.factories import make_series
from tournament.models import Table
from tournament.results.services import GameInput, result_enter

# Per table: the five games as (winner seat, marks kept).
RESULTS = {
    1: [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)],
    2: [(4, 2), (4, 6), (2, 1), (1, 4), (3, 7)],
    3: [(3, 1), (1, 2), (2, 5), (3, 3), (1, 6)],  # a table of three
}
STROKE, STRUCK = "\u2571", "\u2573"

needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None,
    reason="poppler-utils not installed",
)


def seated_with_results(tournament, actor, *, confirm=(1, 2, 3)):
    """Series 1 with tables of 4, 4 and 3; the given tables' RESULTS entered
    and confirmed through the result service."""
    series = make_series(tournament, sizes=(4, 4, 3))
    for number in confirm:
        table = Table.objects.get(series=series, number=number)
        result_enter(
            actor=actor,
            table=table,
            games=[GameInput(winner=w, marks=m) for w, m in RESULTS[number]],
            mode="quick",
            revision=table.result_revision,
            auto_confirm=True,
        )
    return series


def expected_struck(table: int, size: int) -> list[int]:
    """Struck strokes per row (game-major, seat-minor) as the result says:
    the winner kept k of 7 marks, every other player lost all 7."""
    return [
        7 - marks if seat == winner else 7
        for winner, marks in RESULTS[table]
        for seat in range(1, size + 1)
    ]


def pdf_page_count(content: bytes) -> int:
    """The page count as poppler reads the file (not as WeasyPrint says)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(content)
        info = subprocess.run(
            ["pdfinfo", str(path)], capture_output=True, check=True
        ).stdout.decode()
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M)[1])


def pdf_pages_text(content: bytes, *, layout: bool = True) -> list[str]:
    """The text of every page (pdftotext, pages split at form feeds)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(content)
        args = ["pdftotext", "-enc", "UTF-8"]
        if layout:
            args.append("-layout")
        out = subprocess.run(
            [*args, str(path), "-"], capture_output=True, check=True
        ).stdout.decode()
    return out.split("\f")[: pdf_page_count(content)]


def pdf_words(content: bytes, page: int) -> list[tuple[str, float, float]]:
    """(word, x, y of its top left corner in mm) on one page (pdftotext
    -bbox)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(content)
        out = subprocess.run(
            ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
            capture_output=True,
            check=True,
        ).stdout.decode()
    found = re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', out
    )
    return [(word, float(x) * 25.4 / 72, float(y) * 25.4 / 72) for x, y, word in found]


def stroke_rows(text: str) -> list[str]:
    """The rows of strokes on a page, top to bottom."""
    rows = []
    for line in text.splitlines():
        found = re.findall(rf"[{STROKE}{STRUCK}](?:\s*[{STROKE}{STRUCK}])*", line)
        rows += [re.sub(r"\s", "", r) for r in found if len(re.sub(r"\s", "", r)) > 1]
    return rows
