"""A player's own pages: "Mein Turnier" behind his personal link, the page
that finds it again on a phone that opened it before, and the table page a
table card's QR code opens."""

from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournament.core.lookup import with_tournament
from tournament.core.ratelimit import (
    LINK_COOKIE,
    LINK_COOKIE_SALT,
    link_missed,
    link_not_found,
    personal_link_limited,
    wants_json,
)
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.models import Entry, Table, Tournament
from tournament.registration.selectors import entry_by_link, mine_url
from tournament.results.selectors import table_for_entry
from tournament.seating.selectors import MAX_TABLE, current_series
from tournament.tableentry.selectors import MyPage, my_page, table_entry_state

# The phone remembers whose link it opened (a signed cookie per tournament,
# only sent to the tournament's pages): the table page then offers that
# player his entry, and the wrong-link guard lets it through (core.
# ratelimit). The cookie grants nothing: every action needs the link.
COOKIE_SALT = LINK_COOKIE_SALT


# One name; each tournament's cookie lives under its own path (/t/<slug>/),
# so a phone may hold a player of each tournament. The pages' navigation
# offers "Mein Turnier" where it is set (templates/tournament/
# tournament_base.html), without asking the database.
COOKIE_NAME = LINK_COOKIE


def remembered_entry(request: HttpRequest, tournament: Tournament) -> Entry | None:
    """The player whose personal link this phone opened last (None if none,
    or the link was replaced since)."""
    try:
        token = request.get_signed_cookie(COOKIE_NAME, salt=COOKIE_SALT, default=None)
    except signing.BadSignature:
        return None
    if not token:
        return None
    return entry_by_link(tournament.slug, token)


def _remember(response: HttpResponse, entry: Entry) -> None:
    response.set_signed_cookie(
        COOKIE_NAME,
        entry.link_token,
        salt=COOKIE_SALT,
        max_age=int(settings.PLAYER_LINK_COOKIE_DAYS) * 24 * 3600,
        path=reverse("tournament:detail", kwargs={"slug": entry.tournament.slug}),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _not_found(request: HttpRequest) -> HttpResponse:
    link_missed(request)
    return link_not_found(request)


def _as_json(page: MyPage) -> JsonResponse:
    """The page's state for the phone's outbox: which table, which version
    and revision a submission would be made against."""
    mine = page.mine
    pending = mine.result.pending if mine else None
    return JsonResponse(
        {
            "ok": True,
            "state": page.state,
            "player": page.entry.start_number,
            "series": page.current.number if page.current else None,
            "table": mine.table.number if mine else None,
            "seat": mine.seat.number if mine else None,
            "revision": mine.table.result_revision if mine else None,
            "version": pending.number if pending else None,
            "may_enter": bool(mine and mine.may_enter),
            "may_confirm": bool(mine and mine.may_confirm),
            "may_reject": bool(mine and mine.may_reject),
        }
    )


@personal_link_limited
@require_GET
def mine(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """ "Mein Turnier": the player's table and seat in the current series,
    its result (to enter, confirm or dispute), his results so far, his
    place; live. Opening it makes the phone his (`remembered_entry`)."""
    entry = entry_by_link(slug, token)
    if entry is None:
        return _not_found(request)
    if wants_json(request):
        return _as_json(my_page(entry))
    # The page is its live region (rendered once per state, kept) around a
    # frame: what the region shows is not read here again.
    live = region(
        entry.tournament, FragmentKey(FRAGMENTS["mein"], {"link": entry.link_token})
    )
    response = render(
        request,
        "tournament/tableentry/mine.html",
        {"tournament": entry.tournament, "entry": entry, "live": live},
    )
    # His alone, and current: never kept by a cache between him and us.
    patch_cache_control(response, private=True, no_cache=True)
    response["Referrer-Policy"] = "no-referrer"
    _remember(response, entry)
    return response


def _token_of(text: str) -> str:
    """The secret of a personal link typed or pasted in whole or part."""
    path = urlsplit(text.strip()).path.rstrip("/")
    return path.rsplit("/", 1)[-1] if path else ""


@personal_link_limited
@require_GET
@with_tournament
def mine_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """ "Mein Turnier" without the link: back to the player whose link this
    phone opened, or the link typed in (`?link=`), else how to find it."""
    typed = request.GET.get("link", "")[:300]
    if typed:
        entry = entry_by_link(tournament.slug, _token_of(typed))
        if entry is None:
            link_missed(request)
            return render(
                request,
                "tournament/tableentry/start.html",
                {
                    "tournament": tournament,
                    "typed": typed,
                    "error": _(
                        "Diesen persönlichen Link gibt es nicht (mehr). Bitte den "
                        "QR-Code Ihrer Spielerkarte scannen; wurde sie neu "
                        "gedruckt, gilt nur die neue."
                    ),
                },
                status=404,
            )
        return redirect(mine_url(entry))
    entry = remembered_entry(request, tournament)
    if entry is not None:
        return redirect(mine_url(entry))
    return render(
        request, "tournament/tableentry/start.html", {"tournament": tournament}
    )


@require_GET
@with_tournament
def table_card(
    request: HttpRequest, tournament: Tournament, table: int
) -> HttpResponse:
    """What a table card's QR code opens (one address for every series):
    the table in the series now played. With entry at the table on, its
    page: who sits there, where its result stands, and the way to enter it –
    through the personal link (the phone that opened one is offered it).
    Otherwise, and before any series is released, as before: the series'
    results at that table, or the tournament's page."""
    series = current_series(tournament)
    if series is None:
        return redirect("tournament:detail", slug=tournament.slug)
    if tournament.table_entry == Tournament.TableEntry.OFF:
        url = reverse(
            "tournament:series_results",
            kwargs={"slug": tournament.slug, "number": series.number},
        )
        return redirect(f"{url}#tisch-{table}")
    if not 1 <= table <= MAX_TABLE:
        raise Http404  # no table has such a number (a small integer column)
    try:
        table_obj = table_for_entry(series, table)
    except Table.DoesNotExist as exc:
        raise Http404 from exc
    table_obj.series = series
    me = remembered_entry(request, tournament)
    seated = me is not None and any(s.entry_id == me.pk for s in table_obj.seats.all())
    response = render(
        request,
        "tournament/tableentry/table.html",
        {
            "tournament": tournament,
            "series": series,
            "table": table_obj,
            "result": table_entry_state(table_obj),
            "me": me,
            "seated": seated,
            "mine_url": mine_url(me) if me is not None else "",
        },
    )
    # The phone's own player (his link) may be in it: kept by nobody.
    patch_cache_control(response, private=True, no_cache=True, no_store=True)
    return response
