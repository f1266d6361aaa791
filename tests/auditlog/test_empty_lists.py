"""A list recorded empty reads "keine" in the Protokoll: a photo read
without doubt and saved as read shows "unsicher gelesen (Spiele): keine",
not a label without a value."""

import pytest

from tournament.auditlog.readable import readable_changes

pytestmark = pytest.mark.django_db


def test_a_photo_read_without_doubt_says_keine():
    lines = readable_changes(
        object_type="resultversion",
        before=None,
        after={"photo": "ab" * 32, "flagged": [], "changed": []},
    )
    shown = {line.label: line.new for line in lines}
    assert shown["unsicher gelesen (Spiele)"] == "keine"
    assert shown["anders als gelesen gespeichert (Spiele)"] == "keine"


def test_a_list_with_games_names_them():
    lines = readable_changes(
        object_type="resultversion",
        before=None,
        after={"photo": "ab" * 32, "flagged": [3], "changed": [2, 5]},
    )
    shown = {line.label: line.new for line in lines}
    assert shown["unsicher gelesen (Spiele)"] == "3"
    assert shown["anders als gelesen gespeichert (Spiele)"] == "2, 5"
