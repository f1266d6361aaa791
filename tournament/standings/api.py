"""Read-only JSON API (documented in docs/OPERATING.md). Public data only:
the same rows as the pages, never anything unconfirmed or unreleased."""

import json

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from tournament.core.lookup import with_tournament
from tournament.live import invalidation
from tournament.live.pages import public_page
from tournament.models import Entry, Tournament
from tournament.registration import selectors as registration_selectors
from tournament.results import selectors as results_selectors
from tournament.seating import selectors as seating_selectors
from tournament.standings import selectors
from tournament.standings.selectors import cache_key


def _category_word(value: str) -> str | None:
    """A category's address word for any name of it ("Senioren", "seniors");
    None for anything else, which is then the overall page, as every kept
    page treats a value it does not know."""
    category = selectors.category_named(value)
    return None if category is None else category.word


@require_GET
@public_page(invalidation.Source.STANDINGS, params={"category": _category_word})
@with_tournament
def standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The overall standings; `?category=damen` (or `ladies`; `senioren`,
    `jugend`): that category's ranking, its own places in `rank` and the
    overall place in `overall_rank`. Any other value: the overall standings."""
    asked = request.GET.get("category", "")
    category = selectors.category_named(asked) if asked else None
    key = cache_key(tournament, f"json:{category.value}" if category else "json")
    body = cache.get(key)
    if body is None:
        current = selectors.standings(tournament, cached=False)
        count, played = tournament.series_count, selectors.played_series(tournament)

        def row(r: selectors.Row) -> dict[str, object]:
            return r.as_api(selectors.series_cells(r, count, played))

        if category is None:
            rows = [row(r) for r in current.rows]
        else:
            rows = [
                {**row(r), "overall_rank": r.overall_rank}
                for r in selectors.category_standings(current.rows, category.value)
            ]
        body = json.dumps(
            {
                # The players with a confirmed result, best first (one who
                # never played has no place: he is not in the standings);
                # a series a player has not played is null.
                "rows": rows,
                # Added after "rows" (a reader of only "rows" sees no change):
                # where the day stands.
                "state": current.state.as_api(),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()
        cache.set(key, body, timeout=3600)
    return HttpResponse(body, content_type="application/json")


@require_GET
@public_page(invalidation.SEATING)
@with_tournament
def series_list(request: HttpRequest, tournament: Tournament) -> JsonResponse:
    return JsonResponse(
        {
            "series": [
                {"number": s.number, "status": s.status, "tables": s.table_count}
                for s in seating_selectors.series_public(tournament)
            ]
        }
    )


@require_GET
@public_page(invalidation.CONFIRMED)
@with_tournament
def series_tables(
    request: HttpRequest, tournament: Tournament, number: int
) -> JsonResponse:
    series = seating_selectors.public_series_or_404(tournament, number)
    tables = []
    for item in results_selectors.series_results(series, include_pending=False):
        table = item["table"]
        tables.append(
            {
                "table": table.number,
                "size": table.size,
                "confirmed": item["version"] is not None,
                "players": [
                    {
                        "seat": p["seat"].number,
                        "start_number": p["seat"].entry.start_number,
                        "name": p["seat"].entry.player.full_name,
                        "points": p["points"],
                    }
                    for p in item["players"]
                ],
            }
        )
    return JsonResponse({"series": series.number, "tables": tables})


@require_GET
@public_page(invalidation.CONFIRMED)
@with_tournament
def players(request: HttpRequest, tournament: Tournament) -> JsonResponse:
    return JsonResponse(
        {
            "players": [
                {
                    "start_number": e.start_number,
                    "name": e.player.full_name,
                    "club": e.player.club,
                    "category": e.player.category,
                    "withdrawn": e.withdrawn_at is not None,
                }
                for e in registration_selectors.entries_for(tournament)
            ]
        }
    )


@require_GET
@public_page(invalidation.CONFIRMED)
@with_tournament
def player(request: HttpRequest, tournament: Tournament, number: int) -> JsonResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        tournament=tournament,
        start_number=number,
    )
    current = selectors.standings(tournament)
    row = next(
        (r for r in current.rows + current.unranked() if r.entry_id == entry.pk), None
    )
    return JsonResponse(
        {
            "start_number": entry.start_number,
            "name": entry.player.full_name,
            "club": entry.player.club,
            "standing": row.as_api() if row else None,
            "series": [
                {
                    "series": item["seat"].series.number,
                    "table": item["seat"].table.number,
                    "seat": item["seat"].number,
                    "opponents": [o.entry.start_number for o in item["opponents"]],
                    "points": item["points"],
                }
                for item in selectors.player_tables(entry)
            ],
        }
    )
