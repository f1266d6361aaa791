"""Public pages over HTTP, rendered once per state.

Every anonymous visitor of a public page gets the same bytes, so a page is
rendered once per state of what it shows (the source its ETag follows, as
for the live fragments: `tournament.live.state`), language and address,
kept gzipped in the cache (shared by all workers with Redis, rendered once
across them) and served from there, gzipped to a browser that takes it; a
repeated GET is answered 304. Neither asks the database: the state is the
one the cache remembers. Once kept, a page is answered before Django
(`tournament.live.edge`); this module serves it through Django until then,
and to visitors the edge leaves to Django (a session cookie).

Nothing of one visitor may be in such a page: a signed-in user (his name,
his messages, forms with his CSRF token) always gets the page rendered for
him, as does a visitor with a message waiting; a page that turned out
personal all the same (it used a CSRF token, set a cookie, changed the
session) is served to its visitor but not kept. The language switch is a
link and large print is applied by a script, for this.

A page is kept under what it shows and nothing else a visitor can vary:
the host without its port, the path as the site writes it (another
spelling, `/serie/01/`, is sent there), and of the query only the declared
parameters with an allowed value, as the page reads them; the view sees
just those (any other value shows the default page). However many
searches there are, at most MAX_VARIANTS variants of a page beside its
default are kept per state, so junk cannot push the real pages out.
"""

import gzip
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    QueryDict,
)
from django.http.request import split_domain_port
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date

from tournament.core import lookup, serving
from tournament.live import cached, invalidation, state
from tournament.live.flight import made_elsewhere, single_flight
from tournament.live.fragments import (
    FRAGMENTS,
    Check,
    Context,
    FragmentKey,
    Region,
    choice,
    fragment_key,
    may_keep_variant,
    region,
    region_etag,
)
from tournament.live.invalidation import Source
from tournament.models import Tournament

# Kept pages live until their state changes (the key names it); a searched
# variant is not worth keeping long.
PAGE_TIMEOUT = 15 * 60
SEARCH_TIMEOUT = 60
# Once per page and state: a tenth of the bytes for the hall's Wi-Fi.
GZIP_LEVEL = 6

View = Callable[..., HttpResponse]

# A request that came through the edge (`tournament.live.edge`) carries this
# in its ASGI scope; its shared page answers with the kept page's ETag in
# this header, which the edge removes.
EDGE_SCOPE_KEY = "siebenschraem.edge"
EDGE_HEADER = "X-Kept-Page"

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class Kept:
    """A page as everybody gets it: its body gzipped, and its type."""

    body: bytes
    content_type: str


@dataclass(frozen=True)
class Sharing:
    """How a view's page is shared by every anonymous visitor: the state
    its ETag follows (`source`), the query parameters it shows with the
    check of their values (`fragments.choice`, `fragments.search`; None:
    values not declared, so a request with it is its visitor's alone) and
    how long it is kept at most. A polled fragment (`fragment`) keeps its
    region's own ETag, strong but for gzip."""

    source: Source
    params: Mapping[str, Check | None]
    timeout: int = PAGE_TIMEOUT
    fragment: FragmentKey | None = None

    def query(self, request: HttpRequest) -> dict[str, str] | None:
        """What the page shows of `request`'s query: each declared
        parameter with an allowed value, as the check gives it (a value
        not allowed, or a parameter not declared, is not shown: the
        default page); None if a parameter's values are not declared."""
        shown: dict[str, str] = {}
        for name in sorted(self.params):
            if name not in request.GET:
                continue
            check = self.params[name]
            if check is None:
                return None
            value = check(str(request.GET[name]))
            if value is not None:
                shown[name] = value
        return shown

    def tag(
        self,
        request: HttpRequest,
        known: state.Known,
        language: str,
        query: Mapping[str, str],
    ) -> str:
        """The ETag (unquoted) of the page `request` asks for in `language`
        while its state is `known`, showing `query` (`Sharing.query`): its
        host without the port, its path, the query as shown."""
        if self.fragment is not None:
            tournament_id, token = known.tournament_id, known.token
            return region_etag(tournament_id, self.fragment, language, token)
        host, _port = split_domain_port(request.get_host())
        return invalidation.etag(
            known.tournament_id,
            known.token,
            language,
            host,
            request.path,
            urlencode(query),
        )

    def header(self, tag: str, gzipped: bool) -> str:
        """The ETag header: weak for a page (its bytes differ by encoding)."""
        return f'"{tag}"' if self.fragment is not None and not gzipped else f'W/"{tag}"'

    def keep_for(self, request: HttpRequest) -> int:
        return SEARCH_TIMEOUT if "q" in request.GET else self.timeout

    def variants(self, known: state.Known, request: HttpRequest) -> str:
        """The name the variants of this page in this state are counted
        under (`fragments.may_keep_variant`)."""
        page = self.fragment.fragment.name if self.fragment else request.path
        return invalidation.etag(known.tournament_id, known.token, page)


def sharing_of(
    view: Callable[..., Any], request: HttpRequest, kwargs: dict[str, Any]
) -> Sharing | None:
    """How the page of `view` (with its URL's `kwargs`) is shared, or None
    for a page of its visitor alone. A view tells by a `sharing` attribute:
    a Sharing, or a function of the request and kwargs giving one."""
    sharing = getattr(view, "sharing", None)
    if callable(sharing):
        sharing = sharing(request, kwargs)
    return sharing if isinstance(sharing, Sharing) else None


Allowed = Check | Collection[str] | None


def public_page(
    source: Source,
    *,
    params: Mapping[str, Allowed] | Collection[str] = (),
    timeout: int = PAGE_TIMEOUT,
) -> Callable[[View], View]:
    """A tournament's public page (a view taking `slug`), rendered once per
    state of `source` (`invalidation.Source`), language and address,
    and kept `timeout` seconds at most (a search SEARCH_TIMEOUT). `params`:
    the query parameters it shows, each with its allowed values (a check
    as `fragments.search`, or the values themselves); the view sees only
    those, and a value not allowed is the default page. A parameter named
    without values (a plain list of names) is never kept."""
    if isinstance(params, Mapping):
        checks = {name: _check_of(allowed) for name, allowed in params.items()}
    else:
        checks = dict.fromkeys(params)
    # `Source(source)`: a page following an unknown source fails when its
    # module is imported, not on its first visit.
    sharing = Sharing(Source(source), checks, timeout)

    def decorate(view: View) -> View:
        @wraps(view)
        def page(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                canonical = _canonical_path(request)
                if canonical != request.path:
                    query = request.META.get("QUERY_STRING", "")
                    return HttpResponsePermanentRedirect(
                        f"{canonical}?{query}" if query else canonical
                    )
            query = sharing.query(request)
            if query is not None:
                _show_only(request, query)
            return serve_public(
                request, slug, sharing, lambda: view(request, slug, **kwargs)
            )

        page.sharing = sharing  # type: ignore[attr-defined]
        return page

    return decorate


def fragment_params(name: str, *params: str) -> dict[str, Check]:
    """The checks of `params` of the live fragment `name`, for a page that
    hands them on to its region: the page shows what the region shows.
    Looked up when a request comes (fragments register when the app is
    ready)."""

    def check_of(param: str) -> Check:
        return lambda value: FRAGMENTS[name].params[param](value)

    return {param: check_of(param) for param in params}


def _check_of(allowed: Allowed) -> Check | None:
    if allowed is None or callable(allowed):
        return allowed
    if isinstance(allowed, str):
        raise TypeError(f"allowed values of a parameter, not one string: {allowed!r}")
    return choice(*allowed)


def _canonical_path(request: HttpRequest) -> str:
    """The path of the page `request` resolved to, as the site writes it
    (`/serie/1/` for `/serie/01/`); the request's own if unknown."""
    match = request.resolver_match
    if match is None or not match.view_name:
        return request.path
    # The URL's own arguments, without those its pattern adds (Django 4.1+).
    captured: dict[str, Any] = getattr(match, "captured_kwargs", match.kwargs)
    try:
        return reverse(match.view_name, args=match.args, kwargs=captured)
    except NoReverseMatch:
        return request.path


def _show_only(request: HttpRequest, query: Mapping[str, str]) -> None:
    """Let the view (and the page's links to its own address) see only
    `query`: what the kept page is keyed under is all it can show."""
    text = urlencode(query)
    request.GET = QueryDict(text)
    request.META["QUERY_STRING"] = text


def serve_public(
    request: HttpRequest,
    slug: str,
    sharing: Sharing,
    build: Callable[[], HttpResponse],
) -> HttpResponse:
    """The page everybody gets (`serve_shared`) if `request` may get it,
    else what `build` renders for its visitor alone."""
    query = sharing.query(request)
    if query is None or not shareable(request, sharing.params):
        return build()
    known = state.known(
        slug, sharing.source, loaded=lambda row: lookup.keep(request, row)
    )
    if not known:
        return build()
    language = translation.get_language() or settings.LANGUAGE_CODE
    tag = sharing.tag(request, known, language, query)
    if not serving.on("pages"):
        # Off: the baseline, Django's conditional GET and cache framework.
        header = sharing.header(tag, accepts_gzip(request))
        return cached.serve(
            request,
            etag=header,
            modified=known.modified,
            timeout=sharing.keep_for(request),
            build=build,
            shared=everybodys,
        )
    variants = sharing.variants(known, request) if query else None
    return serve_shared(request, sharing, tag, known.modified, build, variants)


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


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(_ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))


def page_key(tag: str) -> str:
    return f"live-page:{tag}"


def serve_shared(
    request: HttpRequest,
    sharing: Sharing,
    tag: str,
    modified: float,
    build: Callable[[], HttpResponse],
    variants: str | None = None,
) -> HttpResponse:
    """Answer with the page of ETag `tag` (unquoted): 304 if the browser has
    it, else kept bytes, else what `build` renders (kept if it is the same
    for everybody and, for a variant of a page counted under `variants`,
    if there is room for one more: `fragments.may_keep_variant`)."""
    gzipped = accepts_gzip(request)
    header = sharing.header(tag, gzipped)
    unchanged = get_conditional_response(
        request, etag=header, last_modified=int(modified)
    )
    if unchanged is not None:
        return _marked(request, set_validators(unchanged, header, modified), tag)
    key = page_key(tag)
    kept: Kept | None = cache.get(key)
    if kept is None:
        # After a change, the phones asking at once: one renders, in this
        # process and (with Redis) in all of them.
        with single_flight(key):
            kept = cache.get(key) or made_elsewhere(key)
            if kept is None:
                try:
                    response = build()
                    kept = _keepable(request, response)
                    timeout = sharing.keep_for(request)
                    if kept is None or (
                        variants is not None and not may_keep_variant(variants, timeout)
                    ):
                        return response
                    cache.set(key, kept, timeout=timeout)
                finally:
                    cache.delete(f"{key}:making")
    if gzipped:
        response = HttpResponse(kept.body, content_type=kept.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(
            gzip.decompress(kept.body), content_type=kept.content_type
        )
    response["Content-Length"] = str(len(response.content))
    patch_vary_headers(response, ("Accept-Encoding",))
    return _marked(request, set_validators(response, header, modified), tag)


def _marked(request: HttpRequest, response: HttpResponse, tag: str) -> HttpResponse:
    """Tell the edge (`tournament.live.edge`), if it asked, which kept page
    this is: it keeps the headers the middleware adds, to serve the page
    itself from then on."""
    scope = getattr(request, "scope", None)
    if isinstance(scope, dict) and scope.get(EDGE_SCOPE_KEY):
        response[EDGE_HEADER] = tag
    return response


def _keepable(request: HttpRequest, response: HttpResponse) -> Kept | None:
    """The response as everybody may get it, or None if it is not that."""
    if not everybodys(request, response):
        return None
    body = gzip.compress(response.content, compresslevel=GZIP_LEVEL, mtime=0)
    return Kept(body, response["Content-Type"])


def everybodys(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether `response` to `request` is the same for everybody: a page
    that used its visitor's CSRF token, set a cookie or changed his session
    is his alone."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    if response.has_header("Content-Encoding"):
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return False  # it holds a CSRF token (or the visitor needs a new one)
    session = getattr(request, "session", None)
    return session is None or not session.modified


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
