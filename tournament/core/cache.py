"""The Redis cache as the hall needs it: a Redis that is down or restarting
is a cache that remembers nothing, not an error.

Everything the site keeps in the cache (pages, states, counters of the
guards) can be made again from the database, so while Redis does not answer
every read is a miss, every write is dropped, `add` succeeds (nobody else
can be seen making the page: this process makes it) and `incr` finds no
key. Pages are slower and the guards count from zero meanwhile, but no
request fails. After a failure Redis is not asked again for
`RETRY_SECONDS`, so a Redis that does not answer at all costs one connect
timeout per process and interval, not one per cache call.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 1.0

_T = TypeVar("_T")


class HallRedisCache(RedisCache):
    """Django's Redis cache, answering as an empty cache while Redis is
    unreachable (module docstring)."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._down_until = 0.0
        self._lock = threading.Lock()

    def _or(self, call: Callable[[], _T], missing: _T) -> _T:
        if time.monotonic() < self._down_until:
            return missing
        try:
            return call()
        except (RedisConnectionError, RedisTimeoutError) as error:
            with self._lock:
                first = time.monotonic() >= self._down_until
                self._down_until = time.monotonic() + RETRY_SECONDS
            if first:
                logger.warning(
                    "Redis does not answer (%s): pages without the cache", error
                )
            return missing

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._or(partial(super().add, key, value, timeout, version), True)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._or(partial(super().get, key, default, version), default)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._or(partial(super().set, key, value, timeout, version), None)

    def touch(
        self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._or(partial(super().touch, key, timeout, version), False)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._or(partial(super().delete, key, version), False)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._or(partial(super().get_many, keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._or(partial(super().has_key, key, version), False)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        found: int | None = self._or(partial(super().incr, key, delta, version), None)
        if found is None:
            raise ValueError(f"Key {key!r} not found.")
        return found

    def set_many(
        self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> list[Any]:
        return self._or(partial(super().set_many, data, timeout, version), [])

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._or(partial(super().delete_many, keys, version), None)

    def clear(self) -> None:
        self._or(partial(super().clear), None)
