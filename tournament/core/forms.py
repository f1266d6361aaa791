"""Form fields every feature's forms use."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import BoundField
from django.forms.renderers import DjangoTemplates
from django.forms.widgets import Widget
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


class DescribedBoundField(BoundField):
    """A field that names its own mistakes: while it has errors, every
    input of it (each radio and checkbox too, and the fieldset Django puts
    around a group) is `aria-invalid` and described by its error list
    (``<id>_error``, which Django's error list carries) beside its help
    (``<id>_helptext``) and whatever description the widget names itself
    (a help text shared by several fields). A screen reader then says why
    a field is invalid, not only that it is."""

    @property
    def aria_describedby(self) -> str | None:
        own = str(self.field.widget.attrs.get("aria-describedby") or "")
        ids = own.split()
        if self.auto_id and not self.is_hidden:
            if self.help_text:
                ids.append(f"{self.auto_id}_helptext")
            if self.errors:
                ids.append(f"{self.auto_id}_error")
        return " ".join(dict.fromkeys(ids)) or None

    def build_widget_attrs(
        self, attrs: dict[str, Any], widget: Widget | None = None
    ) -> dict[str, Any]:
        built = super().build_widget_attrs(attrs, widget)
        # Django leaves a group's inputs undescribed (only its fieldset) and
        # drops the error once the widget names a description of its own.
        if not attrs.get("aria-describedby") and (described := self.aria_describedby):
            built["aria-describedby"] = described
        return built

    @property
    def first_input_id(self) -> str:
        return first_input_id(self)


def first_input_id(field: BoundField) -> str:
    """The id of a field's first input, where a link to the field leads: a
    group's first radio or checkbox, else the input itself."""
    if field.field.widget.use_fieldset and field.auto_id:
        subwidgets = field.subwidgets
        if subwidgets:
            return str(subwidgets[0].id_for_label)
    return str(field.id_for_label or field.auto_id or "")


class FormRenderer(DjangoTemplates):
    """Django's renderer, its fields `DescribedBoundField`s (settings.
    FORM_RENDERER): every form of the site describes its mistakes."""

    bound_field_class = DescribedBoundField
