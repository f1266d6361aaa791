"""The live fragment of "Mein Turnier": a player's table, its result and
what he may do with it, his place and his series, kept current like the
public pages (pushed over the page's socket, or polled).

Its key holds the player's link (``mein?link=…``): rendered for him alone,
with his forms, never kept for everybody, and answered only while the link
is valid (`fragments.PersonalLink`): a renewed card ends it at once. It
follows the seating at once (`invalidation.SEATING`), every change of his
own table's result at once (the link's version: `invalidation.
table_changed`), and his place, which every result anywhere may move, at a
pace (`invalidation.paced_generation`); it is rendered only for the phones
that show it."""

import re

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from tournament.live import invalidation
from tournament.live.fragments import (
    Context,
    Fragment,
    Params,
    PersonalLink,
    register,
)
from tournament.live.invalidation import Part
from tournament.models import Tournament
from tournament.registration.selectors import entry_by_link
from tournament.tableentry.selectors import MyPage, my_page

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}\Z")


def link_token(value: str) -> str | None:
    return value if _TOKEN.match(value) else None


def link_valid(tournament: Tournament, link: str) -> bool:
    """Whether `link` is a player's personal link now (not replaced)."""
    return entry_by_link(tournament.slug, link) is not None


def mine_context(
    request: HttpRequest, tournament: Tournament, params: Params
) -> Context:
    entry = entry_by_link(tournament.slug, params["link"])
    if entry is None:
        raise Http404
    page = my_page(entry)
    return {
        "tournament": tournament,
        "page": page,
        "link": entry.link_token,
        "said": _said(page),
    }


def _said(page: MyPage) -> dict[str, str] | None:
    """What the last update changed for him, in a few words for the page's
    live region: his table's result (waiting, or counted and his place
    now), else his place."""
    place = page.row.rank if page.row is not None and page.row.rank else 0
    result = page.mine.result if page.mine is not None else None
    if result is not None and result.pending is not None:
        return {
            "key": f"p{result.pending.pk}",
            "text": _("Ihr Tisch: Ergebnis eingegeben, es wartet auf Bestätigung."),
        }
    if result is not None and result.confirmed is not None:
        text = _("Ihr Tisch ist bestätigt.")
        if place:
            text = _("Ihr Tisch ist bestätigt: Sie sind jetzt Platz %(rank)d.") % {
                "rank": place
            }
        return {"key": f"c{result.confirmed.pk}.{place}", "text": text}
    if place:
        return {
            "key": f"r{place}",
            "text": _("Sie sind jetzt Platz %(rank)d.") % {"rank": place},
        }
    return None


register(
    Fragment(
        "mein",
        "tournament/tableentry/partials/live_mine.html",
        mine_context,
        frozenset({Part.STANDINGS, Part.SEATING}),
        params={"link": link_token},
        required=("link",),
        source=invalidation.SEATING,
        personal=PersonalLink("link", link_valid),
        paced=frozenset({Part.STANDINGS}),
    )
)
