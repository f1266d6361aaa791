"""The results' live fragments: a series' score grids and the progress
of the tables (referees' and public)."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext

from tournament.live import invalidation
from tournament.live.fragments import (
    Context,
    Fragment,
    Params,
    register,
    series_number,
)
from tournament.live.invalidation import Part, Source
from tournament.models import Tournament
from tournament.results import selectors
from tournament.seating.selectors import current_series, public_series_or_404


def results_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    series = public_series_or_404(tournament, int(params["series"]))
    results = selectors.series_results(
        series, include_pending=tournament.show_provisional
    )
    return {
        "tournament": tournament,
        "series": series,
        "tables": _tables_html(tournament, results),
        "said": _said(selectors.last_confirmed(tournament, series=series)),
    }


def _said(
    last: selectors.LastConfirmed | None, extra: str = ""
) -> dict[str, str] | None:
    """What the last update changed, for the page's live region: the table
    confirmed last (and `extra`, a few words more)."""
    if last is None:
        return None
    return {"key": last.key, "text": " ".join(filter(None, [last.text(), extra]))}


def _progress_said(
    tournament: Tournament, progress: Sequence[Mapping[str, Any]]
) -> dict[str, str] | None:
    """The table confirmed last and how far its series is now."""
    last = selectors.last_confirmed(tournament)
    if last is None:
        return None
    for p in progress:
        if p["series"].number == last.series:
            done = int(p["confirmed"])
            return _said(
                last,
                ngettext(
                    "%(done)d von %(n)d Tisch fertig.",
                    "%(done)d von %(n)d Tischen fertig.",
                    int(p["tables"]),
                )
                % {"done": done, "n": p["tables"]},
            )
    return _said(last)


# A rendered table lives as long as a rendered fragment.
TABLE_TIMEOUT = 15 * 60


def _tables_html(
    tournament: Tournament, results: Sequence[Mapping[str, Any]]
) -> list[SafeString]:
    """Each table's HTML, cached by what it shows: every confirmed result
    renders the series' results anew for every phone, and only its own
    table changed. One cache read for all of them (Redis: one round trip)."""
    language = get_language() or settings.LANGUAGE_CODE
    keys = [f"result-table:{_table_key(tournament, r)}:{language}" for r in results]
    found = cache.get_many(keys)
    context = {
        "games": range(1, tournament.games_per_series + 1),
        # "…/spieler/0/" without "0/": one reversal, not one per player.
        "player_url": reverse(
            "tournament:player", kwargs={"slug": tournament.slug, "number": 0}
        )[:-2],
    }
    made = {}
    for key, result in zip(keys, results, strict=True):
        if key not in found:
            made[key] = found[key] = render_to_string(
                "tournament/results/partials/result_table.html",
                {**context, "r": result},
            )
    if made:
        cache.set_many(made, timeout=TABLE_TIMEOUT)
    return [mark_safe(found[key]) for key in keys]


def _table_key(tournament: Tournament, result: Mapping[str, Any]) -> str:
    table = result["table"]
    return invalidation.etag(
        tournament.slug,
        tournament.games_per_series,
        table.pk,
        table.number,
        table.size,
        result["version"] is not None,
        result["provisional"],
        [
            (
                p["seat"].entry.start_number,
                p["seat"].entry.player.full_name,
                p["seat"].entry.withdrawal_text,
            )
            for p in result["players"]
        ],
        [(p["points"], p["total"]) for p in result["players"]],
    )


def _with_chips(
    tournament: Tournament, progress: Sequence[Mapping[str, Any]], staff: bool
) -> list[dict[str, Any]]:
    """The series' rows with their table chips (number, state, label, link
    for staff), made here once, not per chip in the template: a hundred
    tables a series took a URL reversal and three translations each (the
    referees' overview cost ~110 ms, mostly asking for the active language)."""
    labels = {
        "confirmed": gettext("bestätigt"),
        "pending": gettext("wartet auf Bestätigung"),
        "missing": gettext("fehlt"),
    }
    table = gettext("Tisch %(number)s")
    rows = []
    for p in progress:
        link = ""
        # Results are entered for released series only.
        if staff and p["series"].is_public:
            link = reverse(
                "tournament:table_result",
                kwargs={
                    "slug": tournament.slug,
                    "series": p["series"].number,
                    "table": 0,
                },
            )[:-2]  # "…/tisch/0/" without "0/"
        chips = [
            {
                "number": number,
                "state": state,
                "label": f"{table % {'number': number}}: {labels[state]}",
                "url": f"{link}{number}/" if link else "",
            }
            for number, state in p["table_states"]
        ]
        # What the series' section shows, for the template's cache: after an
        # entry the referees' page renders the one series that changed, not
        # every series of the day.
        key = invalidation.etag(
            tournament.slug,
            p["series"].pk,
            p["series"].number,
            p["series"].status,
            p["tables"],
            p["confirmed"],
            p.get("pending", ()),
            p["table_states"],
            staff,
        )
        rows.append({**p, "chips": chips, "key": key})
    return rows


def progress_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    """The organizer's dashboard: every series, waiting entries included,
    and the tables to look at (a player's *Stimmt nicht*, a referee's entry
    that differs from the table's own) with both versions."""
    progress = selectors.series_progress(tournament)
    return {
        "tournament": tournament,
        "progress": _with_chips(tournament, progress, staff=True),
        "reviews": selectors.table_reviews(tournament),
        "staff": True,
        "said": _progress_said(tournament, progress),
    }


def progress_public_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    """The current series' progress for everybody: a table counts as done
    once its result is confirmed; waiting entries are not public (nor is a
    waiting correction of a confirmed result)."""
    current = current_series(tournament)
    progress = []
    for p in selectors.series_progress(tournament):
        if current is None or p["series"].pk != current.pk:
            continue
        done_tables = set(p["confirmed_tables"])
        states = [
            (number, "confirmed" if number in done_tables else "missing")
            for number, _state in p["table_states"]
        ]
        done = sum(1 for _, state in states if state == "confirmed")
        progress.append(
            {
                "series": current,
                "tables": p["tables"],
                "confirmed": done,
                "table_states": states,
                "missing": [n for n, state in states if state == "missing"],
            }
        )
    return {
        "tournament": tournament,
        "progress": _with_chips(tournament, progress, staff=False),
        "staff": False,
        "said": _progress_said(tournament, progress),
    }


register(
    Fragment(
        "results",
        "tournament/results/partials/live_series_results.html",
        results_context,
        frozenset({Part.RESULTS, Part.SEATING}),
        params={"series": series_number},
        required=("series",),
        source=Source.RESULTS,
    )
)
register(
    Fragment(
        "progress",
        "tournament/results/partials/live_progress.html",
        progress_context,
        frozenset({Part.PROGRESS, Part.SEATING}),
        staff=True,
    )
)
register(
    Fragment(
        "progress-public",
        "tournament/results/partials/live_progress.html",
        progress_public_context,
        frozenset({Part.PROGRESS, Part.SEATING}),
        source=invalidation.CONFIRMED,
    )
)
