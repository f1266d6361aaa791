"""Rate limits of the pages behind a player's personal link.

Those pages need no sign-in: the secret in the address is the key. Each
address may ask for them only so often (`PLAYER_LINK_REQUESTS` per
`PLAYER_LINK_WINDOW` seconds), and may name only so many links that do not
exist (`PLAYER_LINK_MISSES` per `PLAYER_LINK_MISS_WINDOW`) before every
personal-link page refuses it until the window ends: a link cannot be
guessed (192 random bits), but a flood of tries costs the laptop. Counted
in Django's cache, as the practice tables' limits are: shared by the worker
processes with Redis; a count lost with the cache only lets a visitor start
over. A refusal is a 429 page (or JSON, when asked for) in the visitor's
language, and writes nothing.
"""

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

_View = Callable[..., HttpResponseBase]


def _address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR", ""))


def count_in_window(key: str, window: int) -> int:
    """One more for `key` in its window of `window` seconds (which starts
    with the first count and does not move: attempts that are refused count
    too, but do not make the wait longer); the count so far."""
    cache.add(key, 0, timeout=window)
    try:
        return int(cache.incr(key))
    except ValueError:  # the window ended between the two calls
        cache.add(key, 1, timeout=window)
        return 1


def _miss_key(request: HttpRequest) -> str:
    return f"link-miss:{_address(request)}"


def link_missed(request: HttpRequest) -> None:
    """Count a personal link that does not exist, asked for by `request`'s
    address (the view's 404 follows)."""
    count_in_window(_miss_key(request), int(settings.PLAYER_LINK_MISS_WINDOW))


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


def too_many(request: HttpRequest) -> HttpResponse:
    message = _(
        "Von diesem Handy oder Netz kamen gerade sehr viele Anfragen. Bitte "
        "eine Minute warten und es dann noch einmal versuchen."
    )
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse(
            {"ok": False, "state": "rate_limited", "message": message}, status=429
        )
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(int(settings.PLAYER_LINK_WINDOW))
    return response


def personal_link_limited(view: _View) -> _View:
    """Refuse (429) an address that asked too often, or named too many
    links that do not exist, before the view looks anything up."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        misses = cache.get(_miss_key(request)) or 0
        if int(misses) >= int(settings.PLAYER_LINK_MISSES):
            return too_many(request)
        count = count_in_window(
            f"link-requests:{_address(request)}", int(settings.PLAYER_LINK_WINDOW)
        )
        if count > int(settings.PLAYER_LINK_REQUESTS):
            return too_many(request)
        return view(request, *args, **kwargs)

    return wrapper
