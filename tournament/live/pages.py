"""Live pages over HTTP: a page printed around its live region answers
a repeated GET with 304 while nothing changed."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date

from tournament.live import invalidation
from tournament.live.fragments import Context, Region, fragment_key, region
from tournament.models import Tournament


def render_live_page(
    request: HttpRequest, template: str, context: Context, page_region: Region
) -> HttpResponse:
    """Render a public page around its live region, answering a repeated
    GET with 304 while nothing changed. Pages of signed-in users carry their
    name and messages, so they are never answered from the client's cache."""
    page_tag = None
    if not request.user.is_authenticated:
        tag = invalidation.etag(
            page_region.etag, page_region.language, request.get_full_path()
        )
        page_tag = f'W/"{tag}"'
        unchanged = get_conditional_response(
            request, etag=page_tag, last_modified=int(page_region.modified)
        )
        if unchanged is not None:
            return set_validators(unchanged, page_tag, page_region.modified)
    response = render(request, template, {**context, "live": page_region})
    if page_tag is not None:
        set_validators(response, page_tag, page_region.modified)
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
