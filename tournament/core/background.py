"""The process's work off the request: named, bounded pools of threads, a
worker process for what would hold the interpreter long, and one timer,
all shut down together.

Work that does not belong to a request's answer goes to a pool named for
it (`pool(name, Bound(...))`, made at its first use): the photos read
beside the requests, the organizer's long documents (paper jobs), the bots
of digital tables, the live sockets' renders, the session store's answers
for the front door. A pool runs at most `workers` calls at a time and lets
at most `queued` more wait for a thread; beyond that `submit` raises
`Full` at once, and the caller says what that means (a photo: "Bitte einen
Moment …"; a job: too many wait already). So a burst costs neither a
thread per call nor a queue without end. A place is given back when its
call ends, not when its caller stops waiting for it.

`processes(name, …)`: one worker process, kept, for work that would hold
this process's one interpreter for long (the PDFs' layout,
tournament/paper/layout.py).

`later(seconds, call, key=…)`: a call at a time, made by the one timer
thread of the process (the earliest asked for per key). Timed calls are
quick: they hand any real work to a pool.

`soon(coroutine_function, *args)`: a coroutine handed to the server's
event loop from any thread, not waited for (the live pages' messages after
a commit).

`shutdown()` ends it all at the end of the process: on the server's ASGI
lifespan shutdown (`Lifespan`), else when Python exits (before Python
joins the pools' threads). Calls still waiting are cancelled, `stopping`
is set so that long work ends early (a bot runner gives its table back),
the timer stops, and every pool's threads are joined.
"""

import asyncio

# Imported before the hook below is registered (the order matters there).
import concurrent.futures.thread  # noqa: F401
import logging
import threading
import time
from collections.abc import Callable, Coroutine, Hashable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import async_to_sync

logger = logging.getLogger(__name__)

_P = ParamSpec("_P")
_R = TypeVar("_R")

# Set while the process shuts its background work down: long calls look
# at it (or wait on it) and end early.
stopping = threading.Event()


class Full(Exception):
    """Every place of the pool is taken (or the process is shutting down)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"background pool {name!r} is full")
        self.name = name


@dataclass(frozen=True)
class Bound:
    """At most `workers` calls at a time, and `queued` more waiting."""

    workers: int
    queued: int = 0


class Pool(ThreadPoolExecutor):
    """A named thread pool with a bound: `submit` beyond it raises `Full`."""

    def __init__(self, name: str, bound: Bound) -> None:
        super().__init__(max_workers=max(1, bound.workers), thread_name_prefix=name)
        self.name = name
        self.bound = bound
        self._places = threading.BoundedSemaphore(
            max(1, bound.workers) + max(0, bound.queued)
        )

    def submit(
        self, fn: Callable[_P, _R], /, *args: _P.args, **kwargs: _P.kwargs
    ) -> "Future[_R]":
        if stopping.is_set() or not self._places.acquire(blocking=False):
            raise Full(self.name)
        try:
            future = super().submit(fn, *args, **kwargs)
        except RuntimeError:  # shut down meanwhile
            self._places.release()
            raise Full(self.name) from None
        future.add_done_callback(lambda _done: self._places.release())
        return future


_lock = threading.Lock()
_pools: dict[str, Pool] = {}


def pool(name: str, bound: Bound) -> Pool:
    """The process's pool `name`. A bound other than the one it was made
    with (settings changed, as tests do) makes a new pool; calls already
    given to the old one end there, holding its places."""
    with _lock:
        found = _pools.get(name)
        if found is None or found.bound != bound:
            if found is not None:
                found.shutdown(wait=False)
            found = _pools[name] = Pool(name, bound)
        return found


def pools() -> dict[str, Pool]:
    """The pools made so far, by name."""
    with _lock:
        return dict(_pools)


# --- Processes ---------------------------------------------------------------

_processes: dict[str, ProcessPoolExecutor] = {}


def processes(
    name: str,
    *,
    context: BaseContext,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """The process's pool of one worker process `name`, for work that would
    hold this process's interpreter for long (made at its first use, with
    `initializer(*initargs)` in the worker; `context` says how it starts).
    One worker: further calls wait in the pool's queue; a caller that needs
    its calls alone (the layout's reports) takes its own turns."""
    with _lock:
        found = _processes.get(name)
        if found is None:
            found = _processes[name] = ProcessPoolExecutor(
                max_workers=1,
                mp_context=context,
                initializer=initializer,
                initargs=initargs,
            )
        return found


def drop_processes(name: str) -> None:
    """Forget the pool `name` (its process died): the next use makes one."""
    with _lock:
        found = _processes.pop(name, None)
    if found is not None:
        found.shutdown(wait=False, cancel_futures=True)


# --- The timer ---------------------------------------------------------------

_due_lock = threading.Condition()
_due: dict[Hashable, tuple[float, Callable[[], object]]] = {}
_timer: threading.Thread | None = None


def later(seconds: float, call: Callable[[], object], *, key: Hashable) -> None:
    """Make `call` in `seconds` in the timer's thread; of several asked for
    under one `key`, only the earliest is made."""
    global _timer
    at = time.monotonic() + max(0.0, seconds)
    with _due_lock:
        if stopping.is_set():
            return
        if key in _due and _due[key][0] <= at:
            return
        _due[key] = (at, call)
        if _timer is None:
            # A daemon: a process that never calls shutdown() is not kept
            # alive by it.
            _timer = threading.Thread(target=_ring, name="timer", daemon=True)
            _timer.start()
        _due_lock.notify()


def due() -> dict[Hashable, float]:
    """The timed calls waiting: key and seconds until each."""
    now = time.monotonic()
    with _due_lock:
        return {key: at - now for key, (at, _call) in _due.items()}


def _ring() -> None:
    while True:
        with _due_lock:
            while True:
                if stopping.is_set():
                    return
                if not _due:
                    _due_lock.wait()
                    continue
                key, (at, call) = min(_due.items(), key=lambda item: item[1][0])
                wait = at - time.monotonic()
                if wait <= 0:
                    del _due[key]
                    break
                _due_lock.wait(wait)
        try:
            call()
        except Exception:  # one failing call must not end the timer
            logger.exception("timed call %r failed", key)


# --- The server's event loop ---------------------------------------------------

# The loop the server runs the site on, from its ASGI lifespan's startup
# to its shutdown (`Lifespan`); None in a command or a test without one.
_loop: asyncio.AbstractEventLoop | None = None
# What `soon` handed to it and is not done: kept, so that no task is
# collected before it ends.
_handed: set["Future[object]"] = set()


def soon(
    call: Callable[_P, Coroutine[Any, Any, object]], *args: _P.args, **kwargs: _P.kwargs
) -> None:
    """Run `call(*args, **kwargs)` on the server's event loop and go on
    without waiting for it; a failure is logged. A request's thread that
    tells the live pages after its commit (the channel layer's
    `group_send`) so gives its place in the lane back at once, not when the
    loop, busy with the hall's sockets in a series' results, takes the
    message. Where no server loop runs (a command, a test without the
    lifespan), it is run to its end here, as `async_to_sync` does."""
    loop = _loop
    if loop is not None and loop.is_running():
        coroutine = call(*args, **kwargs)
        try:
            handed = asyncio.run_coroutine_threadsafe(coroutine, loop)
        except RuntimeError:  # the loop closed since it was looked at
            coroutine.close()
        else:
            _handed.add(handed)
            handed.add_done_callback(_handed_done)
            return
    async_to_sync(call)(*args, **kwargs)


def _handed_done(handed: "Future[object]") -> None:
    _handed.discard(handed)
    error = None if handed.cancelled() else handed.exception()
    if error is not None:
        logger.error("a call handed to the event loop failed", exc_info=error)


# --- The end -----------------------------------------------------------------


def shutdown() -> None:
    """End the background work: waiting calls cancelled, long calls told
    (`stopping`), the timer stopped, every pool's threads joined.
    Afterwards the module is as at the start (a test may go on)."""
    global _timer
    ending = _take_pools()
    for each in ending:  # first, so that no waiting call starts on the news
        each.shutdown(wait=False, cancel_futures=True)
    stopping.set()
    with _due_lock:
        _due.clear()
        _due_lock.notify_all()
        timer, _timer = _timer, None
    for each in ending + _take_pools():  # and any made meanwhile
        each.shutdown(wait=True, cancel_futures=True)
    with _lock:
        worker_processes = list(_processes.values())
        _processes.clear()
    for process_pool in worker_processes:
        process_pool.shutdown(wait=True, cancel_futures=True)
    if timer is not None and timer is not threading.current_thread():
        timer.join()
    stopping.clear()


def _take_pools() -> list[Pool]:
    with _lock:
        taken = list(_pools.values())
        _pools.clear()
        return taken


# Python joins every ThreadPoolExecutor's threads when the main thread ends,
# before `atexit` handlers run, and would wait there for the longest call.
# Its hook for that (concurrent.futures.thread, imported above) runs after
# the ones registered later: shutdown() tells the long calls to end first.
threading._register_atexit(shutdown)  # type: ignore[attr-defined]


class Lifespan:
    """The ASGI lifespan protocol: at the server's startup its event loop
    becomes the one `soon` hands coroutines to; at its shutdown,
    `shutdown()` (in a thread: it joins threads)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        global _loop
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                _loop = asyncio.get_running_loop()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                _loop = None
                await asyncio.to_thread(shutdown)
                await send({"type": "lifespan.shutdown.complete"})
                return
