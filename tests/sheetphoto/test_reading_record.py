"""A photo's reading is kept as the record docs/FORMATS.md § Photo reading
describes, and read back through its type: every game with the keys
`ReadGame` declares (no more, none missing), so what the review reads by
key is what the reader wrote."""

import json

import pytest

from tests.sheetphoto.conftest import GAMES, UNSURE
from tests.support.servers import ROOT
from tests.support.sheetphotos import needs_pdftoppm
from tournament.models.sheetphoto import ReadGame, StoredReading
from tournament.sheetphoto import services

pytestmark = [pytest.mark.django_db, needs_pdftoppm]


def test_a_kept_reading_has_the_keys_its_type_declares(photo_table, photo, referee):
    kept = services.photo_read(table=photo_table, data=photo, actor=referee)
    kept.refresh_from_db()
    assert set(kept.reading) == set(StoredReading.__annotations__)
    declared = set(ReadGame.__annotations__)
    assert [set(game) for game in kept.games_read] == [declared] * len(GAMES)
    read = {g["number"]: (g["winner_seat"], g["marks_left"]) for g in kept.games_read}
    clear = {n: pair for n, pair in enumerate(GAMES, 1) if n != UNSURE}
    assert {n: read[n] for n in clear} == clear
    assert [g["number"] for g in kept.games_read if g["flagged"]] == [UNSURE]


def test_the_formats_page_shows_a_reading_of_this_shape():
    page = (ROOT / "docs/FORMATS.md").read_text(encoding="utf-8")
    section = page.split("## Photo reading", 1)[1].split("\n## ", 1)[0]
    example = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    assert set(example) == set(StoredReading.__annotations__)
    for game in example["games"]:
        assert set(game) == set(ReadGame.__annotations__), game
