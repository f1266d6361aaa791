"""Public pages. The live ones (standings, seating, results, "where do I
sit?") print a live region (`tournament/views/live.py`) and answer a
repeated GET with 304 while nothing changed."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament import selectors
from tournament.models import Entry, Tournament
from tournament.standings import standings_rows
from tournament.views.live import Region, fragment_key, region, render_live_page


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/home.html",
        {"tournaments": selectors.tournaments_public()},
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "tournament/tournament_detail.html",
        {
            "tournament": tournament,
            "counts": selectors.entry_counts(tournament),
            "series_list": selectors.series_public(tournament),
        },
    )


def _region(tournament: Tournament, name: str, params: dict[str, str]) -> Region:
    key = fragment_key(name, params)
    if key is None:
        raise Http404
    return region(tournament, key)


def series_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating of a released series, by table (for the wall and phones)."""
    series = selectors.public_series_or_404(slug, number)
    tournament = series.tournament
    return render_live_page(
        request,
        "tournament/series_detail.html",
        {"tournament": tournament, "series": series},
        _region(tournament, "seating", {"series": str(number)}),
    )


def where_do_i_sit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    page_region = _region(tournament, "where", {"q": request.GET.get("q", "")})
    return render_live_page(
        request,
        "tournament/where.html",
        {"tournament": tournament, "query": page_region.key.params.get("q", "")},
        page_region,
    )


def standings(request: HttpRequest, slug: str, view: str = "overall") -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    page_region = _region(
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
        "tournament/standings.html",
        {
            "tournament": tournament,
            "view": view,
            "query": page_region.key.params.get("q", ""),
        },
        page_region,
    )


def series_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = selectors.public_series_or_404(slug, number)
    tournament = series.tournament
    return render_live_page(
        request,
        "tournament/series_results.html",
        {"tournament": tournament, "series": series},
        _region(tournament, "results", {"series": str(number)}),
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
        "tournament/player_detail.html",
        {
            "tournament": tournament,
            "entry": entry,
            "row": row,
            "series_rows": selectors.player_tables(entry),
        },
    )
