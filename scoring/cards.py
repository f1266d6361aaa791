"""Cards of the 32-card pack and their text notation (docs/RULES.md §1).

A card is a small int, ``suit * 8 + strength``: suits are clubs, spades,
hearts, diamonds (0-3, no order between them) and strength runs from the
weakest rank (J = 0) to the strongest (10 = 7), so inside one suit a larger
int always beats a smaller one.  The engine keeps a seat's unplayed cards as a
bit mask (bit ``card`` set), which makes "holds a card of the suit led" one
``&``.
"""

from __future__ import annotations

from typing import NewType

Card = NewType("Card", int)

SUITS = "CSHD"
#: Ranks from the weakest to the strongest: 10 > 9 > 8 > 7 > A > K > Q > J.
RANKS = ("J", "Q", "K", "A", "7", "8", "9", "10")

DECK: tuple[Card, ...] = tuple(Card(c) for c in range(32))
CARD_NAMES: tuple[str, ...] = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(32))
#: Card by its notation; for fast lookups where the text is already trusted.
CARD_BY_NAME: dict[str, Card] = {name: Card(c) for c, name in enumerate(CARD_NAMES)}
#: Bit mask of all cards of a suit, indexed by suit.
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))


def parse_card(text: str) -> Card:
    """Return the card written as ``text`` (``"10H"``, ``"7C"``, ``"AS"``).

    Only the canonical notation is accepted; anything else raises ValueError.
    """
    try:
        return CARD_BY_NAME[text]
    except (KeyError, TypeError):
        raise ValueError(
            f"not a card: {text!r} (expected e.g. 10H, 7C, AS, JD)"
        ) from None


def card_str(card: int) -> str:
    """Return the notation of ``card``, e.g. ``"10H"``."""
    return CARD_NAMES[card]


def suit_of(card: int) -> int:
    """Return the suit index (0 clubs, 1 spades, 2 hearts, 3 diamonds)."""
    return card >> 3


def strength(card: int) -> int:
    """Return the rank strength inside its suit, 0 (J) to 7 (10)."""
    return card & 7


#: _CARDS_BY_BYTE[suit][mask byte of that suit] -> those cards, in card order.
_CARDS_BY_BYTE: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(
        tuple(Card(suit * 8 + r) for r in range(8) if byte >> r & 1)
        for byte in range(256)
    )
    for suit in range(4)
)


def cards_of(mask: int) -> list[Card]:
    """Return the cards of a bit mask, in card order."""
    by = _CARDS_BY_BYTE
    return [
        *by[0][mask & 255],
        *by[1][mask >> 8 & 255],
        *by[2][mask >> 16 & 255],
        *by[3][mask >> 24 & 255],
    ]
