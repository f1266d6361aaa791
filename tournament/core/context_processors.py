from typing import Any

from django.http import HttpRequest

from tournament.core.roles import is_organizer, is_referee


def roles(request: HttpRequest) -> dict[str, Any]:
    """Expose the visitor's role to templates, so navigation fits the role.
    A request refused before the middleware ran (a host the site does not
    serve: the 400 page) has no user: nobody."""
    user = getattr(request, "user", None)
    if user is None:
        return {"is_organizer": False, "is_referee": False}
    return {"is_organizer": is_organizer(user), "is_referee": is_referee(user)}
