"""How a card is shown: its drawing (static/cards/, see `cardart`), its
short label ("10♥") and its name in words for screen readers ("Herz 10").

The table's page gets the drawings and words of the whole pack as
`faces()`, keyed by suit and rank apart, so that it names no card: a seat
that has not looked is sent no card name at all (scoring/views.py)."""

from typing import Any, TypedDict

from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring.cards import RANKS, SUITS
from tournament.digital.cardart import file_name

SUIT_SIGNS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_WORDS = {
    "C": gettext_lazy("Kreuz"),
    "S": gettext_lazy("Pik"),
    "H": gettext_lazy("Herz"),
    "D": gettext_lazy("Karo"),
}
RANK_WORDS = {
    "J": pgettext_lazy("card rank", "Bube"),
    "Q": pgettext_lazy("card rank", "Dame"),
    "K": pgettext_lazy("card rank", "König"),
    "A": pgettext_lazy("card rank", "Ass"),
}


class Face(TypedDict):
    suit: str
    label: str
    words: str
    url: str


def _named() -> str:
    # Translators: a card in words, e.g. "Herz 10", "Pik Dame".
    return _("%(suit)s %(rank)s")


def card_label(name: str) -> str:
    """ "10H" as people read it: "10♥"."""
    return name[:-1] + SUIT_SIGNS[name[-1]]


def card_words(name: str) -> str:
    """ "10H" in words, in the active language: "Herz 10"."""
    rank, suit = name[:-1], name[-1]
    return _named() % {
        "suit": SUIT_WORDS[suit],
        "rank": RANK_WORDS.get(rank, rank),
    }


def face(name: str) -> Face:
    """One card as the replay shows it."""
    return {
        "suit": name[-1],
        "label": card_label(name),
        "words": card_words(name),
        "url": static(f"cards/{file_name(name)}"),
    }


def faces() -> dict[str, Any]:
    """What the table's page needs to draw any card: the drawings by suit
    and rank, the back, and the words for suits and ranks."""
    return {
        "urls": {
            suit: {rank: static(f"cards/{file_name(rank + suit)}") for rank in RANKS}
            for suit in SUITS
        },
        "back": static("cards/back.svg"),
        "signs": SUIT_SIGNS,
        "suits": {suit: str(word) for suit, word in SUIT_WORDS.items()},
        "ranks": {rank: str(RANK_WORDS.get(rank, rank)) for rank in RANKS},
        "named": _named(),
    }
