"""Login throttling (django-axes): the user name it records."""

from typing import Any

from django.http import HttpRequest

# What axes' tables hold (CharField(max_length=255)).
USERNAME_MAX = 255


def login_username(request: HttpRequest, credentials: dict[str, Any] | None) -> Any:
    """The user name of a login attempt as axes looks it up and stores it:
    cut to what its tables hold and without NUL, which PostgreSQL refuses.
    A scanner's 300-character name is a failed login, not a 500
    (jazzband/django-axes#1381)."""
    if credentials:
        username = credentials.get("username")
    else:
        username = getattr(request, "data", request.POST).get("username")
    if not isinstance(username, str):
        return username
    return username.replace("\x00", "")[:USERNAME_MAX]
