"""The player list of a tournament as an .xlsx workbook (re-importable)."""

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from tournament.core.workbook import workbook_bytes, write_table
from tournament.models import Entry, Tournament


def players_workbook(tournament: Tournament) -> bytes:
    """Columns match the import, so an exported list can be imported again."""
    entries = (
        Entry.objects.filter(tournament=tournament)
        .select_related("player", "team")
        .order_by("start_number")
    )
    workbook = Workbook()
    sheet = workbook.active
    assert isinstance(sheet, Worksheet)  # a new workbook has one
    sheet.title = _("Spieler")[:31]
    headers = [
        _("Startnummer"),
        _("Vorname"),
        _("Nachname"),
        _("Verein"),
        _("Ort"),
        _("Kategorie"),
        _("Mannschaft"),
        _("anwesend"),
        _("abgemeldet"),
    ]
    rows = (
        [
            e.start_number,
            e.player.first_name,
            e.player.last_name,
            e.player.club,
            e.player.town,
            e.player.get_category_display(),
            e.team.name if e.team else "",
            _("ja") if e.checked_in else _("nein"),
            e.withdrawal_reason if e.withdrawn_at else "",
        ]
        for e in entries
    )
    write_table(sheet, headers, rows, number_formats={1: "0"})
    return workbook_bytes(workbook)
