"""JSON text in and out, with the per-call setup of ``json.loads`` and
``json.dumps`` paid once.

A digital table parses a record and serialises a view on every move; the
standard functions build a decoder or encoder object per call, which is a
measurable share of that move.  ``encode`` gives exactly ``json.dumps(obj)``
(default separators, ASCII); ``decode`` accepts exactly what ``json.loads``
accepts for a str.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .errors import RecordError

_DECODER = json.JSONDecoder()


def decode(text: str) -> Any:
    """Parse JSON ``text``; raise RecordError (path "") if it is not JSON."""
    try:
        start = len(text) - len(text.lstrip())
        value, end = _DECODER.raw_decode(text, start)
    except (ValueError, TypeError, AttributeError) as err:
        raise RecordError("", f"not JSON: {err}") from None
    except RecursionError:  # brackets nested deeper than Python recurses
        raise RecordError("", "not JSON: nested too deeply") from None
    if end != len(text) and text[end:].strip():
        raise RecordError("", f"not JSON: extra data at character {end}")
    return value


def _raise(obj: Any) -> Any:
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def _make_encode() -> Callable[[Any], str]:
    # The C encoder is an implementation detail of CPython's json module;
    # fall back to json.dumps wherever it is missing.
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return json.dumps
    chunks = make(
        None, _raise, json.encoder.encode_basestring_ascii, None, ": ", ", ",
        False, False, True,
    )  # fmt: skip

    def encode(obj: Any) -> str:
        return "".join(chunks(obj, 0))

    return encode


#: ``encode(obj)`` == ``json.dumps(obj)`` for plain JSON data (no cycles:
#: views and records never contain any).
encode: Callable[[Any], str] = _make_encode()
