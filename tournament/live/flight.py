"""One render at a time per cache key, in this process.

Every request runs in a thread of its own (ASGI): after a change, the phones
asking at once would each render the new page or fragment. The first one
renders it; the others asking for the same key wait and then read it from
the cache. Requests for other keys never wait for it: a lock per key, made
when somebody asks and dropped when nobody holds or waits for it (a fixed
set of locks shared by hash made a referee's page wait for a phone's
standings now and then).

Across processes (Redis: one cache for all workers) the process that
renders marks the key (`made_elsewhere`); the others wait for its result.
"""

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache

from tournament.core import serving


@dataclass
class _Key:
    lock: threading.RLock = field(default_factory=threading.RLock)
    users: int = 0  # threads holding or waiting for the lock


_guard = threading.Lock()
_keys: dict[str, _Key] = {}


@contextmanager
def single_flight(key: str) -> Iterator[None]:
    """Hold the lock of `key` (re-entrant: a page's render may ask for a
    region, which takes its own key)."""
    if not serving.on("flight"):
        yield  # off: every request renders for itself
        return
    with _guard:
        entry = _keys.setdefault(key, _Key())
        entry.users += 1
    try:
        with entry.lock:
            yield
    finally:
        with _guard:
            entry.users -= 1
            if entry.users == 0:
                del _keys[key]


# How long a process waits for the value another one renders (then it
# renders it itself), and how often it looks.
MAKING_WAIT = 2.0
MAKING_POLL = 0.01


def made_elsewhere(key: str) -> Any:
    """The value of `key` once another process has rendered it, or None if
    this one is to render it (nobody else is, or it takes too long); the
    one that renders deletes `{key}:making` when done."""
    if not serving.on("flight") or cache.add(
        f"{key}:making", True, timeout=int(MAKING_WAIT) + 1
    ):
        return None
    deadline = time.monotonic() + MAKING_WAIT
    while time.monotonic() < deadline:
        time.sleep(MAKING_POLL)
        value = cache.get(key)
        if value is not None:
            return value
    return None
