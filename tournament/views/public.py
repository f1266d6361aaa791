from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament import selectors
from tournament.models import Tournament


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
        {"tournament": tournament, "counts": selectors.entry_counts(tournament)},
    )
