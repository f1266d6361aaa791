"""Live pages: the updatable part of a page is a *fragment*, one partial
template rendered from one context builder, the same for the page, for the
poll endpoint and for the websocket push.

A fragment is named by a key: its name plus its validated parameters in a
fixed order, e.g. ``standings``, ``standings?view=ladies``,
``results?series=3``. Rendered fragments are cached under their ETag, which
changes with the tournament's state (`tournament.live.invalidation`), so a thousand
phones asking at once cost one render.
"""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpRequest, QueryDict
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise, cached_property
from django.utils.safestring import SafeString, mark_safe

from tournament.live import invalidation, state
from tournament.live.flight import single_flight
from tournament.live.invalidation import Part, Source
from tournament.models import Tournament

Params = dict[str, str]
Context = dict[str, Any]

# Rendered fragments live until the state changes (their key is their ETag);
# a searched variant is not worth keeping long.
FRAGMENT_TIMEOUT = 15 * 60
SEARCH_TIMEOUT = 60
# Variants (searches, sort orders, …) kept per page or fragment and state
# beside its default: junk must not push the real pages out of the cache.
MAX_VARIANTS = 50


def may_keep_variant(page: str, timeout: int) -> bool:
    """Whether one more variant of `page` (a page or fragment in one state,
    as named by the caller) may be kept, for `timeout` seconds: at most
    MAX_VARIANTS within the window the first one starts. A variant not
    kept is still served, rendered for its visitor."""
    key = f"live-variants:{page}"
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key)) <= MAX_VARIANTS
    except ValueError:  # the window ended between the two calls
        return cache.add(key, 1, timeout=timeout)


# --- Parameter validators, for the features' fragments ---------------------

# A parameter's check: its value as the page shows it, or None for a value
# not allowed (the parameter is then left out).
Check = Callable[[str], str | None]


def choice(*allowed: str) -> Check:
    return lambda value: value if value in allowed else None


def series_number(value: str) -> str | None:
    # isdecimal, not isdigit: int() refuses "²"; two digits at most, as int()
    # refuses thousands.
    ok = (
        value.isdecimal()
        and len(value) <= 2
        and 1 <= int(value) <= Tournament.MAX_SERIES
    )
    return value if ok else None


def search(value: str) -> str | None:
    return value.strip()[:100] or None


# --- The registry ----------------------------------------------------------


@dataclass(frozen=True)
class PersonalLink:
    """What makes a fragment a player's own: the parameter that holds his
    personal link (the secret of his page), and whether a link is valid
    now (read from the rows: a replaced or wrong one is not)."""

    param: str
    valid: Callable[[Tournament, str], bool]


@dataclass(frozen=True)
class Slide:
    """One more slide of a fragment on the projector: `name` tells it apart
    (its `data-slide`), `title` names it in the projector's bar, `params`
    are its region's (as a page would ask for them)."""

    name: str
    title: str | Promise
    params: Params


@dataclass(frozen=True)
class Fragment:
    name: str
    template: str
    context: Callable[[HttpRequest, Tournament, Params], Context]
    # Which changes (published by `invalidation`) make it render anew.
    parts: frozenset[Part]
    # Allowed parameters, in key order, with their validators; a parameter
    # equal to its default is left out of the key.
    params: dict[str, Check] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    staff: bool = False
    # What the ETag follows: STANDINGS, the standings generation alone (no
    # query); RESULTS, what the results fragment shows: confirmed results,
    # and waiting entries too if the tournament shows provisional results;
    # else a scope of `invalidation.state_token` (seating, confirmed results,
    # or every entry as well). A change outside it must not change what the
    # fragment shows, or its ETag would hide that change.
    source: Source = Source.ALL
    # What else the ETag follows, for a fragment that shows more than its
    # tournament (a season ranking over several): a token of its own that
    # changes whenever that changes (read from the rows, like `source`).
    token: Callable[[Tournament, Params], str] | None = None
    # A fragment behind a personal link: never kept for everybody, answered
    # only while its link is valid (a poll or a socket naming another link
    # is counted as the personal-link pages count it), and its ETag follows
    # the link's version too (`invalidation.link_changed`).
    personal: PersonalLink | None = None
    # Parts it follows only at a pace (`invalidation.PACE_SECONDS`): an
    # update naming no other of its parts makes it due at the next window of
    # `invalidation.paced_generation`, which its ETag then follows (a
    # player's own page and his place, which every result anywhere moves).
    # Only the standings are paced: that is the generation's part.
    paced: frozenset[Part] = frozenset()
    # The projector's further slides of this fragment in a tournament (a
    # category's ranking beside the overall one), each its own live region.
    slides: Callable[[Tournament], list[Slide]] | None = None


# Filled by the features' `fragments` modules (imported when the app is
# ready): live knows how to render and push a fragment, not what is in it.
FRAGMENTS: dict[str, Fragment] = {}


def register(fragment: Fragment) -> Fragment:
    """Make a fragment known by its name to pages, polls and sockets. The
    features register theirs when the app is ready, so a fragment waiting
    for a part nobody publishes, or following an unknown source, stops the
    start instead of leaving a page that never updates."""
    if FRAGMENTS.get(fragment.name, fragment) != fragment:
        raise ValueError(f"two fragments named {fragment.name!r}")
    try:
        # As the members: a plain string (which mypy would refuse) is taken
        # if it is the name of a part or source.
        parts = frozenset(Part(part) for part in fragment.parts)
        paced = frozenset(Part(part) for part in fragment.paced)
        source = Source(fragment.source)
    except ValueError as error:
        raise ValueError(
            f"fragment {fragment.name!r}: {error} (parts: {', '.join(Part)};"
            f" sources: {', '.join(Source)})"
        ) from None
    if not parts:
        raise ValueError(f"fragment {fragment.name!r} waits for no part")
    if not paced <= parts:
        raise ValueError(f"fragment {fragment.name!r} paces a part it does not follow")
    if not paced <= {Part.STANDINGS}:
        raise ValueError(f"fragment {fragment.name!r}: only the standings are paced")
    fragment = replace(fragment, parts=parts, paced=paced, source=source)
    FRAGMENTS[fragment.name] = fragment
    return fragment


@dataclass(frozen=True)
class FragmentKey:
    fragment: Fragment
    params: Params

    @property
    def text(self) -> str:
        if not self.params:
            return self.fragment.name
        return f"{self.fragment.name}?{urlencode(self.params)}"


def fragment_key(name: str, given: dict[str, str]) -> FragmentKey | None:
    """The canonical key for a fragment and some request parameters; None
    for an unknown fragment or a missing required parameter. Unknown or
    invalid parameters are dropped."""
    fragment = FRAGMENTS.get(name)
    if fragment is None:
        return None
    params: Params = {}
    for param, check in fragment.params.items():
        value = check(str(given.get(param, "")))
        if value is not None and value != fragment.defaults.get(param):
            params[param] = value
    if any(p not in params for p in fragment.required):
        return None
    return FragmentKey(fragment, params)


# What a region behind a personal link shows once the link is gone
# (replaced, or never valid), over the socket and the poll alike.
LINK_GONE_TEMPLATE = "tournament/live/partials/link_gone.html"


def link_valid(tournament: Tournament, key: FragmentKey) -> bool:
    """Whether the region of `key` may be shown: a fragment behind a
    personal link only while the link is valid."""
    personal = key.fragment.personal
    link = key.params.get(personal.param, "") if personal else ""
    return personal is None or personal.valid(tournament, link)


def link_of(key: FragmentKey) -> str | None:
    """The personal link `key` names, or None for a fragment not behind one."""
    personal = key.fragment.personal
    return None if personal is None else key.params.get(personal.param, "")


def parse_key(text: str) -> FragmentKey | None:
    """A key as a page sent it back (``name?a=1``), validated again."""
    name, _, query = str(text)[:300].partition("?")
    return fragment_key(name, dict(parse_qsl(query)))


def _fragment_request(key: FragmentKey, tournament: Tournament) -> HttpRequest:
    """The request a fragment is rendered with: its parameters only and no
    user, so the same key renders the same bytes for everybody."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = reverse(
        "tournament:live_fragment",
        kwargs={"slug": tournament.slug, "name": key.fragment.name},
    )
    request.GET = QueryDict(urlencode(key.params))
    request.META = {"SERVER_NAME": "live", "SERVER_PORT": "80"}
    request.user = AnonymousUser()
    return request


@dataclass
class Region:
    """One live region of one page: what the page prints and what the
    browser needs to keep it current (key, ETag, poll URL)."""

    tournament: Tournament
    key: FragmentKey
    language: str
    etag: str
    modified: float
    # The state its ETag follows (`state.source_token`, and the fragment's
    # own token).
    token: str = ""

    @property
    def url(self) -> str:
        path = reverse(
            "tournament:live_fragment",
            kwargs={"slug": self.tournament.slug, "name": self.key.fragment.name},
        )
        return f"{path}?{urlencode(self.key.params)}" if self.key.params else path

    @cached_property
    def html(self) -> SafeString:
        cache_key = f"live-frag:{self.etag}"
        html: str | None = cache.get(cache_key)
        if html is None:
            # After a change, the phones asking at once would each render the
            # new fragment: one renders it, the others wait for it.
            with single_flight(cache_key):
                html = cache.get(cache_key)
                if html is None:
                    html = self._render(cache_key)
        return mark_safe(html)

    def _render(self, cache_key: str) -> str:
        with translation.override(self.language):
            request = _fragment_request(self.key, self.tournament)
            context = self.key.fragment.context(
                request, self.tournament, self.key.params
            )
            html = render_to_string(
                self.key.fragment.template, context, request=request
            )
        if "q" in self.key.params:
            name = self.key.fragment.name
            variants = invalidation.etag(self.tournament.pk, name, self.token)
            if may_keep_variant(variants, SEARCH_TIMEOUT):
                cache.set(cache_key, html, timeout=SEARCH_TIMEOUT)
        else:
            cache.set(cache_key, html, timeout=FRAGMENT_TIMEOUT)
        return html


def region(tournament: Tournament, key: FragmentKey, language: str = "") -> Region:
    """The region of `key` in `language` (default: the active one); its
    HTML is rendered (or read from the cache) when first asked for."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    scope = state.scope_of(key.fragment.source, tournament.show_provisional)
    token = state.source_token(tournament.pk, scope, state.settings_token(tournament))
    seen_scope: str = scope
    # A fragment with a token of its own (a season ranking over several
    # tournaments) or behind a personal link follows that too, and is first
    # seen per key.
    own = []
    if key.fragment.token is not None:
        own.append(key.fragment.token(tournament, key.params))
    if key.fragment.paced:
        own.append(str(invalidation.paced_generation(tournament.pk)))
    link = link_of(key)
    if link is not None:
        own.append(str(invalidation.link_version(link)))
    if own:
        token = ".".join([token, *own])
        seen_scope = f"{scope}:{invalidation.etag(key.text)}"
    seen = state.first_seen(tournament.pk, seen_scope, token)
    tag = region_etag(tournament.pk, key, language, token)
    return Region(tournament, key, language, tag, seen, token)


def region_etag(tournament_id: int, key: FragmentKey, language: str, token: str) -> str:
    """A region's ETag: its tournament, key and language and the state its
    source covers (`state.source_token`)."""
    return invalidation.etag(tournament_id, key.text, language, token)
