"""The tournament an address names: its `slug`, or a 404."""

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from tournament.models import Tournament

_Response = TypeVar("_Response", bound=HttpResponseBase)


def tournament_or_404(slug: str) -> Tournament:
    """The tournament `slug` names; Http404 for an unknown one."""
    return get_object_or_404(Tournament, slug=slug)


def keep(request: HttpRequest, tournament: Tournament) -> None:
    """Remember `tournament`, read for `request` before its view ran (the
    live page's state), so that `with_tournament` does not read it again."""
    request.tournament_loaded = tournament  # type: ignore[attr-defined]


def with_tournament(
    view: Callable[..., _Response],
) -> Callable[..., _Response]:
    """A view of one tournament: it is called with the tournament its
    address's `slug` names instead of the slug (404 for an unknown one).

    Put it right above the view, below the permission and method
    decorators: they decide before the database is asked, and a decorator
    that reads `slug` itself (`public_page`, `tournament_referee_required`)
    still finds it."""

    @wraps(view)
    def wrapper(
        request: HttpRequest, slug: str, *args: Any, **kwargs: Any
    ) -> _Response:
        kept: Tournament | None = getattr(request, "tournament_loaded", None)
        if kept is None or kept.slug != slug:
            kept = tournament_or_404(slug)
        return view(request, kept, *args, **kwargs)

    return wrapper
