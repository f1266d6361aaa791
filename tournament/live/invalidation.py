"""What happens after a result or seating changes: caches are invalidated and
every open page of the tournament is told, once the transaction commits.

The services call `results_changed`, `entries_changed` or `seating_changed`
inside their transaction. On commit the standings generation is bumped and
one small message goes to the tournament's channel-layer group:
``{"type": "live.update", "parts": [...], "id": ...}``. The consumers
(`tournament/live/consumers.py`) turn it into rendered fragments for the pages
that show one of those parts (`tournament/live/fragments.py`).

What changed is named by a `Part`, what an ETag follows by a `Source`: a
fragment names both (`tournament.live.fragments.register` refuses a name
outside them), so a page cannot wait for a part that is never published.

A player's personal link that is replaced (or whose player withdrew), or
whose table's result changed, is announced by `link_changed` or
`table_changed`: ``{"type": "live.link", "links": [<digest>, …]}``.
"""

import hashlib
import logging
import math
import time
import uuid
from collections.abc import Iterable
from enum import StrEnum

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Q, Sum
from django.dispatch import Signal

from tournament.core import websockets
from tournament.models import ResultVersion, Series, Table

logger = logging.getLogger(__name__)


class Part(StrEnum):
    """What a change touched, as the pages are told (``live.update``'s
    ``parts``: the values are the words on the wire)."""

    STANDINGS = "standings"  # ranks and totals
    RESULTS = "results"  # a series' score grids
    PROGRESS = "progress"  # which tables are done
    SEATING = "seating"  # who sits where


# Sent (with `tournament_id`) after a change's commit, once the epoch is
# bumped and before the pages are told: `tournament.live.state` reads the
# new state then, so the phones' next requests find it remembered.
changed = Signal()


def standings_generation_key(tournament_id: int) -> str:
    return f"standings-gen:{tournament_id}"


def _fresh_generation(unit: int = 1_000_000) -> int:
    # Starts from the clock (in milliseconds), not from 1: a restarted server
    # (in-memory cache) or an evicted key must never count up to a number
    # that an ETag in somebody's browser already stands for.
    return time.time_ns() // unit


def _counter(key: str, unit: int = 1_000_000) -> int:
    value = cache.get(key)
    if value is None:
        fresh = _fresh_generation(unit)
        cache.add(key, fresh, timeout=None)
        value = cache.get(key, fresh)
    return int(value)


def _bump(key: str, unit: int = 1_000_000) -> None:
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, _fresh_generation(unit), timeout=None)


def standings_generation(tournament_id: int) -> int:
    """A counter that changes whenever the tournament's results change; it
    is part of every cache key and ETag of the standings."""
    return _counter(standings_generation_key(tournament_id))


def _bump_generation(tournament_id: int) -> None:
    _bump(standings_generation_key(tournament_id))


def epoch_key(tournament_id: int) -> str:
    return f"live-epoch:{tournament_id}"


# The epoch starts from the clock in microseconds: processes keep a copy of
# the state of the epoch they last read (`tournament.live.state`), and an
# epoch made anew (the cache was lost) must not meet an old one counted up.
EPOCH_UNIT = 1_000


def epoch(tournament_id: int) -> int:
    """A counter that changes after every change a service announces (each
    `*_changed` below), whatever it changed. What the cache remembers of
    the tournament's state is kept under it (`tournament.live.state`), so
    the first request after a commit reads the state anew."""
    return _counter(epoch_key(tournament_id), EPOCH_UNIT)


def group_name(tournament_id: int) -> str:
    """The channel-layer group of everybody watching one tournament."""
    return f"live-{tournament_id}"


def publish(tournament_id: int, parts: Iterable[Part]) -> None:
    """Tell every open page of the tournament (in every worker process, with
    the Redis layer) which parts changed. Call it after the commit; the
    services use the `*_changed` functions below, which do that. The
    message is handed to the server's event loop, not waited for
    (`core.websockets.tell`)."""
    # Plain strings on the wire (`Part(name)` refuses an unknown one).
    names = sorted({Part(part).value for part in parts})
    websockets.tell(
        group_name(tournament_id),
        {"type": "live.update", "parts": names, "id": uuid.uuid4().hex},
    )


def _on_commit(tournament_id: int, parts: tuple[Part, ...], *, bump: bool) -> None:
    def done() -> None:
        if bump:
            _bump_generation(tournament_id)
        # After the generation: whoever reads the new epoch reads the new
        # generation too.
        _bump(epoch_key(tournament_id), EPOCH_UNIT)
        for receiver, error in changed.send_robust(None, tournament_id=tournament_id):
            if isinstance(error, Exception):
                logger.error("after a change: %r failed", receiver, exc_info=error)
        publish(tournament_id, parts)

    # robust: a failed push (Redis down) is logged; the result stays saved.
    transaction.on_commit(done, robust=True)


def results_changed(tournament_id: int) -> None:
    """A result was confirmed or corrected, a tie decided, or a setting that
    orders the standings changed."""
    _on_commit(tournament_id, (Part.STANDINGS, Part.RESULTS, Part.PROGRESS), bump=True)


def field_changed(tournament_id: int) -> None:
    """A player registered, checked in or out, withdrew or came back: the
    standings list who is still without a result (no result changed)."""
    _on_commit(tournament_id, (Part.STANDINGS,), bump=True)


def entries_changed(tournament_id: int) -> None:
    """A result was entered (waiting for confirmation) or rejected: the
    organizer's progress changes, and the provisional results if shown."""
    _on_commit(tournament_id, (Part.RESULTS, Part.PROGRESS), bump=False)


def seating_changed(tournament_id: int) -> None:
    """A series was released, or two players swapped in a released one."""
    _on_commit(tournament_id, (Part.SEATING, Part.PROGRESS, Part.RESULTS), bump=False)


def link_digest(link: str) -> str:
    """A personal link as the cache and the channel layer name it: never
    the secret itself."""
    return etag("personal-link", link)


def _link_key(link: str) -> str:
    return f"live-link:{link_digest(link)}"


def link_version(link: str) -> int:
    """A counter that changes whenever `link_changed` names the link: part
    of the ETag of every page behind it."""
    return _counter(_link_key(link))


def link_changed(tournament_id: int, link: str) -> None:
    """A player's personal link `link` was replaced by a new one (the old
    one stops), or what his own pages show changed beyond the tournament's
    state (he withdrew). After the commit the link's version is bumped, so
    no answer kept for it is given again, and the tournament's sockets are
    told (`live.link`): each showing a region behind the link gets it anew,
    or is told that the link is gone and ended."""
    table_changed(tournament_id, [link])


def table_changed(tournament_id: int, links: Iterable[str]) -> None:
    """A table's result changed (entered, answered, confirmed, rejected,
    corrected): `links` are its players' personal links, whose own pages
    show that result and follow it at once, as `link_changed` names one
    link; they follow the rest of the tournament only at a pace
    (`paced_generation`). One message for all of them."""
    links = list(links)

    def done() -> None:
        for link in links:
            _bump(_link_key(link))
        if links:
            message = {"type": "live.link", "links": list(map(link_digest, links))}
            websockets.tell(group_name(tournament_id), message)

    transaction.on_commit(done, robust=True)


# A player's own page shows his place, which every result at any table may
# move: it follows the standings once per this many seconds, not after each
# result, so that a series' results do not make the server render every
# player's page again after each one. His own table's changes reach it at
# once (`table_changed`).
PACE_SECONDS = 30


def paced_generation(tournament_id: int) -> int:
    """The standings generation as first read in the current window of
    PACE_SECONDS (windows of the clock, the same in every process): an
    ETag built on it changes at most once per window."""
    window = int(time.time() // PACE_SECONDS)
    generation = standings_generation(tournament_id)
    key = f"standings-paced:{tournament_id}:{window}"
    cache.add(key, generation, timeout=2 * PACE_SECONDS)
    return int(cache.get(key, generation))


def next_pace(now: float) -> float:
    """Seconds from `now` (`time.time()`) to the next window of
    `paced_generation`."""
    return PACE_SECONDS - now % PACE_SECONDS


class Source(StrEnum):
    """What a fragment's or a public page's ETag follows. The scopes of
    `state_token` (`SCOPES`) each change whenever what a fragment of that
    scope shows changes, and no more often, so a waiting entry does not
    make 300 phones fetch standings and seatings again; the other two are
    resolved by `tournament.live.state`."""

    SEATING = "seating"  # who sits where: series and their tables
    CONFIRMED = "confirmed"  # the seating and every confirmed result
    ALL = "all"  # also every waiting entry (any change of a table's result)
    STANDINGS = "standings"  # the standings generation alone (no query)
    # What a series' results show: CONFIRMED, or ALL while the tournament
    # shows provisional results.
    RESULTS = "results"


SEATING = Source.SEATING
CONFIRMED = Source.CONFIRMED
ALL = Source.ALL
SCOPES = (SEATING, CONFIRMED, ALL)


def state_token(tournament_id: int, scope: Source = ALL) -> str:
    """A token that changes with every change of the tournament that
    `scope` covers (`SCOPES`), read from the rows themselves (two small
    aggregate queries), so an ETag built on it is right even for a change
    that no service announced.

    SEATING: the series (number, versions, newest, public) and their tables (number,
    newest). CONFIRMED adds the standings generation and the confirmed
    result versions (their number and the sum of their ids: confirming or
    correcting one puts a newer id in the set). ALL adds every table's
    `result_revision`, which every entry, confirmation and rejection bumps."""
    return state_tokens(tournament_id, (scope,))[scope]


def state_tokens(
    tournament_id: int, scopes: Iterable[Source] = SCOPES
) -> dict[Source, str]:
    """`state_token` of each of `scopes`, read together: the series once,
    the tables once for SEATING and ALL (three queries for all three)."""
    wanted = set(scopes)
    if wanted - set(SCOPES):
        raise ValueError(f"unknown scope {sorted(wanted - set(SCOPES))!r}")
    series = Series.objects.filter(tournament_id=tournament_id).aggregate(
        n=Count("id"),
        v=Sum("version"),
        m=Max("id"),
        p=Count("id", filter=Q(status__in=Series.PUBLIC_STATUSES)),
    )
    tables = Table.objects.filter(series__tournament_id=tournament_id)
    counts: dict[str, list[object]] = {}
    if wanted & {SEATING, ALL}:
        plain = tables.aggregate(n=Count("id"), r=Sum("result_revision"), m=Max("id"))
        counts[SEATING] = [plain["n"], plain["m"]]
        counts[ALL] = [plain["n"], plain["r"], plain["m"]]
    if CONFIRMED in wanted:
        confirmed = Q(result_versions__status=ResultVersion.Status.CONFIRMED)
        counts[CONFIRMED] = list(
            tables.aggregate(
                n=Count("id", distinct=True),
                m=Max("id"),
                c=Count("result_versions", filter=confirmed),
                s=Sum("result_versions__id", filter=confirmed),
            ).values()
        )
    generation = standings_generation(tournament_id)
    tokens: dict[Source, str] = {}
    for scope in wanted:
        token = [scope, *series.values(), *counts[scope]]
        if scope != SEATING:
            token.insert(1, generation)
        tokens[scope] = ".".join(map(str, token))
    return tokens


def etag(*parts: object) -> str:
    """A short, stable ETag value (unquoted) for the given parts."""
    text = "|".join(str(p) for p in parts)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def modified_at(scope: str, tag: str) -> float:
    """When this server first saw `tag` for `scope` (e.g. one fragment), as
    a whole second; strictly later than for the tag before it. This is the
    Last-Modified of conditional GET: HTTP dates count seconds, so two
    changes within one second must still get different dates."""
    key = f"live-seen:{scope}"
    seen = cache.get(key)
    if seen is not None and seen[0] == tag:
        return float(seen[1])
    stamp = float(math.ceil(time.time()))
    if seen is not None:
        stamp = max(stamp, seen[1] + 1)
    cache.set(key, (tag, stamp), timeout=24 * 3600)
    return stamp
