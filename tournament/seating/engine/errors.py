"""The one exception the seating module raises for bad input."""

from __future__ import annotations


class SeatingError(ValueError):
    """A seating request that cannot be met, with a stable machine ``code``.

    The message is English and meant for logs; the site translates by
    ``code`` (and may use ``params`` to fill in its own message).
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
