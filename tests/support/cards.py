"""Finding card names in what a seat is sent, for the tests of hidden
information (issue 15): a card is found by its name ("10H", "JC") wherever
it stands in a message, as a value, a key or inside a longer text."""

import json
import re
from typing import Any

# A card's name standing on its own: not a piece of a longer word or number
# ("10H" in "110H" or "JC" in "JCX" is no card).
CARD_NAME = re.compile(r"(?<![0-9A-Za-z])(?:10|[789JQKA])[CSHD](?![0-9A-Za-z])")


def card_names(message: Any) -> set[str]:
    """Every card name anywhere in `message`: JSON text, or a value that
    serialises to JSON (a state, a view, an error)."""
    text = message if isinstance(message, str) else json.dumps(message)
    return set(CARD_NAME.findall(text))
