"""No name is ever cut on paper (issue 14.16): every document with very
long names, read back with pdftotext, holds each name whole (with its
start number where the document shows one), and no word runs into
another or off the page (a cut name's hidden rest would). The score
sheet's boxes carry the same name as its rows."""

import itertools
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.pdf import needs_pdftotext, pdf_page_count
from tests.support.results import seated_with_results
from tournament.models import Player
from tournament.paper import pdf
from tournament.paper import sheets as paper_sheets
from tournament.paper.fit import fit, text_em

pytestmark = [pytest.mark.django_db, needs_pdftotext]

NAMES = [
    ("Gertrud", "Müller-Lüdenscheidt"),
    (
        "Maximiliane-Annegret",
        "Schwarzenberg-Oberhausen-Lüdenscheidt von und zu Hohenzollern-Sigmaringen",
    ),
    ("Hans-Jürgen", "Müller-Lüdenscheidt"),
    ("Wolfgang", "W" * 45),
    ("Anna", "Thelen"),
]
CLUB = "Karnevalsgesellschaft und Schrämfreunde Blau-Weiß Daun-Gemünden 1898 e. V."
# Word boxes may touch: overlaps below this (mm) are glyphs' sidebearings.
TOUCH_MM = 0.6
PT_MM = 25.4 / 72


@pytest.fixture
def long_names(tournament, organizer):
    """Series 1 (tables of 4, 4 and 3) confirmed, every player and the
    tournament with a long name."""
    tournament.name = (
        "Rheinland-Meisterschaft im 7-Schräm 2026 – Qualifikation der Vereine "
        "aus der Vulkaneifel und dem Moseltal"
    )
    tournament.save()
    seated_with_results(tournament, organizer)
    players = Player.objects.filter(entries__tournament=tournament).order_by(
        "entries__start_number"
    )
    for player, (first, last) in zip(players, itertools.cycle(NAMES)):
        player.first_name, player.last_name, player.club = first, last, CLUB
        player.save()
    return tournament


def squash(text: str) -> str:
    # A hyphen after a number prints as one that never ends a line (U+2011).
    return re.sub(r"\s+", "", text).replace("\u2011", "-")


def raw_text(content: bytes) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(content)
        return subprocess.run(
            ["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"],
            capture_output=True,
            check=True,
            text=True,
        ).stdout


def word_boxes(content: bytes, page: int):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.pdf"
        path.write_bytes(content)
        out = subprocess.run(
            ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), path, "-"],
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    size = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
    words = re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
        r'yMax="([\d.]+)">([^<]*)</word>',
        out,
    )
    boxes = [(*(float(v) * PT_MM for v in box), word) for *box, word in words]
    return float(size[1]) * PT_MM, float(size[2]) * PT_MM, boxes


def assert_nothing_runs_over(content: bytes) -> None:
    for page in range(1, pdf_page_count(content) + 1):
        width, height, boxes = word_boxes(content, page)
        for index, (x0, y0, x1, y1, word) in enumerate(boxes):
            assert x0 >= 0 and x1 <= width and y1 <= height, (page, word)
            for a0, b0, a1, b1, other in boxes[index + 1 :]:
                across = min(x1, a1) - max(x0, a0)
                down = min(y1, b1) - max(y0, b0)
                assert across < TOUCH_MM or down < TOUCH_MM, (page, word, other)


def people(tournament):
    return [
        (e.start_number, e.player.first_name, e.player.last_name)
        for e in tournament.entries.select_related("player")
    ]


@pytest.mark.parametrize("filled", [False, True])
def test_score_sheets_hold_every_long_name_whole(long_names, filled):
    document = pdf.sheets_pdf(tournament=long_names, series_number=1, filled=filled)
    text = squash(raw_text(document.content))
    for _number, first, last in people(long_names):
        # Each of the five game rows and the player's box.
        assert text.count(squash(f"{first} {last}")) >= 6, last
    assert "…" not in text
    assert_nothing_runs_over(document.content)


def test_the_box_shows_the_name_of_the_rows(long_names):
    series = long_names.series.get(number=1)
    data = paper_sheets.score_sheets(tournament=long_names, series=series, filled=False)
    for sheet in data.sheets:
        for player in sheet.players:
            whole = squash(player.name)
            assert squash(player.row.text) == squash(player.box.text) == whole


def test_the_seating_list_keeps_every_name_with_its_start_number(long_names):
    document = pdf.seating_pdf(tournament=long_names, series_number=1)
    text = squash(raw_text(document.content))
    for number, first, last in people(long_names):
        # Alphabetical ("Last, First (nr)") and by table ("Last, First (nr)").
        assert text.count(squash(f"{last}, {first} ({number})")) == 2, last
    assert_nothing_runs_over(document.content)


def test_standings_and_certificates_hold_every_name_whole(long_names):
    standings = pdf.standings_pdf(tournament=long_names)
    text = squash(raw_text(standings.content))
    for _number, first, last in people(long_names):
        assert squash(f"{first} {last}") in text, last
    assert text.count(squash(CLUB)) >= 11
    assert_nothing_runs_over(standings.content)
    certificates = pdf.certificates_pdf(tournament=long_names, top=11)
    text = squash(raw_text(certificates.content))
    for _number, first, last in people(long_names):
        assert squash(f"{first} {last}") in text, last
    assert squash(long_names.name) in text
    assert_nothing_runs_over(certificates.content)


def test_table_cards_with_a_long_tournament_name_stay_on_the_page(long_names):
    cards = pdf.cards_pdf(tournament=long_names, series_number=1)
    assert squash(long_names.name) in squash(raw_text(cards.content))
    for page in range(1, cards.pages + 1):
        width, height, boxes = word_boxes(cards.content, page)
        assert all(
            x0 >= 0 and x1 <= width and y1 <= height for x0, _, x1, y1, _ in boxes
        )


def test_a_name_is_shrunk_then_wrapped_never_cut():
    short = fit(
        "Anna Thelen",
        width_mm=57.5,
        height_mm=8.4,
        size_pt=12.5,
        single_min_pt=9,
        min_pt=5,
    )
    assert short.lines == ("Anna Thelen",) and short.size_pt == 12.5
    shrunk = fit(
        "Gertrud Müller-Lüdenscheidt",
        width_mm=57.5,
        height_mm=8.4,
        size_pt=12.5,
        single_min_pt=9,
        min_pt=5,
    )
    assert len(shrunk.lines) == 1 and 9 <= shrunk.size_pt < 12.5
    wrapped = fit(
        "Maximiliane-Annegret Schwarzenberg-Oberhausen-Lüdenscheidt von und zu "
        "Hohenzollern-Sigmaringen",
        width_mm=57.5,
        height_mm=8.4,
        size_pt=12.5,
        single_min_pt=9,
        min_pt=5,
    )
    assert len(wrapped.lines) > 1
    assert "".join(wrapped.lines).replace(" ", "") == (
        "Maximiliane-AnnegretSchwarzenberg-Oberhausen-Lüdenscheidtvonundzu"
        "Hohenzollern-Sigmaringen"
    )
    for line in wrapped.lines:
        assert text_em(line) * wrapped.size_pt * PT_MM <= 57.5
    # One word longer than the line: broken inside, still whole.
    word = fit(
        "W" * 120, width_mm=20, height_mm=5, size_pt=9, single_min_pt=8, min_pt=6
    )
    assert "".join(word.lines) == "W" * 120
