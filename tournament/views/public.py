from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django_tables2 import RequestConfig

from tournament import selectors
from tournament.models import Entry, Series, Tournament
from tournament.standings import ladies_rows, standings_rows, team_rows
from tournament.tables import StandingsTable


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


def series_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating of a released series, by table (for the wall and phones)."""
    series = get_object_or_404(
        Series.objects.select_related("tournament"),
        tournament__slug=slug,
        number=number,
    )
    if not series.is_public:
        raise Http404
    return render(
        request,
        "tournament/series_detail.html",
        {
            "tournament": series.tournament,
            "series": series,
            "tables": selectors.series_tables(series),
        },
    )


def where_do_i_sit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    query = request.GET.get("q", "")[:100]
    return render(
        request,
        "tournament/where.html",
        {
            "tournament": tournament,
            "query": query,
            "results": selectors.seat_search(tournament, query),
        },
    )


def _standings_context(
    request: HttpRequest, tournament: Tournament, rows: list
) -> dict:  # type: ignore[type-arg]
    query = request.GET.get("q", "")[:100].strip()
    if query:
        lowered = query.lower()
        rows = [
            r
            for r in rows
            if lowered in r.name.lower()
            or (query.isdigit() and r.start_number == int(query))
        ]
    player_url = reverse(
        "tournament:player", kwargs={"slug": tournament.slug, "number": 0}
    )[:-2]
    table = StandingsTable(rows, player_url=player_url)
    RequestConfig(request, paginate=False).configure(table)
    return {"tournament": tournament, "table": table, "query": query}


def standings(request: HttpRequest, slug: str, view: str = "overall") -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    rows = standings_rows(tournament)
    context: dict[str, object] = {"view": view}
    if view == "teams":
        context.update(tournament=tournament, teams=team_rows(tournament, rows))
    else:
        if view == "ladies":
            rows = ladies_rows(rows)
        context.update(_standings_context(request, tournament, rows))
    return render(request, "tournament/standings.html", context)


def series_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = get_object_or_404(
        Series.objects.select_related("tournament"),
        tournament__slug=slug,
        number=number,
    )
    if not series.is_public:
        raise Http404
    return render(
        request,
        "tournament/series_results.html",
        {
            "tournament": series.tournament,
            "series": series,
            "results": selectors.series_results(
                series, include_pending=series.tournament.show_provisional
            ),
            "games": range(1, series.tournament.games_per_series + 1),
        },
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
