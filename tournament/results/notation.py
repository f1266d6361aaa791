"""The referee's short notation of a hand, as the score sheet has it.

One hand per line: ``<value> G<seat> [P<seat>:<paid>]… [S<seat>:<marks>]…``,
e.g. ``3 G1 P2:1 P4:2`` – value 3, seat 1 won (Gewinner), seat 2 passed
paying 1, seat 4 passed paying 2; ``S3:1`` is a penalty (Strafe) of 1 mark
for seat 3. Without a knock the value may be left out (``G2``).

The letters were English once (W winner, F fold, P penalty). W and F are
still read, as nobody could mean anything else by them; the old P is not:
P is passt now. A penalty written the old way is read as a fold of the same
amount, which costs the same marks (docs/RULES.md §7: a folder and a penalised
seat each pay what the line says), so a score never changes by it: the line
is either refused (a fold pays less than the final value) or stored as a
fold. The help beside the field says so.

The filled score sheets print hands with `hand_text`, so paper and form
always speak the same letters.
"""

import re
from typing import Any

from django.utils.translation import gettext as _

WINNER = "G"  # Gewinner
FOLD = "P"  # passt
PENALTY = "S"  # Strafe
# Letters of the old notation that are still understood.
OLD_WINNER = "W"
OLD_FOLD = "F"

# Numbers of at most 9 digits: a value or seat beyond that is nonsense, and
# int() refuses thousands of digits. ASCII digits only.
TOKEN = re.compile(r"^(?:([0-9]{1,9})|([A-Za-z])([0-9]{1,9})(?::([0-9]{1,9}))?)$")
# A token quoted back in a message is cut to this length.
QUOTE_MAX = 20


class NotationError(ValueError):
    """A line that is not in the notation; `message` says why (German)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def quote(text: str, limit: int = QUOTE_MAX) -> str:
    """Typed text as a message quotes it: at most `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_hand(text: str) -> dict[str, Any]:
    """One hand in the short notation → a stored sheet line
    (``{"sheet": {"value", "winner", "folded", "penalty"?}}``). Raises
    NotationError; whether the hand is legal is for the rules to say."""
    value = None
    winner = None
    folded: dict[str, int] = {}
    penalty: dict[str, int] = {}
    for token in text.split():
        match = TOKEN.match(token)
        if not match:
            raise NotationError(
                _("„%(t)s“ ist unverständlich (erlaubt sind z. B. 3, G1, P2:1, S3:1)")
                % {"t": quote(token)}
            )
        number, letter, seat, amount = match.groups()
        if number is not None:
            if value is not None:
                raise NotationError(_("zwei Werte angegeben"))
            value = int(number)
            continue
        letter = letter.upper()
        if letter in (WINNER, OLD_WINNER):
            if winner is not None:
                raise NotationError(_("zwei Gewinner angegeben"))
            if amount is not None:
                raise NotationError(
                    _("beim Gewinner steht kein Betrag: %(w)s%(s)d statt %(t)s")
                    % {"w": WINNER, "s": int(seat), "t": quote(token)}
                )
            winner = int(seat)
        elif letter in (FOLD, OLD_FOLD, PENALTY):
            target = penalty if letter == PENALTY else folded
            if amount is None:
                raise NotationError(
                    _(
                        "bei „%(t)s“ fehlt, wie viele Schräm Sitz %(s)d bezahlt "
                        "hat, z. B. %(l)s%(s)d:1"
                    )
                    % {"t": quote(token), "s": int(seat), "l": letter}
                )
            key = str(int(seat))
            if key in folded or key in penalty:
                raise NotationError(
                    _("Sitz %(s)s steht zweimal in der Zeile") % {"s": key}
                )
            target[key] = int(amount)
        else:
            raise NotationError(
                _(
                    "„%(t)s“: den Buchstaben %(l)s gibt es nicht – G = Gewinner, "
                    "P = passt, S = Strafe"
                )
                % {"t": quote(token), "l": letter}
            )
    if winner is None:
        raise NotationError(_("der Gewinner fehlt (z. B. G1)"))
    sheet: dict[str, Any] = {
        "value": 1 if value is None else value,
        "folded": folded,
        "winner": winner,
    }
    if penalty:
        sheet["penalty"] = penalty
    return {"sheet": sheet}


def hand_text(hand: dict[str, Any]) -> str:
    """The short notation of a stored sheet line (``{"sheet": …}`` or the
    bare sheet): what a correction is prefilled with and what a filled
    score sheet prints."""
    line = hand.get("sheet", hand)
    parts = [str(line["value"]), f"{WINNER}{line['winner']}"]
    parts += [f"{FOLD}{s}:{v}" for s, v in sorted(line.get("folded", {}).items())]
    parts += [f"{PENALTY}{s}:{v}" for s, v in sorted(line.get("penalty", {}).items())]
    return " ".join(parts)
