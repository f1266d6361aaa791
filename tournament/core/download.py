"""Names of the files the site hands out, and the header that names them.

A file keeps the words of its document as Germans write them
("rm-2025-spielliste-ausgefüllt.pdf"): the header gives that name as RFC
6266 / RFC 5987 say (`filename*`, UTF-8), and an ASCII name beside it for
an old program, with umlauts written out ("…-ausgefuellt.pdf", never
"…-ausgefullt.pdf")."""

import unicodedata
from urllib.parse import quote

from django.utils.text import slugify

_SPELLED = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
)


def file_name(*words: object, extension: str) -> str:
    """A file's name of `words`: lower case, hyphens between the words,
    letters of any language kept ("ausgefüllt")."""
    stem = slugify(" ".join(str(w) for w in words), allow_unicode=True)
    return f"{stem}.{extension}"


def ascii_name(name: str) -> str:
    """`name` in ASCII: umlauts and ß written out, other accents dropped."""
    spelled = unicodedata.normalize("NFKD", name.translate(_SPELLED))
    text = spelled.encode("ascii", "ignore").decode("ascii")
    return "".join(ch if ch.isalnum() or ch in ".-_" else "-" for ch in text)


def content_disposition(name: str, *, attachment: bool = True) -> str:
    """The Content-Disposition header for a file called `name`: shown in
    the browser (`attachment` False) or saved."""
    kind = "attachment" if attachment else "inline"
    fallback = ascii_name(name)
    if fallback == name:
        return f'{kind}; filename="{name}"'
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"
