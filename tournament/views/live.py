"""Live pages: the updatable part of a page is a *fragment*, one partial
template rendered from one context builder, the same for the page, for the
poll endpoint and for the websocket push.

A fragment is named by a key: its name plus its validated parameters in a
fixed order, e.g. ``standings``, ``standings?view=ladies``,
``results?series=3``. Rendered fragments are cached under their ETag, which
changes with the tournament's state (`tournament.live`), so a thousand
phones asking at once cost one render.
"""

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.functional import cached_property
from django.utils.http import http_date, quote_etag
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from tournament import live, selectors
from tournament.models import Series, Tournament
from tournament.roles import may_referee
from tournament.standings import ladies_rows, standings_rows, team_rows
from tournament.tables import StandingsTable

Params = dict[str, str]
Context = dict[str, Any]

# Rendered fragments live until the state changes (their key is their ETag);
# a searched variant is not worth keeping long.
FRAGMENT_TIMEOUT = 15 * 60
SEARCH_TIMEOUT = 60


# --- Context builders: one per fragment, shared by page, poll and push ----


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


def _public_series(tournament: Tournament, number: int) -> Series:
    series = get_object_or_404(Series, tournament=tournament, number=number)
    if not series.is_public:
        raise Http404
    series.tournament = tournament
    return series


def _current_series(tournament: Tournament) -> Series | None:
    """The projector's series: the latest one released to the public."""
    series = selectors.series_public(tournament).order_by("-number").first()
    if series is not None:
        series.tournament = tournament
    return series


def results_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    series = _public_series(tournament, int(params["series"]))
    return {
        "tournament": tournament,
        "series": series,
        "results": selectors.series_results(
            series, include_pending=tournament.show_provisional
        ),
        "games": range(1, tournament.games_per_series + 1),
    }


def seating_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    series = _public_series(tournament, int(params["series"]))
    return {
        "tournament": tournament,
        "series": series,
        "tables": selectors.series_tables(series),
    }


def where_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    query = params.get("q", "")
    return {
        "tournament": tournament,
        "query": query,
        "results": selectors.seat_search(tournament, query),
    }


def _with_chips(
    tournament: Tournament, progress: list[dict[str, Any]], staff: bool
) -> list[dict[str, Any]]:
    """Each series' table chips (number, state, label, link for staff),
    made here once, not per chip in the template: a hundred tables a series
    took a URL reversal and three translations each (the referees' overview
    cost ~110 ms, mostly asking for the active language)."""
    labels = {
        "confirmed": gettext("bestätigt"),
        "pending": gettext("wartet auf Bestätigung"),
        "missing": gettext("fehlt"),
    }
    table = gettext("Tisch %(number)s")
    for p in progress:
        link = ""
        if staff:
            link = reverse(
                "tournament:table_result",
                kwargs={
                    "slug": tournament.slug,
                    "series": p["series"].number,
                    "table": 0,
                },
            )[:-2]  # "…/tisch/0/" without "0/"
        p["chips"] = [
            {
                "number": number,
                "state": state,
                "label": f"{table % {'number': number}}: {labels[state]}",
                "url": f"{link}{number}/" if staff else "",
            }
            for number, state in p["table_states"]
        ]
    return progress


def progress_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    """The organizer's dashboard: every series, waiting entries included."""
    return {
        "tournament": tournament,
        "progress": _with_chips(
            tournament, selectors.series_progress(tournament), staff=True
        ),
        "staff": True,
    }


def progress_public_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    """The current series' progress for everybody: a table counts as done
    once its result is confirmed; waiting entries are not public (nor is a
    waiting correction of a confirmed result)."""
    current = _current_series(tournament)
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
    }


def seating_names_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    """The current series for the hall: every player A–Z with table and
    seat, which is how people look for themselves on a wall."""
    series = _current_series(tournament)
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
    return {"tournament": tournament, "series": series, "seats": seats}


# --- The registry ----------------------------------------------------------


def _choice(*allowed: str) -> Callable[[str], str | None]:
    return lambda value: value if value in allowed else None


def _series_number(value: str) -> str | None:
    # isdecimal, not isdigit: int() refuses "²"; two digits at most, as int()
    # refuses thousands.
    ok = value.isdecimal() and len(value) <= 2 and 1 <= int(value) <= 10
    return value if ok else None


def _search(value: str) -> str | None:
    return value.strip()[:100] or None


_SORTABLE = ("rank", "start_number", "name", "club", "games_won", "points")
_sort = _choice(*_SORTABLE, *(f"-{c}" for c in _SORTABLE))


@dataclass(frozen=True)
class Fragment:
    name: str
    template: str
    context: Callable[[HttpRequest, Tournament, Params], Context]
    # Which changes (`tournament.live.PARTS`) make it render anew.
    parts: frozenset[str]
    # Allowed parameters, in key order, with their validators; a parameter
    # equal to its default is left out of the key.
    params: dict[str, Callable[[str], str | None]] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    staff: bool = False
    # What the ETag follows: "standings", the standings generation alone (no
    # query); "results", what `results_context` shows: confirmed results, and
    # waiting entries too if the tournament shows provisional results; else
    # a scope of `live.state_token` (seating, confirmed results, or every
    # entry as well). A change outside it must not change what the fragment
    # shows, or its ETag would hide that change.
    source: str = live.ALL


FRAGMENTS = {
    f.name: f
    for f in (
        Fragment(
            "standings",
            "tournament/partials/live_standings.html",
            standings_context,
            frozenset({"standings"}),
            params={
                "view": _choice("overall", "ladies", "teams"),
                "sort": _sort,
                "q": _search,
            },
            defaults={"view": "overall"},
            source="standings",
        ),
        Fragment(
            "results",
            "tournament/partials/live_series_results.html",
            results_context,
            frozenset({"results", "seating"}),
            params={"series": _series_number},
            required=("series",),
            source="results",
        ),
        Fragment(
            "seating",
            "tournament/partials/series_tables.html",
            seating_context,
            frozenset({"seating"}),
            params={"series": _series_number},
            required=("series",),
            source=live.SEATING,
        ),
        Fragment(
            "where",
            "tournament/partials/live_where.html",
            where_context,
            frozenset({"seating"}),
            params={"q": _search},
            source=live.SEATING,
        ),
        Fragment(
            "progress",
            "tournament/partials/live_progress.html",
            progress_context,
            frozenset({"progress", "seating"}),
            staff=True,
        ),
        Fragment(
            "progress-public",
            "tournament/partials/live_progress.html",
            progress_public_context,
            frozenset({"progress", "seating"}),
            source=live.CONFIRMED,
        ),
        Fragment(
            "seating-names",
            "tournament/partials/live_seating_names.html",
            seating_names_context,
            frozenset({"seating"}),
            source=live.SEATING,
        ),
    )
}


@dataclass(frozen=True)
class FragmentKey:
    fragment: Fragment
    params: Params

    @property
    def text(self) -> str:
        if not self.params:
            return self.fragment.name
        return f"{self.fragment.name}?{urlencode(self.params)}"


def fragment_key(name: str, given: dict[str, str]) -> FragmentKey | None:
    """The canonical key for a fragment and some request parameters; None
    for an unknown fragment or a missing required parameter. Unknown or
    invalid parameters are dropped."""
    fragment = FRAGMENTS.get(name)
    if fragment is None:
        return None
    params: Params = {}
    for param, check in fragment.params.items():
        value = check(str(given.get(param, "")))
        if value is not None and value != fragment.defaults.get(param):
            params[param] = value
    if any(p not in params for p in fragment.required):
        return None
    return FragmentKey(fragment, params)


def parse_key(text: str) -> FragmentKey | None:
    """A key as a page sent it back (``name?a=1``), validated again."""
    name, _, query = str(text)[:300].partition("?")
    return fragment_key(name, dict(parse_qsl(query)))


def _scope(tournament: Tournament, fragment: Fragment) -> str:
    if fragment.source == "results":
        return live.ALL if tournament.show_provisional else live.CONFIRMED
    return fragment.source


def _source_token(tournament: Tournament, scope: str) -> str:
    # The tournament's own fields (name, provisional results shown, tie-break
    # keys, …) count too, however they were saved.
    settings = live.etag(
        *(getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields)
    )
    if scope == "standings":
        return f"{live.standings_generation(tournament.pk)}.{settings}"
    return f"{live.state_token(tournament.pk, scope)}.{settings}"


def _fragment_request(key: FragmentKey, tournament: Tournament) -> HttpRequest:
    """The request a fragment is rendered with: its parameters only and no
    user, so the same key renders the same bytes for everybody."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = reverse(
        "tournament:live_fragment",
        kwargs={"slug": tournament.slug, "name": key.fragment.name},
    )
    request.GET = QueryDict(mutable=True)
    request.GET.update(key.params)
    request.META = {"SERVER_NAME": "live", "SERVER_PORT": "80"}
    request.user = AnonymousUser()
    return request


@dataclass
class Region:
    """One live region of one page: what the page prints and what the
    browser needs to keep it current (key, ETag, poll URL)."""

    tournament: Tournament
    key: FragmentKey
    language: str
    etag: str
    modified: float

    @property
    def url(self) -> str:
        path = reverse(
            "tournament:live_fragment",
            kwargs={"slug": self.tournament.slug, "name": self.key.fragment.name},
        )
        return f"{path}?{urlencode(self.key.params)}" if self.key.params else path

    @cached_property
    def html(self) -> SafeString:
        cache_key = f"live-frag:{self.etag}"
        html = cache.get(cache_key)
        if html is None:
            # Every request runs in a thread of its own (ASGI): after a change,
            # the phones asking at once would each render the new fragment.
            # One thread renders it; the others wait and read it from the cache.
            with _render_lock(cache_key):
                html = cache.get(cache_key)
                if html is None:
                    html = self._render(cache_key)
        return mark_safe(html)

    def _render(self, cache_key: str) -> str:
        with translation.override(self.language):
            request = _fragment_request(self.key, self.tournament)
            context = self.key.fragment.context(
                request, self.tournament, self.key.params
            )
            html = render_to_string(
                self.key.fragment.template, context, request=request
            )
        timeout = SEARCH_TIMEOUT if "q" in self.key.params else FRAGMENT_TIMEOUT
        cache.set(cache_key, html, timeout=timeout)
        return html


# Fragment renders take a lock by their cache key's hash: a fixed set, so
# their number stays bounded however many ETags a day brings. Re-entrant, in
# case a fragment's template asks for another region.
_RENDER_LOCKS = [threading.RLock() for _ in range(64)]


def _render_lock(cache_key: str) -> threading.RLock:
    return _RENDER_LOCKS[hash(cache_key) % len(_RENDER_LOCKS)]


def region(tournament: Tournament, key: FragmentKey, language: str = "") -> Region:
    """The region of `key` in `language` (default: the active one); its
    HTML is rendered (or read from the cache) when first asked for."""
    language = language or translation.get_language() or "de"
    scope = _scope(tournament, key.fragment)
    token = _source_token(tournament, scope)
    tag = live.etag(tournament.pk, key.text, language, token)
    seen = live.modified_at(f"{tournament.pk}:{scope}", token)
    return Region(tournament, key, language, tag, seen)


# --- HTTP: pages with conditional GET, the poll endpoint, the projector ----


def render_live_page(
    request: HttpRequest, template: str, context: Context, page_region: Region
) -> HttpResponse:
    """Render a public page around its live region, answering a repeated
    GET with 304 while nothing changed. Pages of signed-in users carry their
    name and messages, so they are never answered from the client's cache."""
    page_tag = None
    if not request.user.is_authenticated:
        tag = live.etag(page_region.etag, page_region.language, request.get_full_path())
        page_tag = f'W/"{tag}"'
        unchanged = get_conditional_response(
            request, etag=page_tag, last_modified=int(page_region.modified)
        )
        if unchanged is not None:
            return _validators(unchanged, page_tag, page_region.modified)
    response = render(request, template, {**context, "live": page_region})
    if page_tag is not None:
        _validators(response, page_tag, page_region.modified)
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _validators(response: HttpResponse, tag: str, modified: float) -> HttpResponse:
    response["ETag"] = tag
    response["Last-Modified"] = http_date(modified)
    patch_cache_control(response, no_cache=True, private=True)
    return response


def live_fragment(request: HttpRequest, slug: str, name: str) -> HttpResponse:
    """A fragment alone, for the page's poll while its socket is down."""
    tournament = get_object_or_404(Tournament, slug=slug)
    key = fragment_key(name, request.GET.dict())
    if key is None:
        raise Http404
    if key.fragment.staff and not may_referee(request.user, tournament):
        raise Http404
    page_region = region(tournament, key)
    tag = quote_etag(page_region.etag)
    unchanged = get_conditional_response(
        request, etag=tag, last_modified=int(page_region.modified)
    )
    if unchanged is not None:
        return _validators(unchanged, tag, page_region.modified)
    return _validators(HttpResponse(page_region.html), tag, page_region.modified)


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """For the hall's beamer: standings, the seating of the released series
    and the progress of the current one, in turn, in large type."""
    tournament = get_object_or_404(Tournament, slug=slug)
    regions = {
        name.replace("-", "_"): region(tournament, FragmentKey(FRAGMENTS[name], {}))
        for name in ("standings", "seating-names", "progress-public")
    }
    return render(
        request,
        "tournament/projector.html",
        {"tournament": tournament, "regions": regions},
    )
