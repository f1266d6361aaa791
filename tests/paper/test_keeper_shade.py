"""The score sheet says what it shades: the keeper's box at the bottom
(sum and signature) is grey, his rows are as white as everybody's; so the
line at the top says "sein Kästchen unten ist grau unterlegt", not that
his rows were ("(grau unterlegt)" beside "führt die Liste"; the printed
sentence: tests/paper/test_paper.py)."""

import re

from tournament.paper import sheets

GREY = 'fill="#e4e4e4"'


def test_only_the_keepers_box_is_shaded():
    drawing = "".join(sheets._drawing(seats=4, games=5, marks=7, keeper=4))
    shades = {
        (float(x), float(y))
        for x, y in re.findall(rf'<rect x="([\d.]+)" y="([\d.]+)"[^>]*{GREY}', drawing)
    }
    keeper_box = (sheets._box_left(4, 4), sheets.BOX_TOP_MM)
    assert keeper_box in shades
    # Besides it only the games' numbers' column at the left edge: no row
    # of a seat is shaded.
    assert {x for x, _y in shades - {keeper_box}} == {12.0}, shades
