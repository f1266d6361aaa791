"""What happens after a result or seating changes: caches are invalidated
(and, with the live issue, pages are pushed) once the transaction commits."""

from django.core.cache import cache
from django.db import transaction


def standings_generation_key(tournament_id: int) -> str:
    return f"standings-gen:{tournament_id}"


def standings_generation(tournament_id: int) -> int:
    """A counter that changes whenever the tournament's results change; it
    is part of every cache key and ETag of the standings."""
    key = standings_generation_key(tournament_id)
    value = cache.get(key)
    if value is None:
        cache.add(key, 1, timeout=None)
        value = cache.get(key, 1)
    return int(value)


def results_changed(tournament_id: int) -> None:
    def bump() -> None:
        key = standings_generation_key(tournament_id)
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 2, timeout=None)

    transaction.on_commit(bump)
