"""What the review pre-fills from a reading: every game read clearly, in
quick entry at the table's revision; a game read unsure stays empty with
a note in words (what was read, that no single winner was, that a row
breaks "von links nach rechts" or the strikes are too faint), never
filled by a guess."""

import pytest

from tournament.models import SheetPhoto
from tournament.results.forms import initial_from_games
from tournament.sheetphoto.selectors import photo_review

pytestmark = pytest.mark.django_db


def reading(*games):
    return {
        "games": [
            {
                "number": n,
                "winner_seat": w,
                "marks_left": m,
                "flagged": f,
                "confidence": 0.0 if f else 1.0,
            }
            for n, (w, m, f) in enumerate(games, 1)
        ]
    }


def test_unsure_games_are_left_empty_with_a_note(photo_table):
    photo = SheetPhoto.objects.create(
        table=photo_table,
        sha256="a" * 64,
        size=10,
        file_name="photo.jpg",
        reading=reading((1, 5, False), (2, 3, True), (None, None, True), (4, 1, False)),
    )
    photo_table.result_revision = 4
    review = photo_review(photo, photo_table, image_url=lambda part: f"/bild/{part}/")
    assert initial_from_games(photo_table, review.games) == {
        "revision": 4,
        "mode": "quick",
        "g1_winner": "1",
        "g1_marks": "5",
        "g4_winner": "4",
        "g4_marks": "1",
    }
    assert review.flagged == [2, 3]
    assert "Die Spiele 2, 3 sind unsicher gelesen" in review.summary
    assert review.notes[2].flagged
    assert review.notes[2].text.startswith("Gelesen: Sitz 2 mit 3 Schräm, aber nicht")
    assert "Kein eindeutiger Gewinner" in review.notes[3].text
    assert not review.notes[1].flagged and review.notes[1].text == ""
    assert review.notes[4].image_url == "/bild/4/"


def test_a_clear_reading_still_asks_for_a_look(photo_table):
    photo = SheetPhoto.objects.create(
        table=photo_table,
        sha256="b" * 64,
        size=10,
        file_name="photo.jpg",
        reading=reading((1, 5, False), (2, 3, False)),
    )
    review = photo_review(photo, photo_table, image_url=str)
    assert review.flagged == []
    assert "Alle Spiele klar gelesen" in review.summary


def test_a_game_flagged_for_its_order_or_faint_strikes_says_why(photo_table):
    games = reading((1, 5, True), (None, None, True), (4, 1, False))
    games["games"][0]["reason"] = "order"
    games["games"][1]["reason"] = "faint"
    photo = SheetPhoto.objects.create(
        table=photo_table,
        sha256="c" * 64,
        size=10,
        file_name="photo.jpg",
        reading=games,
    )
    review = photo_review(photo, photo_table, image_url=str)
    assert review.flagged == [1, 2]
    assert "nicht von links nach rechts" in review.notes[1].text
    assert "mit ? umrandet" in review.notes[1].text
    assert "kräftiger durchstreichen" in review.notes[2].text
