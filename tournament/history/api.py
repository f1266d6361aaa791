"""The history's read-only JSON API (documented in docs/OPERATING.md):
persons, champions, season rankings. Public data only: confirmed results."""

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from tournament.history import selectors
from tournament.models import Person, Ranking


@require_GET
def persons(request: HttpRequest) -> JsonResponse:
    """`?q=TEXT`: the persons whose name or club has every word."""
    found = selectors.persons_found(request.GET.get("q", "")[:100])
    return JsonResponse(
        {
            "persons": [
                {
                    "id": s.person.pk,
                    "name": s.person.full_name,
                    "club": s.person.club,
                    "tournaments": s.tournaments,
                }
                for s in found
            ]
        }
    )


@require_GET
def person(request: HttpRequest, pk: int) -> JsonResponse:
    history = selectors.person_history(get_object_or_404(Person, pk=pk))
    return JsonResponse(
        {
            "id": history.person.pk,
            "name": history.person.full_name,
            "club": history.person.club,
            "tournaments": [
                {
                    "slug": r.tournament.slug,
                    "name": r.tournament.name,
                    "date": r.tournament.date.isoformat(),
                    "rank": r.rank,
                    "points": r.points,
                    "finished": r.finished,
                }
                for r in history.results
            ],
        }
    )


@require_GET
def champions(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {
            "champions": [
                {
                    "year": c.year,
                    "name": c.name,
                    "club": c.club,
                    "points": c.points,
                    "slug": c.slug,
                }
                for c in selectors.champions_page().champions
            ]
        }
    )


@require_GET
def ranking(request: HttpRequest, slug: str) -> JsonResponse:
    table = selectors.ranking_table(get_object_or_404(Ranking, slug=slug))
    return JsonResponse({"rows": [row.as_api() for row in table.rows]})
