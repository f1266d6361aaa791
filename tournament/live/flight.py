"""One render at a time per cache key, in this process.

Every request runs in a thread of its own (ASGI): after a change, the phones
asking at once would each render the new page or fragment. The first one
renders it; the others asking for the same key wait and then read it from
the cache. Requests for other keys never wait for it: a lock per key, made
when somebody asks and dropped when nobody holds or waits for it (a fixed
set of locks shared by hash made a referee's page wait for a phone's
standings now and then).
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


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
