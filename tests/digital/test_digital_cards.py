"""The card drawings under static/cards/ are the project's own and current:
one per card of the pack and a back, each what `cardart` draws, with
nothing fetched from elsewhere and nothing that runs."""

import json
import re
from pathlib import Path

from scoring.cards import CARD_NAMES
from tests.support.cards import card_names
from tournament.digital import cardart, faces

CARDS = Path(__file__).resolve().parents[2] / "static" / "cards"


def test_every_card_and_the_back_is_drawn_and_current():
    drawings = cardart.drawings()
    assert set(drawings) == {cardart.file_name(n) for n in CARD_NAMES} | {"back.svg"}
    assert len(drawings) == 33
    on_disk = {p.name for p in CARDS.glob("*.svg")}
    assert on_disk == set(drawings)
    stale = [
        name
        for name, svg in drawings.items()
        if (CARDS / name).read_text(encoding="utf-8") != svg
    ]
    # python -m tournament.digital.cardart static/cards
    assert not stale, f"redraw the cards: {stale}"


def test_the_page_gets_the_whole_pack_without_naming_a_card():
    # A seat that has not looked is sent no card name (issue 15); the
    # drawings and words of the pack it gets name none either.
    assert not card_names(json.dumps(faces.faces()))
    urls = faces.faces()["urls"]
    assert len({u for suit in urls.values() for u in suit.values()}) == 32


def test_a_card_needs_nothing_from_elsewhere_and_runs_nothing():
    for svg in cardart.drawings().values():
        assert "<script" not in svg and "<image" not in svg and "<style" not in svg
        assert re.findall(r"https?://[^\"]+", svg) == ["http://www.w3.org/2000/svg"]
        assert all(ref.startswith("#") for ref in re.findall(r'href="([^"]*)"', svg))
