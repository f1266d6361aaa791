"""The live views: a fragment alone (the poll while a page's socket is
down) and the projector."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag

from tournament.core.roles import may_referee
from tournament.live.fragments import FRAGMENTS, FragmentKey, fragment_key, region
from tournament.live.pages import set_validators
from tournament.models import Tournament


def live_fragment(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    """A fragment alone, for the page's poll while its socket is down."""
    tournament = get_object_or_404(Tournament, slug=slug)
    key = fragment_key(name, request.GET.dict())
    if key is None:
        raise Http404
    if key.fragment.staff and not may_referee(request.user, tournament):
        raise Http404
    page_region = region(tournament, key)
    tag = quote_etag(page_region.etag)
    unchanged = get_conditional_response(
        request, etag=tag, last_modified=int(page_region.modified)
    )
    if unchanged is not None:
        return set_validators(unchanged, tag, page_region.modified)
    return set_validators(HttpResponse(page_region.html), tag, page_region.modified)


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """For the hall's beamer: standings, the seating of the released series
    and the progress of the current one, in turn, in large type."""
    tournament = get_object_or_404(Tournament, slug=slug)
    regions = {
        name.replace("-", "_"): region(tournament, FragmentKey(FRAGMENTS[name], {}))
        for name in ("standings", "seating-names", "progress-public")
    }
    return render(
        request,
        "tournament/live/projector.html",
        {"tournament": tournament, "regions": regions},
    )
