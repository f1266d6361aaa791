"""A season ranking's live fragment: its context, for page, poll and push.

The region hangs on one tournament of the ranking (the page takes the
newest), whose socket pushes it when that tournament's standings change;
its ETag also follows every other tournament of the ranking
(`ranking_token`), so a poll finds a correction made anywhere."""

from django.http import Http404, HttpRequest

from tournament.history.ranking import ranking_table, ranking_token
from tournament.live.fragments import Context, Fragment, Params, register
from tournament.live.invalidation import Part, Source
from tournament.models import Ranking, Tournament


def _slug(value: str) -> str | None:
    ok = 0 < len(value) <= 80 and all(c.isalnum() or c in "-_" for c in value)
    return value if ok and value.isascii() else None


def ranking_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    ranking = Ranking.objects.filter(
        slug=params["wertung"], tournaments=tournament
    ).first()
    if ranking is None:
        raise Http404
    return {"table": ranking_table(ranking)}


register(
    Fragment(
        "ranking",
        "tournament/history/partials/ranking_table.html",
        ranking_context,
        frozenset({Part.STANDINGS}),
        params={"wertung": _slug},
        required=("wertung",),
        source=Source.STANDINGS,
        token=lambda tournament, params: ranking_token(params["wertung"]),
    )
)
