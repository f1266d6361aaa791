"""The cards of the digital tables, drawn here: one SVG per card of the
32-card French-suited pack and one back, kept under static/cards/.

Our own drawing (no copied artwork, no fonts or files from elsewhere): an
index in two corners (rank and suit, the second upside down), the suit's
pips laid out as on a printed card for 7 to 10, one large pip for the ace,
and for jack, queen and king a framed letter under a cap, a diadem or a
crown. Suits are paths, not text: a phone would draw ♥ as an emoji. Red
#b71c1c and near-black on white both pass WCAG AA (5.9:1 and more).

The files are written by ``python -m tournament.digital.cardart
static/cards``; a test checks they match this module.
"""

import sys
from pathlib import Path

from scoring.cards import CARD_NAMES

WIDTH, HEIGHT = 250, 350
RED, BLACK = "#b71c1c", "#1b1b1b"
COLOURS = {"C": BLACK, "S": BLACK, "H": RED, "D": RED}
FONT = "'DejaVu Sans', Roboto, 'Helvetica Neue', Arial, sans-serif"

# Each suit in a 100 x 100 box, its middle at (50, 50): the shapes of the
# pips (`#p`, one group per card).
SUIT_SHAPES = {
    "H": (
        '<path d="M50 92C28 74 4 56 4 30C4 14 16 4 30 4C40 4 47 10 50 19C53 10 '
        '60 4 70 4C84 4 96 14 96 30C96 56 72 74 50 92Z"/>'
    ),
    "D": (
        '<path d="M50 2C60 20 72 36 88 50C72 64 60 80 50 98C40 80 28 64 12 50C28 '
        '36 40 20 50 2Z"/>'
    ),
    "S": (
        '<path d="M50 3C70 24 95 40 95 62C95 76 84 84 72 84C63 84 57 80 53 73C54 '
        "84 58 91 67 97H33C42 91 46 84 47 73C43 80 37 84 28 84C16 84 5 76 5 62C5 "
        '40 30 24 50 3Z"/>'
    ),
    "C": (
        '<circle cx="50" cy="27" r="21"/><circle cx="27" cy="59" r="21"/>'
        '<circle cx="73" cy="59" r="21"/><circle cx="50" cy="52" r="12"/>'
        '<path d="M46 60C46 78 42 89 31 97H69C58 89 54 78 54 60Z"/>'
    ),
}

# Pip rows (y) per rank: (left and right columns, middle column).
PIP_ROWS = {
    "7": ((84, 175, 266), (129,)),
    "8": ((84, 175, 266), (129, 221)),
    "9": ((84, 145, 205, 266), (175,)),
    "10": ((84, 145, 205, 266), (114, 236)),
}
LEFT, MIDDLE, RIGHT = 80, 125, 170
PIP = 44

# The courts' headgear, drawn around (125, 112): a cap with a plume for the
# jack, a diadem for the queen, a crown for the king.
HEADGEAR = {
    "J": (
        '<path d="M88 132C88 104 106 90 125 90C144 90 162 104 162 132Z"/>'
        '<rect x="82" y="128" width="86" height="12" rx="4"/>'
        '<path d="M150 100C160 74 178 66 186 70C176 76 166 90 156 106Z"/>'
    ),
    "Q": (
        '<path d="M84 140L90 104L106 122L125 94L144 122L160 104L166 140Z"/>'
        '<circle cx="90" cy="100" r="6"/><circle cx="125" cy="89" r="7"/>'
        '<circle cx="160" cy="100" r="6"/>'
    ),
    "K": (
        '<path d="M80 140L76 92L98 114L110 84L125 108L140 84L152 114L174 92'
        'L170 140Z"/>'
        '<circle cx="76" cy="88" r="6"/><circle cx="110" cy="80" r="6"/>'
        '<circle cx="140" cy="80" r="6"/><circle cx="174" cy="88" r="6"/>'
        '<rect x="80" y="132" width="90" height="12" rx="3"/>'
    ),
}


def _pip(x: float, y: float, size: float, *, flip: bool = False) -> str:
    turn = " rotate(180)" if flip else ""
    scale = size / 100
    return (
        f'<use href="#p" transform="translate({x:g} {y:g}){turn} '
        f'scale({scale:g}) translate(-50 -50)"/>'
    )


def _index(rank: str) -> str:
    fit = ' textLength="56" lengthAdjust="spacingAndGlyphs"' if rank == "10" else ""
    return (
        f'<text x="33" y="62" font-size="54" font-weight="700"{fit} '
        f'text-anchor="middle">{rank}</text>{_pip(33, 90, 34)}'
    )


def _middle(rank: str, colour: str) -> str:
    if rank == "A":
        return _pip(WIDTH / 2, HEIGHT / 2, 128)
    if rank in HEADGEAR:
        return (
            '<rect x="58" y="40" width="134" height="270" rx="10" fill="#f6f1e3" '
            f'stroke="{colour}" stroke-width="4"/>'
            f'<g fill="#d9a520" stroke="{BLACK}" stroke-width="3" '
            f'stroke-linejoin="round">{HEADGEAR[rank]}</g>'
            # The J's glyph reaches below the line: it sits higher.
            f'<text x="125" y="{230 if rank == "J" else 242}" font-size="116" '
            f'font-weight="700" text-anchor="middle">{rank}</text>' + _pip(125, 284, 28)
        )
    sides, middle = PIP_ROWS[rank]
    pips = [_pip(x, y, PIP, flip=y > 175) for y in sides for x in (LEFT, RIGHT)]
    pips += [_pip(MIDDLE, y, PIP, flip=y > 175) for y in middle]
    return "".join(pips)


def card_svg(name: str) -> str:
    """The face of the card `name` ("10H", "JD", ...) as an SVG document."""
    if name not in CARD_NAMES:
        raise ValueError(f"not a card: {name!r}")
    rank, suit = name[:-1], name[-1]
    colour = COLOURS[suit]
    index = _index(rank)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}">'
        f'<defs><g id="p">{SUIT_SHAPES[suit]}</g></defs>'
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="16" '
        f'fill="#fff" stroke="#5f5f5f" stroke-width="3"/>'
        f'<g fill="{colour}" font-family="{FONT}">{index}'
        f'<g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{index}</g>'
        f"{_middle(rank, colour)}</g></svg>\n"
    )


def back_svg() -> str:
    """The back every face-down card shows: a blue lattice, a white frame
    and the game's 7 in the middle."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}">'
        '<defs><pattern id="l" width="24" height="24" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<rect width="24" height="24" fill="#1f4e8c"/>'
        '<path d="M0 12H24M12 0V24" stroke="#5b86c5" stroke-width="3"/>'
        "</pattern></defs>"
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="16" '
        'fill="#fff" stroke="#5f5f5f" stroke-width="3"/>'
        f'<rect x="14" y="14" width="{WIDTH - 28}" height="{HEIGHT - 28}" rx="10" '
        'fill="url(#l)"/>'
        '<circle cx="125" cy="175" r="50" fill="#fff" stroke="#1f4e8c" '
        'stroke-width="6"/>'
        f'<text x="125" y="204" font-size="84" font-weight="700" fill="#1f4e8c" '
        f'font-family="{FONT}" text-anchor="middle">7</text></svg>\n'
    )


# File names in words ("hearts-10.svg", not "10H.svg"): a page that lists
# every drawing then names no card (a seat that has not looked is sent no
# card name at all).
SUIT_FILES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
RANK_FILES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def file_name(name: str) -> str:
    """The drawing of the card `name`: "10H" -> "hearts-10.svg"."""
    rank, suit = name[:-1], name[-1]
    return f"{SUIT_FILES[suit]}-{RANK_FILES.get(rank, rank)}.svg"


def drawings() -> dict[str, str]:
    """File name -> SVG: every card, and the back."""
    out = {file_name(name): card_svg(name) for name in CARD_NAMES}
    out["back.svg"] = back_svg()
    return out


def main(folder: str) -> None:
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for file_name, svg in drawings().items():
        (target / file_name).write_text(svg, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "static/cards")
