"""Errors by audience: a UserError carries a message for the person at the
screen (already translatable); anything else is a programmer error."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.template import loader


class UserError(ValueError):
    """A request that the rules or the data refuse; the message is for users."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class ConflictError(UserError):
    """Somebody else changed the same thing first (version check)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="conflict")


class NotAllowed(UserError, PermissionDenied):
    """The person may not do this here (e.g. a referee of another
    tournament): a message where a view shows UserErrors, else a 403."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="not_allowed")


class NotRefereeHere(PermissionDenied):
    """A referee, but not one this tournament names: the 403 page tells him
    so and whom to ask, not that the page is for the organizer."""


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 403 (config/urls.py handler403): Django's own, plus why
    a referee was refused."""
    template = loader.get_template("403.html")
    context = {
        "exception": str(exception),
        "not_referee_here": isinstance(exception, NotRefereeHere),
    }
    return HttpResponseForbidden(template.render(context, request))
