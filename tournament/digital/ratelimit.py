"""How many practice tables one visitor may open.

Practice tables are open to anyone without signing in, and each is a row,
four seats and bots to run: 30 requests in one second made 30 tables. So
each session and each address may open only so many within a window
(`DIGITAL_PRACTICE_PER_SESSION`, `DIGITAL_PRACTICE_PER_ADDRESS` per
`DIGITAL_PRACTICE_WINDOW` seconds), counted in Django's cache: a count
lost with the cache only lets a visitor start over, and several worker
processes share it (Redis). How many practice tables are played at once
is the database's to count (`services.digital_practice_create`).
"""

from django.conf import settings
from django.utils.translation import gettext as _

from tournament.core.errors import UserError
from tournament.core.ratelimit import count_in_window


def _counted(key: str) -> int:
    """One more for `key` in the current practice window; the count so far."""
    return count_in_window(key, int(settings.DIGITAL_PRACTICE_WINDOW))


def practice_count_address(address: str) -> None:
    """Count a practice table opened from `address` (the client's IP
    address); UserError if the address has opened its share already."""
    if _counted(f"practice-opened:address:{address}") > int(
        settings.DIGITAL_PRACTICE_PER_ADDRESS
    ):
        raise UserError(
            _(
                "Von diesem Netz aus wurden gerade sehr viele Übungstische "
                "geöffnet. Bitte in ein paar Minuten noch einmal versuchen."
            ),
            code="practice_address_limit",
        )


def practice_count_session(session_key: str) -> None:
    """Count a practice table opened in the session `session_key`;
    UserError if the session has opened its share already."""
    if _counted(f"practice-opened:session:{session_key}") > int(
        settings.DIGITAL_PRACTICE_PER_SESSION
    ):
        raise UserError(
            _(
                "Sie haben gerade schon viele Übungstische geöffnet. Bitte "
                "spielen Sie am offenen Tisch weiter oder versuchen Sie es in "
                "ein paar Minuten noch einmal."
            ),
            code="practice_session_limit",
        )
