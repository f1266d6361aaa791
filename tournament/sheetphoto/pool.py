"""Reading photos beside the requests, a few at a time.

A photo takes a few hundred milliseconds of CPU (OpenCV and zxing-cpp
release the GIL while they work). At the end of a series many tables send
their sheets at once: read all at once they would take every core from
the pages the hall is waiting for. So each process reads at most
SHEET_PHOTO_WORKERS photos at a time in its pool "sheetphoto"
(`core.background`) and lets at most SHEET_PHOTO_WAITING more wait for a
thread; any further photo is refused at once (`Busy`: "Bitte einen
Moment …"), never queued without end.

The request's thread waits for its photo (under ASGI every request runs in
a thread of its own, tournament/core/handler.py), so the person gets the
pre-filled form in the answer; no transaction is open while it waits, nor
does it hold its place in Django's lane (`core.limits.outside_lane`). A
place is given back when the reading ends, not when the request stops
waiting, so a reading that outlasts its request still counts (the pool's
rule).
"""

from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings

from tournament.core import background
from tournament.core.limits import outside_lane
from tournament.sheetphoto.reader.overlay import ReviewImages, review_images
from tournament.sheetphoto.reader.read import Expected, SheetReading, read_sheet


class Busy(Exception):
    """Every place for a photo is taken (or the reading took too long)."""


def photo_pool() -> background.Pool:
    """The process's photo readers (core.background), as the settings say."""
    return background.pool(
        "sheetphoto",
        background.Bound(
            workers=int(settings.SHEET_PHOTO_WORKERS),
            queued=int(settings.SHEET_PHOTO_WAITING),
        ),
    )


def _read(data: bytes, expected: Expected | None) -> tuple[SheetReading, ReviewImages]:
    reading = read_sheet(data, expected=expected, keep_image=True)
    return reading, review_images(reading)


def read_bounded(
    data: bytes, *, expected: Expected | None
) -> tuple[SheetReading, ReviewImages]:
    """The photo read (and its review images drawn) in the pool: raises the
    reader's SheetRefused, or Busy when no place is free or the reading
    takes longer than SHEET_PHOTO_SECONDS."""
    try:
        future = photo_pool().submit(_read, data, expected)
    except background.Full:
        raise Busy from None
    try:
        # The pool bounds the readings: the request need not hold its place
        # in Django's lane meanwhile (a referee's photos would keep the other
        # referees waiting, a player's the phones).
        with outside_lane():
            return future.result(timeout=float(settings.SHEET_PHOTO_SECONDS))
    except FutureTimeout as error:
        raise Busy from error
