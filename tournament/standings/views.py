"""The standings pages (overall, ladies, teams) and a player's page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament.live.pages import region_or_404, render_live_page
from tournament.models import Entry, Tournament
from tournament.standings import selectors
from tournament.standings.selectors import standings_rows


def standings(request: HttpRequest, slug: str, view: str = "overall") -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    page_region = region_or_404(
        tournament,
        "standings",
        {
            "view": view,
            "sort": request.GET.get("sort", ""),
            "q": request.GET.get("q", ""),
        },
    )
    return render_live_page(
        request,
        "tournament/standings/standings.html",
        {
            "tournament": tournament,
            "view": view,
            "query": page_region.key.params.get("q", ""),
        },
        page_region,
    )


def player_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    entry = get_object_or_404(
        Entry.objects.select_related("player", "team"),
        tournament=tournament,
        start_number=number,
    )
    row = next((r for r in standings_rows(tournament) if r.entry_id == entry.pk), None)
    return render(
        request,
        "tournament/standings/player_detail.html",
        {
            "tournament": tournament,
            "entry": entry,
            "row": row,
            "series_rows": selectors.player_tables(entry),
        },
    )
