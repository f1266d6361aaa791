"""The reader's refusals in words: the engine gives a code, this says it
to the person holding the phone (German first, English via locale/)."""

from django.utils.translation import gettext as _

from tournament.models import Tournament
from tournament.sheetphoto.reader.read import MAX_BYTES, SheetRefused


def refusal_message(refusal: SheetRefused) -> str:
    """What to do about a photo the reader refused."""
    params = refusal.params
    if refusal.code == "too_large":
        return _("Das Foto ist zu groß (höchstens %(mb)d MB).") % {
            "mb": MAX_BYTES // (1024 * 1024)
        }
    if refusal.code == "not_image":
        return _("Das ist kein Foto (JPEG oder PNG erwartet).")
    if refusal.code == "too_many_pixels":
        return _("Das Bild hat zu viele Pixel; bitte ein normales Handyfoto schicken.")
    if refusal.code == "too_many_pixels_whole":
        kind = {"WEBP": "WebP"}.get(str(params.get("format")), params.get("format"))
        return _(
            "Dieses Bild (%(kind)s) ist zu groß zum Lesen: höchstens %(mp)s "
            "Megapixel. Bitte die Spielliste mit der Handykamera fotografieren "
            "und als Foto (JPEG) schicken oder das Bild kleiner speichern."
        ) % {"kind": kind, "mp": params.get("megapixels")}
    if refusal.code == "too_small":
        return _("Das Foto ist zu klein; bitte näher heran.")
    if refusal.code == "not_found":
        return _(
            "Keine Spielliste erkannt. Bitte näher heran, das ganze Blatt muss "
            "drauf sein, mit allen vier Eckmarken."
        )
    if refusal.code == "old_sheet":
        return _(
            "Diese Spielliste kann nicht gelesen werden (ältere Druckvorlage); "
            "bitte das Ergebnis von Hand eingeben."
        )
    if refusal.code == "no_code":
        return _(
            "Der QR-Code der Spielliste ist nicht lesbar; bitte ohne Schatten "
            "und scharf fotografieren."
        )
    if refusal.code == "wrong_sheet":
        # The QR code names the tournament by its address word; a person
        # knows it by its name (the word if no tournament has it here).
        slug = str(params.get("tournament"))
        name = (
            Tournament.objects.filter(slug=slug).values_list("name", flat=True).first()
        )
        return _(
            "Das ist die Spielliste von Tisch %(table)s (Serie %(series)s, "
            "%(tournament)s). Bitte die Spielliste dieses Tisches fotografieren."
        ) % {
            "table": params.get("table"),
            "series": params.get("series"),
            "tournament": name or slug,
        }
    if refusal.code == "blank":
        # A faint pen reads as nothing: say what helps.
        return _(
            "Auf der Spielliste ist nichts durchgestrichen. Falls doch: bitte "
            "kräftiger durchstreichen oder das Ergebnis eintippen."
        )
    return _("Die Spielliste kann nicht gelesen werden.")
