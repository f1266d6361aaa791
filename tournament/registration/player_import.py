"""Read a club's player list from an .xlsx workbook into a checked preview.

Nothing here writes: the preview lists every row with its errors and
warnings; the organizer confirms and `entries_import` writes all or nothing.
"""

from dataclasses import dataclass, field
from typing import IO

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from openpyxl import Workbook
from openpyxl.worksheet._read_only import ReadOnlyWorksheet
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from tournament.core.upload import (
    RowsPreview,
    cell_text,
    norm_header,
    read_first_sheet,
    row_cells,
    upload_rows,
)
from tournament.core.workbook import workbook_bytes, write_table
from tournament.models import Entry, Person, Player, Tournament
from tournament.persons.services import PersonIndex
from tournament.registration.selectors import name_key
from tournament.registration.services import PlayerData

# Rows below the header, empty ones too (`upload_rows`).
MAX_ROWS = 5000

# Accepted header spellings (lower case, spaces and punctuation removed).
HEADERS = {
    "startnummer": "start_number",
    "startnr": "start_number",
    "nr": "start_number",
    "startnumber": "start_number",
    "vorname": "first_name",
    "firstname": "first_name",
    "nachname": "last_name",
    "name": "last_name",
    "lastname": "last_name",
    "verein": "club",
    "club": "club",
    "ort": "town",
    "wohnort": "town",
    "town": "town",
    "kategorie": "category",
    "category": "category",
    # Columns our own export writes; an exported list re-imports cleanly.
    "mannschaft": "_ignored",
    "team": "_ignored",
    "anwesend": "_ignored",
    "checkedin": "_ignored",
    "abgemeldet": "_ignored",
    "withdrawn": "_ignored",
}
CATEGORIES = {
    "": Player.Category.OPEN,
    "offen": Player.Category.OPEN,
    "open": Player.Category.OPEN,
    "herren": Player.Category.OPEN,
    "damen": Player.Category.LADIES,
    "dame": Player.Category.LADIES,
    "ladies": Player.Category.LADIES,
    "senioren": Player.Category.SENIORS,
    "seniors": Player.Category.SENIORS,
    "jugend": Player.Category.YOUTH,
    "youth": Player.Category.YOUTH,
}


# The columns the import reads, in the order the preview and the template
# workbook show them, with their headings.
COLUMNS = {
    "start_number": gettext_lazy("Startnummer"),
    "first_name": gettext_lazy("Vorname"),
    "last_name": gettext_lazy("Nachname"),
    "club": gettext_lazy("Verein"),
    "town": gettext_lazy("Ort"),
    "category": gettext_lazy("Kategorie"),
}


@dataclass
class PreviewRow:
    line: int  # the row number in the sheet, as Excel shows it
    data: PlayerData | None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Who the row is across tournaments (a known person), for information.
    notes: list[str] = field(default_factory=list)
    # What was read, per column of the preview (`ImportPreview.columns`),
    # also for a row with errors: the organizer sees what the file says.
    shown: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)

    @property
    def cells(self) -> list[tuple[str, str]]:
        """(value, column heading) pairs, for a preview that labels each
        cell (a phone shows a row as a card)."""
        return list(zip(self.shown, self.headings, strict=True))


@dataclass
class ImportPreview(RowsPreview[PreviewRow]):
    # The columns read from the file (keys of COLUMNS, in COLUMNS' order)
    # and the headings of those left aside (our export's extra columns).
    columns: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    @property
    def headings(self) -> list[str]:
        return [str(COLUMNS[c]) for c in self.columns]

    def player_data(self) -> list[PlayerData]:
        return [r.data for r in self.rows if r.data is not None]


def parse_player_workbook(
    upload: IO[bytes], *, size: int, filename: str, tournament: Tournament
) -> ImportPreview:
    """Check an uploaded workbook against the tournament's current entries."""
    preview = ImportPreview()
    read_first_sheet(
        upload,
        size=size,
        filename=filename,
        file_errors=preview.file_errors,
        read=lambda sheet: _read_sheet(sheet, preview, tournament),
    )
    return preview


def _read_sheet(
    sheet: ReadOnlyWorksheet, preview: ImportPreview, tournament: Tournament
) -> None:
    rows = upload_rows(sheet, limit=MAX_ROWS)
    header = next(rows, None)
    if header is None or not any(cell_text(v) for v in header):
        preview.file_errors.append(
            _(
                "Das Blatt ist leer: in der ersten Zeile fehlen die "
                "Spaltenüberschriften."
            )
        )
        return
    columns: list[str | None] = []
    for index, value in enumerate(header, start=1):
        text = cell_text(value)
        if not text:
            columns.append(None)
            continue
        key = HEADERS.get(norm_header(text))
        if key == "_ignored":
            preview.ignored.append(text)
        if key is None:
            preview.file_errors.append(
                _(
                    "Unbekannte Spalte „%(name)s“ (Spalte %(col)d). Erlaubt sind: "
                    "Startnummer, Vorname, Nachname, Verein, Ort, Kategorie."
                )
                % {"name": text, "col": index}
            )
        elif key == "_ignored":
            key = None
        elif key in columns:
            preview.file_errors.append(
                _("Die Spalte „%(name)s“ kommt doppelt vor.") % {"name": text}
            )
        columns.append(key)
    for required, label in (("first_name", _("Vorname")), ("last_name", _("Nachname"))):
        if required not in columns:
            preview.file_errors.append(
                _("Die Spalte „%(name)s“ fehlt.") % {"name": label}
            )
    if preview.file_errors:
        return
    preview.columns = [c for c in COLUMNS if c in columns]

    taken = set(tournament.entries.values_list("start_number", flat=True))
    known_names = {
        name_key(first, last)
        for first, last in tournament.entries.values_list(
            "player__first_name", "player__last_name"
        )
    }
    seen_numbers: dict[int, int] = {}
    seen_names: dict[str, int] = {}
    for line, values in enumerate(rows, start=2):
        cells = row_cells(values, columns)
        if not any(cells.values()):
            continue  # blank rows between blocks are common in club lists
        row = _read_row(line, cells, taken, known_names, seen_numbers, seen_names)
        row.shown = [_shown(key, cells.get(key, ""), row) for key in preview.columns]
        row.headings = preview.headings
        preview.rows.append(row)
    if not preview.rows:
        preview.file_errors.append(_("Das Blatt enthält keine Spieler."))
        return
    _persons(preview, tournament)


def _persons(preview: ImportPreview, tournament: Tournament) -> None:
    """Say for each row who it is across tournaments, by the rule the
    import will match with (`persons.services`): a known person, or a
    similar name the organizer decides on after the import."""
    rows = [(row, row.data) for row in preview.rows if row.data is not None]
    index = PersonIndex(
        names=[(d.first_name, d.last_name) for _row, d in rows], tournament=tournament
    )
    matches = [(row, index.match(d.first_name, d.last_name, d.club)) for row, d in rows]
    known = [m.person.pk for _row, m in matches if m.person is not None]
    played = dict(
        Person.objects.filter(pk__in=known)
        .annotate(n=Count("players__entries", distinct=True))
        .values_list("pk", "n")
    )
    for row, match in matches:
        if match.person is not None:
            index.take(match.person)
            n = played.get(match.person.pk, 0)
            row.notes.append(
                ngettext(
                    "Bekannt: %(n)d Turnier bisher.",
                    "Bekannt: %(n)d Turniere bisher.",
                    n,
                )
                % {"n": n}
            )
        elif match.uncertain:
            row.warnings.append(
                _(
                    "Ähnlicher Name wie %(names)s: nach dem Import unter "
                    "„Personen prüfen“ entscheiden, ob es dieselbe Person ist."
                )
                % {
                    "names": ", ".join(
                        f"{p.full_name} ({p.club})" if p.club else p.full_name
                        for p in match.candidates
                    )
                }
            )


def _shown(key: str, raw: str, row: PreviewRow) -> str:
    """A cell as the preview shows it: the category as it will be stored
    ("Damen" for "dame"), everything else as read."""
    if key == "category" and row.data is not None:
        return str(Player.Category(row.data.category).label)
    return raw


def _read_row(
    line: int,
    cells: dict[str, str],
    taken: set[int],
    known_names: set[str],
    seen_numbers: dict[int, int],
    seen_names: dict[str, int],
) -> PreviewRow:
    row = PreviewRow(line=line, data=None)
    first, last = cells.get("first_name", ""), cells.get("last_name", "")
    if not first:
        row.errors.append(_("Vorname fehlt."))
    if not last:
        row.errors.append(_("Nachname fehlt."))
    for key in ("first_name", "last_name"):
        if len(cells.get(key, "")) > 100:
            row.errors.append(_("Name ist zu lang (höchstens 100 Zeichen)."))
    for key in ("club", "town"):
        if len(cells.get(key, "")) > 150:
            row.errors.append(_("Verein oder Ort ist zu lang (höchstens 150 Zeichen)."))

    number: int | None = None
    raw_number = cells.get("start_number", "")
    if raw_number:
        try:
            number = int(raw_number)
            if number < 1:
                raise ValueError
        except ValueError:
            row.errors.append(
                _("Startnummer „%(value)s“ ist keine positive ganze Zahl.")
                % {"value": raw_number}
            )
            number = None
    if number is not None and number > Entry.MAX_START_NUMBER:
        row.errors.append(
            _("Startnummer %(number)d ist zu groß (höchstens %(max)d).")
            % {"number": number, "max": Entry.MAX_START_NUMBER}
        )
        number = None
    if number is not None:
        if number in taken:
            row.errors.append(
                _("Startnummer %(number)d ist im Turnier schon vergeben.")
                % {"number": number}
            )
        elif number in seen_numbers:
            row.errors.append(
                _("Startnummer %(number)d steht schon in Zeile %(line)d.")
                % {"number": number, "line": seen_numbers[number]}
            )
        else:
            seen_numbers[number] = line

    raw_category = cells.get("category", "")
    category = CATEGORIES.get(raw_category.lower())
    if category is None:
        row.errors.append(
            _(
                "Unbekannte Kategorie „%(value)s“ (erlaubt: Offen, Damen, Senioren, "
                "Jugend)."
            )
            % {"value": raw_category}
        )

    if first and last:
        key = name_key(first, last)
        if key in known_names:
            row.warnings.append(_("Ein Spieler mit diesem Namen ist schon gemeldet."))
        elif key in seen_names:
            row.warnings.append(
                _("Gleicher Name wie in Zeile %(line)d.") % {"line": seen_names[key]}
            )
        seen_names.setdefault(key, line)

    if not row.errors:
        row.data = PlayerData(
            first_name=first,
            last_name=last,
            club=cells.get("club", ""),
            town=cells.get("town", ""),
            category=category or Player.Category.OPEN,
            start_number=number,
        )
    return row


def player_template_workbook() -> bytes:
    """An empty player list to fill in: the import's columns on the first
    sheet (the category as a choice), what each column takes on a second."""
    workbook = Workbook()
    sheet = workbook.active
    assert isinstance(sheet, Worksheet)
    sheet.title = _("Spieler")[:31]
    write_table(sheet, [str(label) for label in COLUMNS.values()], [])
    for column in "BCDE":
        sheet.column_dimensions[column].width = 22
    categories = [str(label) for _value, label in Player.Category.choices]
    choice = DataValidation(
        type="list",
        formula1='"{}"'.format(",".join(categories)),
        allow_blank=True,
        showErrorMessage=True,
        errorTitle=_("Kategorie"),
        error=_("Bitte eine der Kategorien wählen: %(choices)s.")
        % {"choices": ", ".join(categories)},
    )
    sheet.add_data_validation(choice)
    choice.add(f"F2:F{MAX_ROWS + 1}")
    notes = workbook.create_sheet(_("Hinweise")[:31])
    write_table(
        notes,
        [_("Spalte"), _("Pflicht"), _("Was hinein gehört")],
        [
            [
                str(COLUMNS["start_number"]),
                _("nein"),
                _(
                    "Ganze Zahl ab 1. Leer lassen: die Seite vergibt die nächste "
                    "freie Nummer."
                ),
            ],
            [str(COLUMNS["first_name"]), _("ja"), _("z. B. Anna")],
            [str(COLUMNS["last_name"]), _("ja"), _("z. B. Jöbges")],
            [str(COLUMNS["club"]), _("nein"), _("z. B. Schrämclub Daun")],
            [str(COLUMNS["town"]), _("nein"), _("z. B. Daun")],
            [
                str(COLUMNS["category"]),
                _("nein"),
                _("%(choices)s; leer: Offen") % {"choices": ", ".join(categories)},
            ],
        ],
    )
    notes.append([])
    notes.append(
        [
            _(
                "Eingelesen wird nur das erste Blatt; eine Zeile pro Spieler, "
                "die erste Zeile bleibt die Überschrift."
            )
        ]
    )
    return workbook_bytes(workbook)
