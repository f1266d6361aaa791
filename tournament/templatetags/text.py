"""Template filters for text people typed (`tournament.core.text`), and
places and dates in the active language (`tournament.core.l10n`)."""

import datetime

from django import template

from tournament.core.l10n import long_date as _long_date
from tournament.core.l10n import ordinal as _ordinal
from tournament.core.l10n import short_date as _short_date
from tournament.core.rules import bot_label as _bot_label
from tournament.core.text import code_groups as _code_groups
from tournament.core.text import unbroken_numbers as _unbroken_numbers

register = template.Library()


@register.filter
def bot_label(value: object) -> str:
    """A bot in words ("Bot (überlegt)") rather than by its key."""
    return _bot_label(str(value))


@register.filter
def unbroken_numbers(value: object) -> str:
    """A name that a phone's narrow screen wraps, without a line that ends
    in "7-" ("… im 7-" over "Schräm 2026")."""
    return _unbroken_numbers(str(value))


@register.filter
def code_groups(value: object) -> str:
    """A lot's seed in groups of four, as the Protokoll shows it."""
    return _code_groups(str(value))


@register.filter
def ordinal(value: object) -> str:
    """A place as the active language writes it: "11." or "11th"."""
    try:
        number = int(str(value))
    except ValueError:
        return str(value)
    return _ordinal(number)


@register.filter
def long_date(value: datetime.date | None, with_time: bool = False) -> str:
    """Weekday and date (`with_time`: and the time) in the language's formats."""
    return _long_date(value, with_time=bool(with_time)) if value else ""


@register.filter
def short_date(value: datetime.date | None) -> str:
    """The date in digits as the language writes it."""
    return _short_date(value) if value else ""
