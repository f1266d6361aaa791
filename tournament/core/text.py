"""Names people typed, made safe to show and to print.

Unicode has characters that show nothing (zero-width spaces and joiners,
the byte-order mark, soft hyphens) and characters that turn the text after
them around: "Anna\u202egnp.exe" shows as "Annaexe.png". A name is kept
with none of them: letters, marks, digits, punctuation and single spaces,
in one normal form (NFC), so "Jöbges" typed two ways is one name.

And names made comparable: `fold` and `name_key` ignore case, accents and
how an umlaut or ß was typed; every player search and the matching of a
registration to a person use them (never a second folding). `sort_key`
puts names in the order German readers look them up in (every list sorted
by name: the seating lists, the persons).
"""

import functools
import re
import unicodedata

_SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def visible_text(value: str) -> str:
    """`value` without invisible or direction-changing characters (every
    Unicode "other" character: controls, format characters, private-use and
    unassigned code points), its whitespace runs made single spaces, and
    trimmed. What is left is what people see."""
    words = (
        "".join(ch for ch in word if unicodedata.category(ch)[0] != "C")
        for word in unicodedata.normalize("NFC", value).split()
    )
    return " ".join(word for word in words if word)


# A hyphen right after a number: "7-Schräm", "2025-12-06".
_NUMBER_HYPHEN = re.compile(r"(?<=\d)-(?=\w)")


def unbroken_numbers(text: str) -> str:
    """`text` to show or print, with a hyphen right after a number made one
    that never ends a line (U+2011, in every font we print with): a line
    that ends in "7-" and a next one that starts "Schräm" read as two
    things."""
    return _NUMBER_HYPHEN.sub("\u2011", text)


def code_groups(code: str) -> str:
    """A lot's seed as a code read aloud and typed again: in groups of four
    (2b88 342a 85ae a902). The seed itself is kept as drawn; with it the
    lot can be drawn again."""
    return " ".join(code[i : i + 4] for i in range(0, len(code), 4))


def _strip_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# Every search folds every player's texts ("Wo sitze ich?" on a thousand
# phones): the same few hundred strings each time, so they are remembered.
@functools.lru_cache(maxsize=8192)
def fold(text: str) -> tuple[str, str]:
    """Two search forms of a text, lower case without accents: umlauts as
    plain vowels and umlauts spelled out (ß is "ss" in both).
    `fold("Jöbges") == ("jobges", "joebges")`."""
    # casefold() makes ß "ss"; NFC first, so a decomposed "ö" is one letter.
    lowered = unicodedata.normalize("NFC", text).casefold()
    return _strip_marks(lowered), _strip_marks(lowered.translate(_SPELLED))


def sort_key(text: str) -> str:
    """German phone-book order (DIN 5007-1): Ä with A, ß as ss, case-blind
    ("Böhm, Brück, Bungert", not the umlauts after Z as by code point)."""
    text = text.casefold().replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_key(first_name: str, last_name: str) -> str:
    """One key for names that are the same however they were typed:
    "Jöbges" and "Joebges", "Weiß" and "WEISS" (not "Jobges": that is
    another spelling, not another way of typing it)."""
    return " ".join(fold(f"{first_name} {last_name}")[1].split())
