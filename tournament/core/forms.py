"""Form fields every feature's forms use."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournament.core.text import visible_text

# The largest id a database integer holds.
MAX_ID = 2**63 - 1

if TYPE_CHECKING:
    # django-stubs types the field by its model; Django's class takes no
    # type argument at run time. This field chooses rows of any model.
    _ModelMultipleChoiceField = forms.ModelMultipleChoiceField[Any]
else:
    _ModelMultipleChoiceField = forms.ModelMultipleChoiceField


class IdsChoiceField(_ModelMultipleChoiceField):
    """Rows chosen by id. An id beyond any database integer is an invalid
    choice before it reaches a query (SQLite raises OverflowError on it)."""

    # Django's own hook, called by its clean() and to_python(); it is private,
    # and django-stubs leaves it out: hence the ignore on the super() call.
    def _check_values(self, value: Any) -> QuerySet[Any]:
        for pk in value:
            try:
                number = int(str(pk))
            except ValueError:
                continue  # not a number at all: the parent refuses it
            if not -MAX_ID - 1 <= number <= MAX_ID:
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": pk},
                )
        checked: QuerySet[Any] = super()._check_values(value)  # type: ignore[misc]
        return checked


class NameField(forms.CharField):
    """A name (of a player, club, town, team, tournament): kept without
    invisible or direction-changing characters (`visible_text`). A name of
    nothing but such characters is refused, not saved empty."""

    default_error_messages = {
        "invisible": _("Dieser Name besteht nur aus unsichtbaren Zeichen."),
    }

    def to_python(self, value: Any) -> str:
        text = super().to_python(value) or ""
        shown = visible_text(text)
        if text and not shown:
            raise ValidationError(self.error_messages["invisible"], code="invisible")
        return shown
