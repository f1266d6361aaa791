"""The standings' live fragment: its context, for page, poll and push."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from tournament.live.fragments import (
    Context,
    Fragment,
    Params,
    Slide,
    choice,
    register,
    search,
)
from tournament.live.invalidation import Part, Source
from tournament.models import Tournament
from tournament.registration.selectors import PlayerQuery
from tournament.results.selectors import last_confirmed
from tournament.standings.selectors import (
    Row,
    categories,
    categories_with_players,
    category_named,
    category_standings,
    standings,
    team_rows,
)
from tournament.standings.tables import StandingsTable


def _found(rows: list[Row], query: PlayerQuery | None) -> list[Row]:
    if query is None:
        return rows
    return [r for r in rows if query.matches(r.start_number, (r.name, r.club))]


def _said(tournament: Tournament, rows: list[Row]) -> dict[str, str] | None:
    """What the last update changed, in a few words for the page's live
    region: the table confirmed last and its best-placed player's place in
    the ranking shown (`rows`)."""
    last = last_confirmed(tournament)
    if last is None:
        return None
    at_table = [r for r in rows if r.entry_id in last.entry_ids and r.rank]
    best = min(at_table, key=lambda r: r.rank, default=None)
    text = last.text(name=best.name, rank=best.rank) if best else last.text()
    return {"key": last.key, "text": text}


def standings_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    view = params.get("view", "overall")
    current = standings(tournament)
    context: Context = {
        "tournament": tournament,
        "view": view,
        "state": current.state,
    }
    if view == "teams":
        return {
            **context,
            "teams": team_rows(tournament, current.rows),
            "said": _said(tournament, []),
        }
    rows, waiting = current.rows, current.waiting
    category = view if view != "overall" else None
    if category is not None:
        rows = category_standings(rows, category)
        waiting = [r for r in waiting if r.category == category]
    query = params.get("q", "")
    # The same search as everywhere: umlauts, case, start numbers.
    search_for = PlayerQuery.parse(query) if query else None
    if query:
        rows, waiting = _found(rows, search_for), _found(waiting, search_for)
    player_url = reverse(
        "tournament:player", kwargs={"slug": tournament.slug, "number": 0}
    )[:-2]
    table = StandingsTable(
        rows, waiting=waiting, player_url=player_url, overall=category is not None
    )
    named = category_named(category) if category is not None else None
    RequestConfig(request, paginate=False).configure(table)
    return {
        **context,
        "table": table,
        # The table's caption, as the page's heading says it.
        "caption": named.title if named is not None else _("Gesamtwertung"),
        "query": query,
        "nobody": bool(query) and not rows and not waiting,
        "said": _said(tournament, rows),
    }


def category_slides(tournament: Tournament) -> list[Slide]:
    """The projector's slide of each category's ranking, beside the overall
    one: only for the categories the tournament has players of."""
    return [
        Slide(f"standings-{c.value}", c.title, {"view": c.value})
        for c in categories_with_players(tournament)
    ]


_SORTABLE = ("rank", "start_number", "name", "club", "games_won", "points")

register(
    Fragment(
        "standings",
        "tournament/standings/partials/live_standings.html",
        standings_context,
        frozenset({Part.STANDINGS}),
        params={
            # overall, a category's ranking (by its stored value), teams
            "view": choice("overall", *(c.value for c in categories()), "teams"),
            "sort": choice(*_SORTABLE, *(f"-{c}" for c in _SORTABLE)),
            "q": search,
        },
        defaults={"view": "overall"},
        source=Source.STANDINGS,
        slides=category_slides,
    )
)
