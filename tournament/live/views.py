"""The live views: a fragment alone (the poll while a page's socket is
down) and the projector."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag

from tournament.core.lookup import tournament_or_404, with_tournament
from tournament.core.ratelimit import (
    link_missed,
    link_not_found,
    personal_link_limited,
    wants_json,
)
from tournament.core.roles import may_referee
from tournament.live import invalidation
from tournament.live.fragments import (
    FRAGMENTS,
    LINK_GONE_TEMPLATE,
    FragmentKey,
    Region,
    fragment_key,
    link_valid,
    region,
)
from tournament.live.pages import (
    Sharing,
    public_page,
    serve_public,
    set_validators,
)
from tournament.models import Tournament

# The poll's answer for a region behind a personal link that is gone: the
# page's script shows the note (`fragments.LINK_GONE_TEMPLATE`) and stops.
GONE_HEADER = "X-Live-Gone"


def live_fragment(request: HttpRequest, slug: str, name: str) -> HttpResponseBase:
    """A fragment alone, for the page's poll while its socket is down. The
    public ones are served as public pages are (`serve_public`), under the
    region's own ETag, so a page's poll is answered 304 without a query; a
    player's own as his page is (`_personal`)."""
    fragment = FRAGMENTS.get(name)
    if fragment is not None and fragment.personal is not None:
        return _personal(request, slug, name)
    key = fragment_key(name, request.GET.dict())
    if key is None:
        raise Http404
    sharing = _key_sharing(key)
    if sharing is not None:
        return serve_public(request, slug, sharing, lambda: _fragment(slug, key))
    tournament = tournament_or_404(slug)
    if key.fragment.staff and not may_referee(request.user, tournament):
        raise Http404
    return _conditional(request, region(tournament, key))


@personal_link_limited
def _personal(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    """A fragment behind a personal link (a player's own page), as his page
    is answered: never kept for everybody, and a link that is wrong or was
    replaced is counted (`core.ratelimit`) and gets only the note that it
    is gone (marked GONE_HEADER for the page's script)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    key = fragment_key(name, request.GET.dict())
    if tournament is None or key is None or not link_valid(tournament, key):
        link_missed(request)
        if wants_json(request):
            return link_not_found(request)
        response = render(request, LINK_GONE_TEMPLATE, status=404)
        response[GONE_HEADER] = "1"
        patch_cache_control(response, private=True, no_store=True)
        return response
    response = _conditional(request, region(tournament, key))
    # His alone: no cache between him and us keeps it (the page's script
    # asks with the ETag it shows).
    patch_cache_control(response, no_store=True)
    return response


def _conditional(request: HttpRequest, page_region: Region) -> HttpResponse:
    """A region for its visitor alone: 304 if his browser has it."""
    tag = quote_etag(page_region.etag)
    unchanged = get_conditional_response(
        request, etag=tag, last_modified=int(page_region.modified)
    )
    if unchanged is not None:
        return set_validators(unchanged, tag, page_region.modified)
    return set_validators(HttpResponse(page_region.html), tag, page_region.modified)


def _fragment_sharing(request: HttpRequest, kwargs: dict[str, Any]) -> Sharing | None:
    """A public fragment is shared like a page (`pages.Sharing`): its
    source, its parameters, its region's ETag. One with a token of its own
    (a season ranking over several tournaments) follows more than its
    source's state: each request asks its region; one behind a personal
    link is its player's alone."""
    key = fragment_key(str(kwargs.get("name", "")), request.GET.dict())
    return None if key is None else _key_sharing(key)


def _key_sharing(key: FragmentKey) -> Sharing | None:
    fragment = key.fragment
    if fragment.staff or fragment.token is not None or fragment.personal is not None:
        return None
    return Sharing(key.fragment.source, dict(key.fragment.params), fragment=key)


live_fragment.sharing = _fragment_sharing  # type: ignore[attr-defined]


def _fragment(slug: str, key: FragmentKey) -> HttpResponse:
    return HttpResponse(region(tournament_or_404(slug), key).html)


def _speed(value: str) -> str | None:
    """Pixels per second the projector scrolls (static/js/projector.js)."""
    ok = value.isdecimal() and len(value) <= 3 and 1 <= int(value) <= 500
    return str(int(value)) if ok else None


# A beamer may keep one slide (?slide=seating), scroll at its own speed
# (?speed=N) and take large print (?schrift=gross): its scripts read them.
# Kept a minute at most: its clock, filled on the server, stays right.
@public_page(
    invalidation.CONFIRMED,
    params={
        "slide": ("standings", "seating", "progress"),
        "speed": _speed,
        "schrift": ("gross", "normal"),
    },
    timeout=60,
)
@with_tournament
def projector(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """For the hall's beamer: standings (and each category's ranking the
    standings offer as slides), the seating of the released series and the
    progress of the current one, in turn, in large type."""
    regions = {
        name.replace("-", "_"): region(tournament, FragmentKey(FRAGMENTS[name], {}))
        for name in ("standings", "seating-names", "progress-public")
    }
    return render(
        request,
        "tournament/live/projector.html",
        {
            "tournament": tournament,
            "regions": regions,
            "standings_slides": _slides(tournament, "standings"),
        },
    )


def _slides(tournament: Tournament, name: str) -> list[dict[str, Any]]:
    """The further slides of fragment `name` (`Fragment.slides`), each with
    its live region, kept current as every region is."""
    fragment = FRAGMENTS[name]
    out = []
    for slide in fragment.slides(tournament) if fragment.slides else []:
        key = fragment_key(name, slide.params)
        if key is not None:
            out.append({"slide": slide, "live": region(tournament, key)})
    return out
