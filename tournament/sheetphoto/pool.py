"""Reading photos beside the requests, a few at a time, in a process of
their own.

A photo takes a hundred milliseconds and more of CPU, much of it in the
reader's own Python, which holds the interpreter. At the end of a series
many tables send their sheets at once, while the hall's phones wait for
the pages this process makes: so the photos are read in one worker
process, kept (`core.background.processes`, started by the forkserver: the
server's threads are not forked), beside the server's interpreter, as the
PDFs are laid out (tournament/paper/layout.py). Each server process lets
at most SHEET_PHOTO_WORKERS photos be in reading at a time (its pool
"sheetphoto", whose threads wait for the reader process) and at most
SHEET_PHOTO_WAITING more wait; any further photo is refused at once
(`Busy`: "Bitte einen Moment …"), never queued without end.

The request's thread waits for its photo (under ASGI every request runs in
a thread of its own, tournament/core/handler.py), so the person gets the
pre-filled form in the answer; no transaction is open while it waits, nor
does it hold its place in Django's lane (`core.limits.outside_lane`). A
place is given back when the reading ends, not when the request stops
waiting, so a reading that outlasts its request still counts (the pool's
rule). A reader process that died (killed, out of memory) is replaced at
the next photo; the photo it was reading is asked for again (`Busy`).
"""

from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from django.conf import settings

from tournament.core import background
from tournament.core.limits import outside_lane
from tournament.sheetphoto.reader.overlay import ReviewImages, read_for_review
from tournament.sheetphoto.reader.read import Expected, SheetReading

READER = "sheetphoto-reader"
_CONTEXT = get_context("forkserver")


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
    """In a thread of the pool: the photo read in the reader process."""
    reader = background.processes(READER, context=_CONTEXT)
    try:
        return reader.submit(read_for_review, data, expected).result()
    except BrokenProcessPool:
        background.drop_processes(READER)
        raise Busy from None


def read_bounded(
    data: bytes, *, expected: Expected | None
) -> tuple[SheetReading, ReviewImages]:
    """The photo read (and its review images drawn) in the pool: raises the
    reader's SheetRefused, or Busy when no place is free, the reader
    process died, or the reading takes longer than SHEET_PHOTO_SECONDS."""
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
