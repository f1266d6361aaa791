"""A tournament's state as its ETags name it, read from the rows or
remembered by the cache.

`source_token` is what a fragment's ETag follows: for a scope of
`invalidation.state_token` (read from the rows, right even for a change no
service announced) or the standings generation alone, plus the
tournament's own fields. A region (`fragments.region`) reads it each time.

A public page served from the cache must know its state without asking the
database (`tournament.live.pages`): `known` reads a scope's token when a
page of it is first asked for and remembers it under the tournament's epoch
(`invalidation.epoch`), which every announced change bumps after its
commit. Right after that bump the committing process reads every scope's
new token at once (`invalidation.changed`), so the phones asking next are
answered before Django; should that fail, the first request reads it.
Each process keeps a copy of the newest epoch's state, so a request reads
only the epoch from the cache. A change that no service
announced (Django's admin) is read after at most REMEMBER_SECONDS; the
pages' live regions, which read the rows, follow it at once.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.core.cache import BaseCache, cache
from django.dispatch import receiver

from tournament.live import invalidation
from tournament.live.flight import single_flight
from tournament.models import Tournament
from tournament.models.core import UNREAD_FIELDS

# What an ETag can follow (`invalidation.Source`): each of SOURCES has a
# token of its own (a scope of `invalidation.state_token`, or STANDINGS, the
# standings generation alone: no query); RESULTS, what a series' results
# show, is the token of CONFIRMED, or of ALL while the tournament shows
# provisional results.
Source = invalidation.Source
STANDINGS = Source.STANDINGS
RESULTS = Source.RESULTS
SOURCES = (STANDINGS, *invalidation.SCOPES)

REMEMBER_SECONDS = 5


def scope_of(source: Source, provisional: bool) -> Source:
    """The scope (`SOURCES`) a fragment or page of `source` follows."""
    if source == RESULTS:
        return invalidation.ALL if provisional else invalidation.CONFIRMED
    return source


def settings_token(tournament: Tournament) -> str:
    """The tournament's own fields (name, provisional results shown,
    tie-break keys, …), however they were saved; not those a tournament is
    read without (the draw's plan: seats are read from their rows, and a
    draw moves the series' state)."""
    return invalidation.etag(
        *(getattr(tournament, f.attname) for f in _SETTINGS_FIELDS)
    )


_SETTINGS_FIELDS = [
    f for f in Tournament._meta.concrete_fields if f.name not in UNREAD_FIELDS
]


def source_token(tournament_id: int, scope: Source, settings: str) -> str:
    """The state `scope` (`SOURCES`) covers, read now; `settings` is the
    tournament's `settings_token`."""
    if scope == STANDINGS:
        return f"{invalidation.standings_generation(tournament_id)}.{settings}"
    return f"{invalidation.state_token(tournament_id, scope)}.{settings}"


def source_tokens(tournament_id: int, settings: str) -> dict[Source, str]:
    """`source_token` of every source (`SOURCES`), read together."""
    tokens = {
        scope: f"{token}.{settings}"
        for scope, token in invalidation.state_tokens(tournament_id).items()
    }
    return {STANDINGS: source_token(tournament_id, STANDINGS, settings), **tokens}


def first_seen(tournament_id: int, scope: str, token: str) -> float:
    """When this server first saw `token` for the tournament's `scope`: the
    Last-Modified of what follows it (`invalidation.modified_at`)."""
    return invalidation.modified_at(f"{tournament_id}:{scope}", token)


@dataclass(frozen=True)
class Known:
    """What a page of one source is kept under: the tournament, the token
    of the state it shows and when that was first seen."""

    tournament_id: int
    token: str
    modified: float


@dataclass(frozen=True)
class _Remembered:
    """What the cache remembers of a tournament under one epoch: its own
    fields and each scope's token read so far (with when it was read)."""

    slug: str
    settings: str
    provisional: bool
    # scope (as a plain string, the same in every version) → token, seen, read
    tokens: dict[str, tuple[str, float, float]]


def _slug_key(slug: str) -> str:
    return f"live-slug:{slug}"


def _known_key(tournament_id: int, epoch: object) -> str:
    return f"live-known:{tournament_id}:{epoch}"


# This process's copy of the newest remembered state of each tournament, by
# epoch: the epoch is read from the cache on every request (the check that
# nothing changed), the state itself only when it did; and of which
# tournament a slug names, for REMEMBER_SECONDS (a state remembered for
# another slug is not taken: `_missing`). A dict's get and set are safe
# across threads.
_copies: dict[int, tuple[object, _Remembered]] = {}
_slugs: dict[str, tuple[int, float]] = {}


def _tournament_of(store: BaseCache, slug: str, now: float) -> int | None:
    copy = _slugs.get(slug)
    if copy is not None and now - copy[1] <= REMEMBER_SECONDS:
        return copy[0]
    tournament_id: int | None = store.get(_slug_key(slug))
    if tournament_id is not None:
        _slugs[slug] = (tournament_id, now)
    return tournament_id


def _remember_slug(slug: str, tournament_id: int, now: float) -> None:
    cache.set(_slug_key(slug), tournament_id, timeout=REMEMBER_SECONDS)
    _slugs[slug] = (tournament_id, now)


def _forget_slug(slug: str) -> None:
    cache.delete(_slug_key(slug))
    _slugs.pop(slug, None)


def _remember(tournament_id: int, epoch: object, remembered: _Remembered) -> None:
    """Keep `remembered` as the tournament's state under `epoch`: in the
    cache (all processes) and in this process's copy."""
    cache.set(_known_key(tournament_id, epoch), remembered, timeout=REMEMBER_SECONDS)
    _copies[tournament_id] = (epoch, remembered)


def _remembered_in(
    store: BaseCache, tournament_id: int, epoch: object
) -> _Remembered | None:
    copy = _copies.get(tournament_id)
    if copy is not None and copy[0] == epoch:
        return copy[1]
    found: _Remembered | None = store.get(_known_key(tournament_id, epoch))
    if found is not None:
        _copies[tournament_id] = (epoch, found)
    return found


def known(
    slug: str,
    source: Source,
    retry: bool = True,
    loaded: Callable[[Tournament], None] | None = None,
) -> Known | None:
    """The state of the tournament `slug` that a page of `source`
    (`SOURCES` or "results") shows, as remembered: read from the rows once
    per announced change, or after REMEMBER_SECONDS; None for no such
    tournament. `loaded` is given the tournament's row when it had to be
    read, so that the page's view need not read it again."""
    now = time.time()
    tournament_id = _tournament_of(cache, slug, now)
    row = None
    if tournament_id is None:
        row = Tournament.objects.filter(slug=slug).first()
        if row is None:
            return None
        if loaded is not None:
            loaded(row)
        tournament_id = row.pk
        _remember_slug(slug, tournament_id, now)
    epoch = invalidation.epoch(tournament_id)
    remembered = _remembered_in(cache, tournament_id, epoch)
    if _missing(remembered, slug, source, now):
        key = _known_key(tournament_id, epoch)
        with single_flight(key):
            remembered = _remembered_in(cache, tournament_id, epoch)
            if remembered is None or remembered.slug != slug:
                if row is None:
                    row = Tournament.objects.filter(pk=tournament_id).first()
                    if row is not None and row.slug == slug and loaded is not None:
                        loaded(row)
                if row is None or row.slug != slug:  # a backup restored over it
                    _forget_slug(slug)
                    # Once more, from the slug (there may be a new one).
                    return (
                        known(slug, source, retry=False, loaded=loaded)
                        if retry
                        else None
                    )
                remembered = _Remembered(
                    slug, settings_token(row), row.show_provisional, {}
                )
            if _missing(remembered, slug, source, now):
                scope = scope_of(source, remembered.provisional)
                token = source_token(tournament_id, scope, remembered.settings)
                seen = first_seen(tournament_id, scope, token)
                tokens = {**remembered.tokens, str(scope): (token, seen, now)}
                remembered = replace(remembered, tokens=tokens)
                _remember(tournament_id, epoch, remembered)
    assert remembered is not None
    return _known_of(remembered, tournament_id, source)


@receiver(invalidation.changed)
def _read_after_change(tournament_id: int, **kwargs: object) -> None:
    """Read every source's new state right after a change's commit (four
    queries), so the phones asking next are answered before Django
    (`tournament.live.edge`) instead of each source's first asker reading
    it."""
    row = Tournament.objects.filter(pk=tournament_id).first()
    if row is None:
        return
    epoch = invalidation.epoch(tournament_id)
    settings = settings_token(row)
    now = time.time()
    tokens = {
        str(scope): (token, first_seen(tournament_id, scope, token), now)
        for scope, token in source_tokens(tournament_id, settings).items()
    }
    remembered = _Remembered(row.slug, settings, row.show_provisional, tokens)
    _remember(tournament_id, epoch, remembered)
    _remember_slug(row.slug, tournament_id, now)


def remembered(store: BaseCache, slug: str, source: Source) -> Known | None:
    """`known` from the cache `store` alone, without a query; None if
    anything is not remembered (the next request that may ask the database
    reads it)."""
    now = time.time()
    tournament_id = _tournament_of(store, slug, now)
    if tournament_id is None:
        return None
    epoch = store.get(invalidation.epoch_key(tournament_id))
    if epoch is None:
        return None
    found = _remembered_in(store, tournament_id, epoch)
    if _missing(found, slug, source, now):
        return None
    assert found is not None
    return _known_of(found, tournament_id, source)


def last_known(slug: str, source: Source) -> Known | None:
    """The newest state of `source` this process remembers for `slug`,
    however old, without asking anybody: what a kept page shows while one
    request reads the state anew (`remembered` said it is too old, or a
    change made it unknown); None if this process never knew it."""
    slug_copy = _slugs.get(slug)
    if slug_copy is None:
        return None
    copy = _copies.get(slug_copy[0])
    if copy is None or copy[1].slug != slug:
        return None
    remembered = copy[1]
    if scope_of(source, remembered.provisional) not in remembered.tokens:
        return None
    return _known_of(remembered, slug_copy[0], source)


def _known_of(remembered: _Remembered, tournament_id: int, source: Source) -> Known:
    token, seen, _read_at = remembered.tokens[scope_of(source, remembered.provisional)]
    return Known(tournament_id, token, seen)


def _missing(
    remembered: _Remembered | None, slug: str, source: Source, now: float
) -> bool:
    """Whether `source`'s token is not remembered (or too old) for `slug`."""
    if remembered is None or remembered.slug != slug:
        return True
    found = remembered.tokens.get(scope_of(source, remembered.provisional))
    return found is None or now - found[2] > REMEMBER_SECONDS
