"""Places and dates as the active language writes them, for pages and
printed documents alike: "11." and "11th", "Samstag, 5. Dezember 2026" and
"Saturday, Dec. 5, 2026" (the dates by Django's formats of the language)."""

import datetime

from django.utils import formats, translation


def ordinal(number: int) -> str:
    """A place as an ordinal number: German "1.", English "1st", "11th",
    "22nd"."""
    if (translation.get_language() or "de").startswith("en"):
        if 11 <= number % 100 <= 13:
            suffix = "th"
        else:
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        return f"{number}{suffix}"
    return f"{number}."


def long_date(value: datetime.date, *, with_time: bool = False) -> str:
    """The weekday and the date (and the time of day) in the language's own
    formats: "Samstag, 5. Dezember 2026, 14:30", "Saturday, Dec. 5, 2026,
    2:30 p.m."."""
    parts = [formats.date_format(value, "l"), formats.date_format(value, "DATE_FORMAT")]
    if with_time and isinstance(value, datetime.datetime):
        parts.append(formats.time_format(value, "TIME_FORMAT"))
    return ", ".join(parts)


def short_date(value: datetime.date) -> str:
    """The date in digits as the language writes it: 05.12.2026, 12/05/2026."""
    return formats.date_format(value, "SHORT_DATE_FORMAT")


def short_datetime(value: datetime.datetime, *, seconds: bool = False) -> str:
    """The date in digits and the time of day on the 24-hour clock, which
    both languages of the hall read alike: 05.12.2026 14:30, 12/05/2026
    14:30 (with seconds where the order of events matters)."""
    clock = f"{value:%H:%M:%S}" if seconds else f"{value:%H:%M}"
    return f"{short_date(value)} {clock}"
