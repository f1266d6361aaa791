"""The standings' live fragment: its context, for page, poll and push."""

from django.http import HttpRequest
from django.urls import reverse
from django_tables2 import RequestConfig

from tournament.live.fragments import (
    Context,
    Fragment,
    Params,
    choice,
    register,
    search,
)
from tournament.models import Tournament
from tournament.standings.selectors import ladies_rows, standings_rows, team_rows
from tournament.standings.tables import StandingsTable


def standings_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    view = params.get("view", "overall")
    rows = standings_rows(tournament)
    if view == "teams":
        return {
            "tournament": tournament,
            "view": view,
            "teams": team_rows(tournament, rows),
        }
    if view == "ladies":
        rows = ladies_rows(rows)
    query = params.get("q", "")
    if query:
        lowered = query.lower()
        rows = [
            r
            for r in rows
            if lowered in r.name.lower()
            or (query.isdecimal() and r.start_number == int(query))
        ]
    player_url = reverse(
        "tournament:player", kwargs={"slug": tournament.slug, "number": 0}
    )[:-2]
    table = StandingsTable(rows, player_url=player_url)
    RequestConfig(request, paginate=False).configure(table)
    return {"tournament": tournament, "view": view, "table": table, "query": query}


_SORTABLE = ("rank", "start_number", "name", "club", "games_won", "points")

register(
    Fragment(
        "standings",
        "tournament/standings/partials/live_standings.html",
        standings_context,
        frozenset({"standings"}),
        params={
            "view": choice("overall", "ladies", "teams"),
            "sort": choice(*_SORTABLE, *(f"-{c}" for c in _SORTABLE)),
            "q": search,
        },
        defaults={"view": "overall"},
        source="standings",
    )
)
