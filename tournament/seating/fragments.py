"""The seating's live fragments: a series by table, "where do I sit?"
and the hall's list of names."""

from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournament.live import invalidation
from tournament.live.fragments import (
    Context,
    Fragment,
    Params,
    register,
    search,
    series_number,
)
from tournament.live.invalidation import Part
from tournament.models import Series, Tournament
from tournament.seating import selectors
from tournament.seating.selectors import current_series, public_series_or_404


def _said(series: Series | None) -> dict[str, str] | None:
    """What the last update changed, in a few words for the page's live
    region: the seats of the series (its version: said once a change)."""
    if series is None:
        return None
    return {
        "key": f"{series.pk}.{series.version}",
        "text": _("Serie %(n)d: Sitzplätze geändert.") % {"n": series.number},
    }


def seating_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    series = public_series_or_404(tournament, int(params["series"]))
    return {
        "tournament": tournament,
        "series": series,
        "tables": selectors.series_tables(series),
        "said": _said(series),
    }


def where_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    query = params.get("q", "")
    found = selectors.seat_search(tournament, query)
    current = current_series(tournament)
    return {
        "tournament": tournament,
        "query": query,
        "results": found["results"],
        "more": found["more"],
        # Whether a player without a seat was left out of a released series
        # (ask the desk) or nothing is released yet.
        "released": bool(found["results"]) and current is not None,
        "said": _said(current),
    }


def seating_names_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    """The current series for the hall: every player A–Z with table and
    seat, which is how people look for themselves on a wall."""
    series = current_series(tournament)
    seats = []
    if series is not None:
        seats = [
            seat
            for table in selectors.series_tables(series)
            for seat in table.seats.all()
        ]
        seats.sort(
            key=lambda s: (
                s.entry.player.last_name.lower(),
                s.entry.player.first_name.lower(),
                s.entry.start_number,
            )
        )
    return {
        "tournament": tournament,
        "series": series,
        "seats": seats,
        "said": _said(series),
    }


register(
    Fragment(
        "seating",
        "tournament/seating/partials/series_tables.html",
        seating_context,
        frozenset({Part.SEATING}),
        params={"series": series_number},
        required=("series",),
        source=invalidation.SEATING,
    )
)
register(
    Fragment(
        "where",
        "tournament/seating/partials/live_where.html",
        where_context,
        frozenset({Part.SEATING}),
        params={"q": search},
        source=invalidation.SEATING,
    )
)
register(
    Fragment(
        "seating-names",
        "tournament/seating/partials/live_seating_names.html",
        seating_names_context,
        frozenset({Part.SEATING}),
        source=invalidation.SEATING,
    )
)
