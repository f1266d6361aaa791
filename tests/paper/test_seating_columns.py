"""The seating list by table fills its columns one after the other
(CSS column-fill: auto): balancing the columns of unbreakable tables made
WeasyPrint lay the page out again height after height, minutes for a
series of ten tables, holding the one PDF lock every print waits for."""

from itertools import pairwise

import pytest

from tests.support.factories import make_series
from tests.support.pdf import needs_pdftotext, pdf_words
from tournament.paper import pdf

pytestmark = pytest.mark.django_db


@needs_pdftotext
def test_the_tables_fill_the_first_column_before_the_next(tournament):
    make_series(tournament, sizes=(4, 4, 4, 3))
    document = pdf.seating_pdf(tournament=tournament, series_number=1)
    assert document.pages == 2
    words = pdf_words(document.content, 2)
    headings = [
        x
        for (word, x, _), (after, _, _) in pairwise(words)
        if word == "Tisch" and after in {"1", "2", "3", "4"}
    ]
    assert len(headings) == 4
    # Balanced, four tables would stand in three columns (2, 1, 1).
    assert max(headings) - min(headings) < 1
