"""Rate limits of the pages behind a player's personal link, and of a
digital seat's private link (/d/<token>/), which is one as well.

Those pages need no sign-in: the secret in the address is the key. Each
address may ask for them only so often (`PLAYER_LINK_REQUESTS` per
`PLAYER_LINK_WINDOW` seconds), and may name only so many links that do not
exist (`PLAYER_LINK_MISSES` per `PLAYER_LINK_MISS_WINDOW`): a link cannot be
guessed (192 random bits), but a flood of tries costs the laptop.

Beyond its wrong links an address is slowed, not shut out: the players of
a club share their router's address with whoever guesses. A link the phone
opened before (`LINK_COOKIE`, signed, which a guesser cannot make for a
link he does not know) is always looked up. Any other waits, after each
wrong link beyond the share, `PLAYER_LINK_MISS_WINDOW / PLAYER_LINK_MISSES`
seconds (20): a guesser gets a few tries a minute, a new player's phone
gets in within seconds, and a link that exists makes nobody wait.
`Retry-After` says when the next look-up is due, to the second.

Counted in Django's cache, as the practice tables' limits are: shared by the
worker processes with Redis; a count lost with the cache only lets a visitor
start over. A refusal is a 429 page (or JSON, when asked for) in the
visitor's language, and writes nothing.
"""

import hmac
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
)
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

_View = Callable[..., HttpResponseBase]

# The phone remembers the personal link it opened last (a signed cookie per
# tournament, set by "Mein Turnier"): its proof that the link is its own.
LINK_COOKIE = "mein"
LINK_COOKIE_SALT = "tableentry.link"


def _address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR", ""))


def count_in_window(key: str, window: int) -> int:
    """One more for `key` in its window of `window` seconds (which starts
    with the first count and does not move: attempts that are refused count
    too, but do not make the wait longer); the count so far."""
    if cache.add(key, 0, timeout=window):
        cache.set(_ends_key(key), time.time() + window, timeout=window)
    try:
        return int(cache.incr(key))
    except ValueError:  # the window ended between the two calls
        cache.add(key, 1, timeout=window)
        return 1


def _ends_key(key: str) -> str:
    return f"{key}:ends"


def seconds_left(key: str, window: int) -> int:
    """Whole seconds until the window of `key` (`count_in_window`) ends, at
    least 1 (the whole window if its end was lost with the cache)."""
    ends = cache.get(_ends_key(key))
    if ends is None:
        return window
    return max(1, math.ceil(float(ends) - time.time()))


def _miss_key(request: HttpRequest) -> str:
    return f"link-miss:{_address(request)}"


def _pace_key(request: HttpRequest) -> str:
    return f"link-pace:{_address(request)}"


def link_missed(request: HttpRequest) -> None:
    """Count a personal link that does not exist, asked for by `request`'s
    address (the view's 404 follows). Beyond the address's share, its next
    look-up is due a pace later (MISS_WINDOW / MISSES seconds): a guesser
    gets a few tries a minute, a link that exists costs nobody a wait.
    (Look-ups begun in the same instant are not held back: a guesser gains
    the few the lanes let in at once.)"""
    window = int(settings.PLAYER_LINK_MISS_WINDOW)
    if count_in_window(_miss_key(request), window) < int(settings.PLAYER_LINK_MISSES):
        return
    pace = max(1, window // int(settings.PLAYER_LINK_MISSES))
    cache.set(_pace_key(request), time.time() + pace, timeout=pace)


def wants_json(request: HttpRequest) -> bool:
    """The phone's outbox asks for JSON; a browser's form (or a browser
    that takes JSON among pages) does not."""
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def link_not_found(request: HttpRequest) -> HttpResponse:
    """The answer to a personal link that does not exist: the outbox's JSON
    (its phone stops sending), else the 404 page."""
    if wants_json(request):
        return JsonResponse(
            {
                "ok": False,
                "state": "not_found",
                "message": _(
                    "Diesen persönlichen Link gibt es nicht (mehr). Wurde Ihre "
                    "Spielerkarte neu gedruckt, gilt nur die neue."
                ),
            },
            status=404,
        )
    raise Http404


def too_many(request: HttpRequest, *, retry_after: int | None = None) -> HttpResponse:
    """The 429 answer; `retry_after`: the seconds until a try is taken again
    (the request window's length if not given)."""
    seconds = int(settings.PLAYER_LINK_WINDOW) if retry_after is None else retry_after
    message = ngettext(
        "Von diesem Handy oder Netz kamen gerade sehr viele Anfragen. Bitte "
        "%(seconds)d Sekunde warten und es dann noch einmal versuchen.",
        "Von diesem Handy oder Netz kamen gerade sehr viele Anfragen. Bitte "
        "%(seconds)d Sekunden warten und es dann noch einmal versuchen.",
        seconds,
    ) % {"seconds": seconds}
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse(
            {"ok": False, "state": "rate_limited", "message": message}, status=429
        )
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def _opened_here(request: HttpRequest, token: str) -> bool:
    """Whether this phone opened the link `token` before (its cookie)."""
    remembered = request.get_signed_cookie(
        LINK_COOKIE, default=None, salt=LINK_COOKIE_SALT
    )
    return bool(remembered) and hmac.compare_digest(str(remembered), token)


def link_refusal(
    request: HttpRequest, token: str | None, *, count: bool = True
) -> HttpResponse | None:
    """The 429 for a request that may not look up the personal link
    `token` now (None: it may): its address asked too often (if its
    requests `count`), or named more than its share of wrong links and its
    next look-up is not due yet."""
    if count:
        window = int(settings.PLAYER_LINK_WINDOW)
        requests_key = f"link-requests:{_address(request)}"
        if count_in_window(requests_key, window) > int(settings.PLAYER_LINK_REQUESTS):
            return too_many(request, retry_after=seconds_left(requests_key, window))
    if token and _opened_here(request, token):
        return None
    due = cache.get(_pace_key(request))
    if due is None:
        return None
    return too_many(request, retry_after=max(1, math.ceil(float(due) - time.time())))


def _guarded(*, count: bool) -> Callable[[_View], _View]:
    def decorator(view: _View) -> _View:
        @wraps(view)
        def wrapper(
            request: HttpRequest, *args: Any, **kwargs: Any
        ) -> HttpResponseBase:
            token = kwargs.get("token") or request.GET.get("link")
            refusal = link_refusal(request, str(token) if token else None, count=count)
            if refusal is not None:
                return refusal
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


# Refuse (429) an address that asked too often, or named too many links
# that do not exist, before the view looks anything up (see the module: a
# link its phone opened before is still answered). The link is the view's
# `token`, or the address's `?link=`.
personal_link_limited = _guarded(count=True)
# The same for a digital seat's link, but its requests are not counted, only
# its wrong links: a table being played sends a move or a poll every few
# seconds from each of its phones (all of a club's behind one router), and
# holding the right link is all a seat's request needs.
seat_link_guarded = _guarded(count=False)
