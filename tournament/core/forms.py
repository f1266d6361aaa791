"""Form fields every feature's forms use."""

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

# The largest id a database integer holds.
MAX_ID = 2**63 - 1


class IdsChoiceField(forms.ModelMultipleChoiceField):
    """Rows chosen by id. An id beyond any database integer is an invalid
    choice before it reaches a query (SQLite raises OverflowError on it)."""

    def _check_values(self, value: Any) -> Any:
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
        return super()._check_values(value)
