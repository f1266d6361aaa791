"""The photo's form: one file, from the phone's camera."""

from django import forms
from django.utils.translation import gettext_lazy as _


class PhotoForm(forms.Form):
    photo = forms.FileField(
        label=_("Foto der Spielliste"),
        # The name a phone gives its photo does not matter; the bytes do.
        max_length=None,
        allow_empty_file=False,
        error_messages={
            "required": _("Bitte ein Foto der Spielliste aufnehmen oder wählen."),
            "empty": _("Die Datei ist leer. Bitte noch einmal fotografieren."),
            "invalid": _("Das ist kein Foto (JPEG oder PNG erwartet)."),
        },
        widget=forms.FileInput(
            attrs={"accept": "image/jpeg,image/png", "capture": "environment"}
        ),
    )
