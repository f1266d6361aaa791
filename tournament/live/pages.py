"""Public pages over HTTP, rendered once per state.

Every anonymous visitor of a public page gets the same bytes, so a page is
rendered once per state of what it shows (the source its ETag follows, as
for the live fragments: `tournament.live.state`), language and address,
kept gzipped in the cache (shared by all workers with Redis) and served
from there, gzipped to a browser that takes it; a repeated GET is answered
304. Neither asks the database: the state is the one the cache remembers.

Nothing of one visitor may be in such a page: a signed-in user (his name,
his messages, forms with his CSRF token) always gets the page rendered for
him, as does a visitor with a message waiting; a page that turned out
personal all the same (it used a CSRF token, set a cookie, changed the
session) is served to its visitor but not kept. The language switch is a
link and large print is applied by a script, for this.
"""

import gzip
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date

from tournament.live import invalidation, state
from tournament.live.flight import single_flight
from tournament.live.fragments import Context, Region, fragment_key, region
from tournament.models import Tournament

# Kept pages live until their state changes (the key names it); a searched
# variant is not worth keeping long.
PAGE_TIMEOUT = 15 * 60
SEARCH_TIMEOUT = 60
# Once per page and state: a tenth of the bytes for the hall's Wi-Fi.
GZIP_LEVEL = 6

View = Callable[..., HttpResponse]

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class Kept:
    """A page as everybody gets it: its body gzipped, and its type."""

    body: bytes
    content_type: str


def public_page(
    source: str, *, params: Collection[str] = (), timeout: int = PAGE_TIMEOUT
) -> Callable[[View], View]:
    """A tournament's public page (a view taking `slug`), rendered once per
    state of `source` (`state.SOURCES` or "results"), language and address,
    and kept `timeout` seconds at most (a search SEARCH_TIMEOUT). `params`:
    the query parameters the page knows; an address with another one is
    rendered for its visitor alone (junk must not fill the cache)."""
    known_params = frozenset(params)

    def decorate(view: View) -> View:
        @wraps(view)
        def page(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            known = shareable(request, known_params) and state.known(slug, source)
            if not known:
                return view(request, slug, **kwargs)
            tag = invalidation.etag(
                known.tournament_id,
                known.token,
                translation.get_language(),
                request.get_host(),
                request.get_full_path(),
            )
            return serve_shared(
                request,
                tag,
                known.modified,
                lambda: view(request, slug, **kwargs),
                timeout=SEARCH_TIMEOUT if "q" in request.GET else timeout,
            )

        return page

    return decorate


def shareable(request: HttpRequest, params: Collection[str]) -> bool:
    """Whether `request` may get the page everybody gets: an anonymous GET
    with no message waiting and no query parameter but `params`."""
    if request.method not in ("GET", "HEAD"):
        return False
    if any(name not in params for name in request.GET):
        return False
    if request.user.is_authenticated:
        return False
    messages = getattr(request, "_messages", None)
    return messages is None or len(messages) == 0


def serve_shared(
    request: HttpRequest,
    tag: str,
    modified: float,
    build: Callable[[], HttpResponse],
    *,
    weak: bool = True,
    timeout: int = PAGE_TIMEOUT,
) -> HttpResponse:
    """Answer with the page of ETag `tag` (unquoted): 304 if the browser has
    it, else kept bytes, else what `build` renders (kept if it is the same
    for everybody). A strong ETag (`weak=False`) is weakened for gzip."""
    gzipped = bool(_ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
    header = f'W/"{tag}"' if weak or gzipped else f'"{tag}"'
    unchanged = get_conditional_response(
        request, etag=header, last_modified=int(modified)
    )
    if unchanged is not None:
        return set_validators(unchanged, header, modified)
    key = f"live-page:{tag}"
    kept: Kept | None = cache.get(key)
    if kept is None:
        # After a change, the phones asking at once: one renders.
        with single_flight(key):
            kept = cache.get(key)
            if kept is None:
                response = build()
                kept = _keepable(request, response)
                if kept is None:
                    return response
                cache.set(key, kept, timeout=timeout)
    if gzipped:
        response = HttpResponse(kept.body, content_type=kept.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(
            gzip.decompress(kept.body), content_type=kept.content_type
        )
    response["Content-Length"] = str(len(response.content))
    patch_vary_headers(response, ("Accept-Encoding",))
    return set_validators(response, header, modified)


def _keepable(request: HttpRequest, response: HttpResponse) -> Kept | None:
    """The response as everybody may get it, or None if it is not that."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    if response.has_header("Content-Encoding"):
        return None
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return None  # it holds a CSRF token (or the visitor needs a new one)
    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return None
    body = gzip.compress(response.content, compresslevel=GZIP_LEVEL, mtime=0)
    return Kept(body, response["Content-Type"])


def render_live_page(
    request: HttpRequest, template: str, context: Context, page_region: Region
) -> HttpResponse:
    """Render a public page around its live region. An anonymous visitor
    gets it through `public_page`; no browser keeps it without asking."""
    response = render(request, template, {**context, "live": page_region})
    patch_cache_control(response, no_cache=True, private=True)
    return response


def set_validators(response: HttpResponse, tag: str, modified: float) -> HttpResponse:
    """The headers of conditional GET: the ETag, the Last-Modified date, and
    no caching without asking."""
    response["ETag"] = tag
    response["Last-Modified"] = http_date(modified)
    patch_cache_control(response, no_cache=True, private=True)
    return response


def region_or_404(tournament: Tournament, name: str, params: dict[str, str]) -> Region:
    """A page's live region: fragment `name` with the request's parameters
    (invalid ones dropped); 404 for a missing required parameter."""
    key = fragment_key(name, params)
    if key is None:
        raise Http404
    return region(tournament, key)
