from typing import Any

from django.http import HttpRequest

from tournament.core.roles import is_organizer, is_referee


def roles(request: HttpRequest) -> dict[str, Any]:
    """Expose the visitor's role to templates, so navigation fits the role."""
    user = request.user
    return {"is_organizer": is_organizer(user), "is_referee": is_referee(user)}
