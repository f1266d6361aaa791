"""Plays the bots of digital tables: one runner thread per table at a time.

`wake(table_id)` is called after every committed change the services make
to a table (and when someone opens it); the runner's own moves need no
wake: it plays on until the bots wait for a person. Moves go through
`moves`, as a person's do. A runner claims the table with a lease in the
database (`DigitalTable.runner_until`), so that across several worker
processes only one plays its bots; a runner that died frees the table when
its lease runs out. The runner makes one bot move per transaction, waiting
`DIGITAL_BOT_DELAY` seconds before each so people can follow (looks need no
wait; a table of bots only moves at `DIGITAL_BOT_DELAY_ALONE`).

At most `DIGITAL_BOT_RUNNERS` runners run in a process at once, in its
pool "bots" (`core.background`; 30 practice tables opened in one second
would otherwise be 30 threads). A table woken while all are busy waits in
line; a runner that finishes a table takes the next in line, and while
tables wait, a runner hands its table back to the end of the line after
each bot move, so that every table's bots move in turn. When the process
shuts down, a runner gives its table back after the move it is making (a
runner of another process takes it on).

When the bots wait for a person, the runner asks `away` whether that
person's phone is gone: then a bot takes the seat over and the bots play
on; else the process's timer (`core.background.later`) wakes the table
again when it would be gone, so a seat is taken over even if nothing else
happens.

With `DIGITAL_BOTS_INLINE` (tests) the bots move at once, in the thread
that woke them (and no alarm is set: tests wake the table themselves).
"""

import logging
import threading
import time
from concurrent.futures import Future
from datetime import timedelta

from django.conf import settings
from django.db import OperationalError, close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from tournament.core import background
from tournament.digital import adapter, away, moves
from tournament.models import DigitalTable

logger = logging.getLogger(__name__)

LEASE = timedelta(seconds=30)
# Database errors in a row before a runner gives the table up.
MAX_FAILURES = 10


def wake(table_id: int) -> None:
    """Let the table's bots play until they wait for a person (at once, or
    when a runner is free)."""
    if getattr(settings, "DIGITAL_BOTS_INLINE", False):
        _play_inline(table_id)
        return
    global _runners
    with _line_lock:
        if _runners >= int(settings.DIGITAL_BOT_RUNNERS):
            _line.setdefault(table_id, None)
            return
        _runners += 1
    # The runner claims the table itself: if another has it, it goes on to
    # the line, and a failing query cannot keep its place counted.
    try:
        _pool().submit(_serve, table_id).add_done_callback(_count_out_if_cancelled)
    except background.Full:  # the process is shutting down
        _count_out()


def _count_out_if_cancelled(future: "Future[None]") -> None:
    if future.cancelled():  # the process shut down before it started
        _count_out()


def _count_out() -> None:
    global _runners
    with _line_lock:
        _runners -= 1


def _pool() -> background.Pool:
    # The runners counted here are at most the pool's workers; one that just
    # counted itself out may still hold its thread a moment, so as many
    # may wait for one.
    runners = int(settings.DIGITAL_BOT_RUNNERS)
    return background.pool("bots", background.Bound(workers=runners, queued=runners))


# The runner threads of this process, and the tables waiting for one, in
# order (a dict as an ordered set: a table waits once).
_line_lock = threading.Lock()
_runners = 0
_line: dict[int, None] = {}


def _next_in_line() -> int | None:
    """The next table in line, taken out of it; None when none waits, and
    then the runner asking ends (it is counted out here, under the lock,
    so that no table is left waiting with no runner to take it)."""
    global _runners
    with _line_lock:
        if _line:
            table_id = next(iter(_line))
            del _line[table_id]
            return table_id
        _runners -= 1
        return None


def _others_waiting() -> bool:
    with _line_lock:
        return bool(_line)


def _serve(table_id: int) -> None:
    """A runner thread: play the table's bots (unless another runner has
    the table), then those of the tables in line, until none waits."""
    current: int | None = table_id
    try:
        while current is not None:
            try:
                if _claim(current):
                    _run(current)
            except Exception:  # the claim's query: the next table may work
                logger.exception("bot runner of digital table %s failed", current)
            current = _next_in_line()
    finally:
        connection.close()


def _bots(digital: DigitalTable) -> dict[int, str]:
    return dict(digital.seats.exclude(bot="").values_list("number", "bot"))


def bot_step(*, table_id: int) -> bool:
    """Let one bot make its move, if one is due or wants to interrupt;
    False when the bots wait for a person (or the table is over)."""
    with transaction.atomic():
        digital = moves.lock(table_id)
        if digital.status != DigitalTable.Status.PLAYING:
            return False
        act = adapter.bot_action(digital, _bots(digital))
        if act is None:
            return False
        moves.apply(digital, act)
    return True


def bot_next(*, table_id: int) -> str | None:
    """What the bots would do next without doing it: "look" (no need to
    wait for it), "move", or None."""
    digital = DigitalTable.objects.filter(pk=table_id).first()
    if digital is None or digital.status != DigitalTable.Status.PLAYING:
        return None
    act = adapter.bot_action(digital, _bots(digital))
    if act is None:
        return None
    return "look" if act.act == "look" else "move"


def _play_inline(table_id: int) -> None:
    # A wake while the bots already play in this thread (a commit callback
    # run inside a step) must not start a second loop.
    if getattr(_inline, "busy", False):
        return
    _inline.busy = True
    try:
        while True:
            while bot_step(table_id=table_id):
                pass
            if away.take_over_if_gone(table_id=table_id) != 0:
                break
    finally:
        _inline.busy = False


_inline = threading.local()


def _claim(table_id: int) -> bool:
    now = timezone.now()
    return bool(
        DigitalTable.objects.filter(
            Q(runner_until__isnull=True) | Q(runner_until__lt=now),
            pk=table_id,
            status=DigitalTable.Status.PLAYING,
        ).update(runner_until=now + LEASE)
    )


def _release(table_id: int) -> None:
    DigitalTable.objects.filter(pk=table_id).update(runner_until=None)


def _delay(table_id: int, kind: str) -> float:
    if kind == "look":
        return 0.0
    alone = not DigitalTable.objects.filter(pk=table_id, seats__bot="").exists()
    if alone:
        return float(getattr(settings, "DIGITAL_BOT_DELAY_ALONE", 0.1))
    return float(getattr(settings, "DIGITAL_BOT_DELAY", 0.9))


def _run(table_id: int) -> None:
    failures = 0
    try:
        while failures < MAX_FAILURES:
            try:
                if not _play(table_id):
                    return
                failures = 0
            except OperationalError:
                # A busy database (SQLite under load): try again shortly.
                failures += 1
                time.sleep(0.2 * failures)
        logger.error("bot runner of digital table %s gave up", table_id)
        _release(table_id)
    except Exception:
        logger.exception("bot runner of digital table %s failed", table_id)
        _release(table_id)
    finally:
        close_old_connections()
        connection.close()


def _play(table_id: int) -> bool:
    """Make the bots' moves until they wait; False once the table is let
    go, True to be called again."""
    while True:
        kind = bot_next(table_id=table_id)
        if kind is None:
            # The bots wait for a person: is his phone gone?
            wait = away.take_over_if_gone(table_id=table_id)
            if wait == 0:
                continue
            if wait is not None:
                _alarm(table_id, wait)
            break
        if background.stopping.wait(_delay(table_id, kind)):
            _release(table_id)  # the process ends: another's runner goes on
            return False
        DigitalTable.objects.filter(pk=table_id).update(
            runner_until=timezone.now() + LEASE
        )
        if not bot_step(table_id=table_id):
            break
        if _others_waiting():
            # All runners are busy and other tables wait: this one goes to
            # the end of the line, the runner to the first in it.
            _release(table_id)
            with _line_lock:
                _line.setdefault(table_id, None)
            return False
    # Nothing to do: free the table, then look once more -- a person may
    # have moved after we looked but before we let go, and their wake-up
    # found the table still taken.
    _release(table_id)
    return bot_next(table_id=table_id) is not None and _claim(table_id)


# Wake a little after the limit, so that the seat is gone by then.
ALARM_SLACK = 0.25


def _alarm(table_id: int, seconds: float) -> None:
    """Wake the table in `seconds` (the earliest of its alarms)."""
    background.later(
        seconds + ALARM_SLACK, lambda: wake(table_id), key=("bots", table_id)
    )
