"""Roles: organizer (Turnierleitung) and referee (Schiedsrichter).

Superusers count as organizers; organizers may do everything a referee may.
"""

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeAlias

from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase

from tournament.core.errors import NotRefereeHere

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from tournament.models import Tournament

ORGANIZER = "organizer"
REFEREE = "referee"
ROLE_GROUPS = (ORGANIZER, REFEREE)

# Whoever visits: the user of a request, signed in or not.
Visitor: TypeAlias = "User | AnonymousUser"
# Who acts, for the services: the user of a request (the views let only
# signed-in users act), or None for the site itself: digital tables, imports,
# management commands, the demo. It is recorded (audit trail, `entered_by` …)
# as `acting_user` says.
Actor: TypeAlias = "User | AnonymousUser | None"


def acting_user(actor: Actor) -> "User | None":
    """The user an actor is recorded as: None for the site itself and for
    anybody not signed in."""
    return actor if actor is not None and actor.is_authenticated else None


def signed_in_user(user: object) -> "User | None":
    """The signed-in user behind `user`, else None: for a websocket's
    `scope["user"]`, which channels wraps in a lazy object (and leaves out
    without its auth stack)."""
    return user if isinstance(user, get_user_model()) else None


# Cached on the user object: templates and views ask several times.
_GROUPS_CACHE = "_role_groups"


def _groups(user: "User") -> set[str]:
    cached: set[str] | None = getattr(user, _GROUPS_CACHE, None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        setattr(user, _GROUPS_CACHE, cached)
    return cached


def is_organizer(user: Visitor) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_superuser) or ORGANIZER in _groups(user)


def is_referee(user: Visitor) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    return is_organizer(user) or REFEREE in _groups(user)


def may_referee(user: Visitor, tournament: "Tournament") -> bool:
    """May this user enter, confirm or reject results of this tournament?

    Organizers always; referees when the tournament names no referees or
    names them (`Tournament.referees`)."""
    if not is_referee(user):
        return False
    if is_organizer(user):
        return True
    allowed = set(tournament.referees.values_list("pk", flat=True))
    return not allowed or user.pk in allowed


_View: TypeAlias = Callable[..., HttpResponseBase]


def _role_required(check: Callable[[Visitor], bool]) -> Callable[[_View], _View]:
    def decorator(view: _View) -> _View:
        @wraps(view)
        def wrapper(
            request: HttpRequest, *args: Any, **kwargs: Any
        ) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


organizer_required = _role_required(is_organizer)
referee_required = _role_required(is_referee)


def tournament_referee_required(view: _View) -> _View:
    """`referee_required`, and a referee of the tournament named by the
    view's `slug` (see `may_referee`). An unknown slug is left to the view
    (its 404)."""

    @wraps(view)
    @referee_required
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        from tournament.models import Tournament

        tournament = (
            Tournament.objects.only("pk").filter(slug=kwargs.get("slug")).first()
        )
        if tournament is not None and not may_referee(request.user, tournament):
            raise NotRefereeHere
        return view(request, *args, **kwargs)

    return wrapper


def ensure_role_groups(**_: Any) -> None:
    """Create the role groups and give organizers the app's model permissions.

    Connected to post_migrate: permissions only exist after migrations ran.
    """
    from django.contrib.auth.models import Group, Permission

    organizer, _created = Group.objects.get_or_create(name=ORGANIZER)
    Group.objects.get_or_create(name=REFEREE)
    perms = Permission.objects.filter(content_type__app_label="tournament")
    organizer.permissions.add(*perms)
