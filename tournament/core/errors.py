"""Errors by audience: a UserError carries a message for the person at the
screen (already translatable); anything else is a programmer error."""

from django.core.exceptions import PermissionDenied


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
