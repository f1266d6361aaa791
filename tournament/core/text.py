"""Names people typed, made safe to show and to print.

Unicode has characters that show nothing (zero-width spaces and joiners,
the byte-order mark, soft hyphens) and characters that turn the text after
them around: "Anna\u202egnp.exe" shows as "Annaexe.png". A name is kept
with none of them: letters, marks, digits, punctuation and single spaces,
in one normal form (NFC), so "Jöbges" typed two ways is one name.
"""

import unicodedata


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
