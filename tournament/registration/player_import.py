"""Read a club's player list into a checked preview: any spreadsheet the
clubs use (`core.sheets`: .xlsx, .xls, .ods, CSV), its header found under a
title, each of its columns mapped to a field by the organizer's choice.

Nothing here writes: the preview lists every row with its errors and
warnings; the organizer confirms and `entries_import` writes all or nothing.
Nothing that could be wrong passes without a word: a formula's error is a
row's error, rows hidden or filtered out in the file are left out unless the
organizer takes them, and a player twice in the file is one row.
"""

from dataclasses import asdict, dataclass, field
from typing import IO, Any

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from tournament.core.errors import UserError
from tournament.core.sheets import HEADER_ROWS, Sheet, is_error, read_sheets
from tournament.core.upload import RowsPreview, norm_header
from tournament.core.workbook import workbook_bytes, write_table
from tournament.models import Entry, Person, Player, Team, Tournament
from tournament.persons.services import PersonIndex, club_key
from tournament.registration.selectors import name_key
from tournament.registration.services import PlayerData

# Players in one list: rows with something in them below the header (empty
# or only formatted rows do not count).
MAX_ROWS = 5000

# The fields a column can go to, in the order the preview shows them.
FIELDS = {
    "start_number": gettext_lazy("Startnummer"),
    "first_name": gettext_lazy("Vorname"),
    "last_name": gettext_lazy("Nachname"),
    "name_comma": gettext_lazy("Name, Vorname"),
    "club": gettext_lazy("Verein"),
    "town": gettext_lazy("Ort"),
    "category": gettext_lazy("Kategorie"),
    "team": gettext_lazy("Mannschaft"),
}

# Header words (lower case, without spaces and punctuation: `norm_header`)
# and the field they propose; a column not here is proposed "nicht
# übernehmen" (a club list's Geb.-Datum, Telefon, E-Mail, Lfd. Nr. …).
HEADERS = {
    "startnummer": "start_number",
    "startnr": "start_number",
    "stnr": "start_number",
    "nr": "start_number",
    "startnumber": "start_number",
    "vorname": "first_name",
    "vornamen": "first_name",
    "rufname": "first_name",
    "firstname": "first_name",
    "nachname": "last_name",
    "name": "last_name",
    "familienname": "last_name",
    "zuname": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "namevorname": "name_comma",
    "nachnamevorname": "name_comma",
    "familiennamevorname": "name_comma",
    "verein": "club",
    "vereinsname": "club",
    "club": "club",
    "klub": "club",
    "ort": "town",
    "wohnort": "town",
    "town": "town",
    "kategorie": "category",
    "category": "category",
    "klasse": "category",
    "wertung": "category",
    "wertungsklasse": "category",
    "mannschaft": "team",
    "team": "team",
}
# Headers whose column holds "Name, Vorname" when most of it has a comma
# and no other column is the first name.
COMMA_HEADERS = {"name", "spieler", "spielerin", "teilnehmer", "namen"}

CATEGORIES = {
    "": Player.Category.OPEN,
    "offen": Player.Category.OPEN,
    "open": Player.Category.OPEN,
    "herren": Player.Category.OPEN,
    "herr": Player.Category.OPEN,
    "allgemein": Player.Category.OPEN,
    "damen": Player.Category.LADIES,
    "dame": Player.Category.LADIES,
    "d": Player.Category.LADIES,
    "frauen": Player.Category.LADIES,
    "frau": Player.Category.LADIES,
    "weiblich": Player.Category.LADIES,
    "ladies": Player.Category.LADIES,
    "senioren": Player.Category.SENIORS,
    "senior": Player.Category.SENIORS,
    "seniorin": Player.Category.SENIORS,
    "seniorinnen": Player.Category.SENIORS,
    "ü60": Player.Category.SENIORS,
    "ue60": Player.Category.SENIORS,
    "seniors": Player.Category.SENIORS,
    "jugend": Player.Category.YOUTH,
    "jugendlicher": Player.Category.YOUTH,
    "jugendliche": Player.Category.YOUTH,
    "u18": Player.Category.YOUTH,
    "youth": Player.Category.YOUTH,
}

# A category as the command line's --json names it.
CATEGORY_KEYS = {
    Player.Category.OPEN: "offen",
    Player.Category.LADIES: "damen",
    Player.Category.SENIORS: "senioren",
    Player.Category.YOUTH: "jugend",
}

# The template workbook's columns, with their headings.
COLUMNS = {
    "start_number": gettext_lazy("Startnummer"),
    "first_name": gettext_lazy("Vorname"),
    "last_name": gettext_lazy("Nachname"),
    "club": gettext_lazy("Verein"),
    "town": gettext_lazy("Ort"),
    "category": gettext_lazy("Kategorie"),
}


@dataclass
class PlayerTable:
    """What was read from the file: the sheet and row of the header, the
    header's cells and the rows below it (file row number, cells, hidden).
    Kept in the session while the organizer maps the columns."""

    sheet: str
    header_row: int
    headers: list[str]
    rows: list[tuple[int, list[str], bool]]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "PlayerTable":
        return cls(
            sheet=data["sheet"],
            header_row=data["header_row"],
            headers=list(data["headers"]),
            rows=[(line, list(cells), hidden) for line, cells, hidden in data["rows"]],
        )

    @property
    def width(self) -> int:
        return max([len(self.headers), *(len(c) for _l, c, _h in self.rows)])

    @property
    def hidden_lines(self) -> list[int]:
        return [line for line, _cells, hidden in self.rows if hidden]


@dataclass
class MappedColumn:
    """A column of the file in the preview: its header, a sample of what
    it holds, and the field it goes to (None: not taken)."""

    index: int
    letter: str
    header: str
    sample: str
    field: str | None


@dataclass
class PreviewRow:
    line: int  # the row number in the sheet, as the spreadsheet shows it
    data: PlayerData | None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Who the row is across tournaments (a known person), for information.
    notes: list[str] = field(default_factory=list)
    # What was read, per field of the preview (`ImportPreview.fields`),
    # also for a row with errors: the organizer sees what the file says.
    shown: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    # The rows of the file this one stands for (a player twice in it).
    lines: list[int] = field(default_factory=list)
    differs: bool = False
    # The file's cells by field, as read.
    read: dict[str, str] = field(default_factory=dict)

    @property
    def cells(self) -> list[tuple[str, str]]:
        """(value, column heading) pairs, for a preview that labels each
        cell (a phone shows a row as a card)."""
        return list(zip(self.shown, self.headings, strict=True))


@dataclass
class ImportPreview(RowsPreview[PreviewRow]):
    sheet: str = ""
    header_row: int = 0
    mapping: list[MappedColumn] = field(default_factory=list)
    # What keeps the chosen mapping from importing (no name column …).
    mapping_errors: list[str] = field(default_factory=list)
    # The fields the mapping takes, in FIELDS' order (the preview's columns).
    fields: list[str] = field(default_factory=list)
    hidden_lines: list[int] = field(default_factory=list)
    take_hidden: bool = False
    duplicates: list[list[int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return super().ok and not self.mapping_errors

    @property
    def headings(self) -> list[str]:
        return [str(FIELDS[f]) for f in self.fields]

    @property
    def field_choices(self) -> list[tuple[str, str]]:
        return [(key, str(label)) for key, label in FIELDS.items()]

    def player_data(self) -> list[PlayerData]:
        return [r.data for r in self.rows if r.data is not None]

    def as_json(self) -> dict[str, Any]:
        """The preview as `importplayers --json` prints it."""
        return {
            "sheet": self.sheet,
            "header_row": self.header_row,
            "mapping": {c.header or c.letter: c.field for c in self.mapping},
            "hidden_rows": self.hidden_lines,
            "duplicates": self.duplicates,
            "file_errors": self.file_errors + self.mapping_errors,
            "rows": [
                {
                    "row": r.line,
                    "first_name": r.data.first_name
                    if r.data
                    else r.read.get("first_name", ""),
                    "last_name": r.data.last_name
                    if r.data
                    else r.read.get("last_name", ""),
                    "club": r.data.club if r.data else r.read.get("club", ""),
                    "category": CATEGORY_KEYS.get(Player.Category(r.data.category))
                    if r.data
                    else None,
                    "ok": not r.errors,
                    "errors": r.errors,
                    "warnings": r.warnings,
                }
                for r in self.rows
            ],
        }


def read_player_table(upload: IO[bytes], *, size: int, filename: str) -> PlayerTable:
    """The first visible sheet of the file with a header row among its first
    rows: one naming a name column and one more field; failing that, the
    first row that names any field (the organizer maps the rest). UserError
    for a file nothing here reads, or without such a row."""
    weak: tuple[PlayerTable, Sheet] | None = None
    for sheet in read_sheets(upload, size=size, filename=filename, limit=MAX_ROWS):
        table, strong = _header_in(sheet)
        if table is not None and strong:
            return _checked_length(table, sheet)
        if table is not None and weak is None:
            weak = (table, sheet)
    if weak is not None:
        return _checked_length(*weak)
    raise UserError(
        _(
            "Keine Überschriftenzeile gefunden: in den ersten %(n)d Zeilen steht "
            "keine Zeile mit Spaltenüberschriften wie Vorname, Nachname oder "
            "Verein."
        )
        % {"n": HEADER_ROWS},
        code="no_header",
    )


def _checked_length(table: PlayerTable, sheet: Sheet) -> PlayerTable:
    if sheet.too_long:
        raise UserError(
            _(
                "Zu viele Zeilen: höchstens %(max)d Spieler in einer Liste "
                "(leere Zeilen zählen nicht). Bitte die Liste aufteilen."
            )
            % {"max": MAX_ROWS},
            code="too_many_rows",
        )
    return table


def header_field(text: str) -> str | None:
    """The field a header proposes: its words without case, spaces and
    punctuation; of "Verein/Club" the first half that is known."""
    key = HEADERS.get(norm_header(text))
    if key is None and "/" in text:
        for part in text.split("/"):
            key = key or HEADERS.get(norm_header(part))
    return key


def _header_in(sheet: Sheet) -> tuple[PlayerTable | None, bool]:
    """The sheet's header row and whether it is a sure one (a name column
    and one more field), else the first row naming any field."""
    weak: PlayerTable | None = None
    for position, row in enumerate(sheet.rows[:HEADER_ROWS]):
        proposed = [
            "name_comma"
            if norm_header(text) in COMMA_HEADERS and not header_field(text)
            else header_field(text)
            for text in row.cells
        ]
        known = {p for p in proposed if p}
        names = {"first_name", "last_name", "name_comma"} & known
        if not known or (weak is not None and not names):
            continue
        table = PlayerTable(
            sheet=sheet.name,
            header_row=row.line,
            headers=row.cells,
            rows=[(r.line, r.cells, r.hidden) for r in sheet.rows[position + 1 :]],
        )
        if (names and len(known) >= 2) or "name_comma" in names:
            return table, True
        weak = weak or table
    return weak, False


def propose_mapping(table: PlayerTable) -> list[str | None]:
    """The field each column goes to by its header; a field taken by an
    earlier column is not proposed twice."""
    taken: set[str] = set()
    mapping: list[str | None] = []
    headers = table.headers + [""] * (table.width - len(table.headers))
    for index, text in enumerate(headers):
        key = norm_header(text)
        proposal = header_field(text)
        if key in COMMA_HEADERS and "first_name" not in [
            header_field(h) for h in headers
        ]:
            values = [c[index] for _l, c, _h in table.rows[:50] if len(c) > index]
            values = [v for v in values if v]
            if values and sum("," in v for v in values) * 2 > len(values):
                proposal = "name_comma"
        if proposal in taken:
            proposal = None
        if proposal is not None:
            taken.add(proposal)
        mapping.append(proposal)
    return mapping


def parse_mapping(text: str, table: PlayerTable) -> list[str | None]:
    """A mapping as the command line gives it: "Familienname=last_name,
    Telefon=" (header=field; empty or "-": not taken); headers not named
    keep their proposal. UserError for an unknown header or field."""
    mapping = propose_mapping(table)
    by_header = {norm_header(h): i for i, h in enumerate(table.headers) if h}
    for part in text.split(","):
        if not part.strip():
            continue
        header, _sep, key = part.partition("=")
        index = by_header.get(norm_header(header))
        if index is None:
            raise UserError(
                _("Die Datei hat keine Spalte „%(name)s“.") % {"name": header.strip()}
            )
        key = key.strip()
        if key in ("", "-", "none"):
            mapping[index] = None
        elif key in FIELDS:
            mapping[index] = key
        else:
            raise UserError(
                _("Unbekanntes Feld „%(name)s“ (erlaubt: %(fields)s).")
                % {"name": key, "fields": ", ".join(FIELDS)}
            )
    return mapping


def parse_player_workbook(
    upload: IO[bytes], *, size: int, filename: str, tournament: Tournament
) -> ImportPreview:
    """Read an uploaded list and check it with the proposed mapping."""
    try:
        table = read_player_table(upload, size=size, filename=filename)
    except UserError as error:
        preview = ImportPreview()
        preview.file_errors.append(error.message)
        return preview
    return check_players(table, propose_mapping(table), tournament=tournament)


def check_players(
    table: PlayerTable,
    mapping: list[str | None],
    *,
    tournament: Tournament,
    take_hidden: bool = False,
) -> ImportPreview:
    """Check a read list, its columns going to the fields of `mapping`,
    against the tournament's current entries."""
    preview = ImportPreview(
        sheet=table.sheet,
        header_row=table.header_row,
        hidden_lines=table.hidden_lines,
        take_hidden=take_hidden,
    )
    mapping = (mapping + [None] * table.width)[: table.width]
    for index, key in enumerate(mapping):
        values = [c[index] for _l, c, _h in table.rows if len(c) > index and c[index]]
        preview.mapping.append(
            MappedColumn(
                index=index,
                letter=get_column_letter(index + 1),
                header=table.headers[index] if index < len(table.headers) else "",
                sample=" · ".join(values[:2]),
                field=key,
            )
        )
    _check_mapping(preview)
    if preview.mapping_errors:
        return preview
    preview.fields = [f for f in FIELDS if f in mapping and f != "name_comma"]
    if "name_comma" in mapping:
        preview.fields = [
            f for f in FIELDS if f in ("first_name", "last_name") or f in mapping
        ]
        preview.fields.remove("name_comma")

    taken = set(tournament.entries.values_list("start_number", flat=True))
    known_names = {
        name_key(first, last)
        for first, last in tournament.entries.values_list(
            "player__first_name", "player__last_name"
        )
    }
    seen_numbers: dict[int, int] = {}
    seen_names: dict[str, int] = {}
    by_person: dict[tuple[str, str], PreviewRow] = {}
    for line, values, hidden in table.rows:
        if hidden and not take_hidden:
            continue
        cells = _cells(values, mapping)
        if not any(cells.values()):
            continue
        row = _read_row(line, cells)
        if row.data is not None:
            person = (
                name_key(row.data.first_name, row.data.last_name),
                club_key(row.data.club),
            )
            first = by_person.get(person)
            if first is not None:
                _twice(first, row)
                continue
            by_person[person] = row
        _check_row(row, taken, known_names, seen_numbers, seen_names)
        row.shown = [_shown(key, row) for key in preview.fields]
        row.headings = preview.headings
        preview.rows.append(row)
    for row in preview.rows:
        if len(row.lines) > 1:
            _say_twice(row)
            preview.duplicates.append(row.lines)
    if not preview.rows:
        preview.file_errors.append(_("Die Liste enthält keine Spieler."))
        return preview
    _teams(preview, tournament)
    _persons(preview, tournament)
    return preview


def _check_mapping(preview: ImportPreview) -> None:
    chosen: dict[str, list[str]] = {}
    for column in preview.mapping:
        if column.field is not None:
            chosen.setdefault(column.field, []).append(column.letter)
    for key, letters in chosen.items():
        if len(letters) > 1:
            preview.mapping_errors.append(
                _("„%(field)s“ ist mehreren Spalten zugeordnet (%(columns)s).")
                % {"field": FIELDS[key], "columns": ", ".join(letters)}
            )
    if "name_comma" in chosen:
        if {"first_name", "last_name"} & set(chosen):
            preview.mapping_errors.append(
                _(
                    "„Name, Vorname“ und eine eigene Spalte für Vorname oder "
                    "Nachname schließen sich aus."
                )
            )
    else:
        for key in ("first_name", "last_name"):
            if key not in chosen:
                preview.mapping_errors.append(
                    _(
                        "Keine Spalte ist „%(field)s“ zugeordnet: bitte unten "
                        "wählen, welche Spalte ihn enthält."
                    )
                    % {"field": FIELDS[key]}
                )


def _cells(values: list[str], mapping: list[str | None]) -> dict[str, str]:
    cells = {
        key: values[i] if i < len(values) else ""
        for i, key in enumerate(mapping)
        if key is not None
    }
    if "name_comma" in cells:
        cells["_name"] = cells.pop("name_comma")
    return cells


def _twice(first: PreviewRow, row: PreviewRow) -> None:
    """`row` is the player of the earlier row `first` again: one row, named
    with both lines (`_say_twice`)."""
    first.lines.append(row.line)
    if first.data != row.data:
        first.differs = True


def _say_twice(row: PreviewRow) -> None:
    """A player twice in the file is one row and one person; different
    details in his rows are for the organizer to settle."""
    text = _("doppelt in der Datei, Zeilen %(lines)s") % {"lines": _and_list(row.lines)}
    if row.differs:
        row.errors.append(
            _(
                "%(text)s, mit verschiedenen Angaben (Startnummer, Ort, Kategorie "
                "oder Mannschaft): bitte eine der Zeilen löschen."
            )
            % {"text": text}
        )
        row.data = None
    else:
        row.warnings.append(text + ".")


def _and_list(numbers: list[int]) -> str:
    texts = [str(n) for n in numbers]
    if len(texts) == 1:
        return texts[0]
    return _("%(first)s und %(last)s") % {
        "first": ", ".join(texts[:-1]),
        "last": texts[-1],
    }


def _teams(preview: ImportPreview, tournament: Tournament) -> None:
    """A team has at most four players, those registered already counted."""
    members = dict(
        Team.objects.filter(tournament=tournament)
        .annotate(n=Count("members"))
        .values_list("name", "n")
    )
    counted: dict[str, int] = {}
    for row in preview.rows:
        if row.data is None or not row.data.team:
            continue
        name = row.data.team
        counted[name] = counted.get(name, members.get(name, 0)) + 1
        if counted[name] > Team.MAX_MEMBERS:
            row.errors.append(
                _("Die Mannschaft „%(name)s“ hätte mehr als %(max)d Spieler.")
                % {"name": name, "max": Team.MAX_MEMBERS}
            )


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


def _shown(key: str, row: PreviewRow) -> str:
    """A cell as the preview shows it: the category as it will be stored,
    with the file's spelling when that differs ("Senioren (Ü60)"), the
    name split at the comma; everything else as read."""
    if row.data is not None:
        if key == "category":
            label = str(Player.Category(row.data.category).label)
            raw = row.read.get("category", "")
            if raw and norm_header(raw) != norm_header(label):
                return f"{label} ({raw})"
            return label
        value = getattr(row.data, key)
        return "" if value is None else str(value)
    return row.read.get(key, "")


def _split_name(text: str) -> tuple[str, str] | None:
    last, comma, first = text.partition(",")
    if not comma:
        return None
    return first.strip(), last.strip()


def _read_row(line: int, cells: dict[str, str]) -> PreviewRow:
    row = PreviewRow(line=line, data=None, lines=[line])
    for key, value in cells.items():
        if is_error(value):
            label = FIELDS["name_comma"] if key == "_name" else FIELDS[key]
            row.errors.append(
                _(
                    "„%(field)s“ ist ein Formelfehler (%(value)s): bitte in der "
                    "Datei korrigieren."
                )
                % {"field": label, "value": value}
            )
            cells[key] = ""
    if "_name" in cells:
        name = cells.pop("_name")
        split = _split_name(name)
        if name and split is None:
            row.errors.append(
                _(
                    "„%(value)s“ hat kein Komma: Name und Vorname lassen sich "
                    "nicht trennen (erwartet: „Name, Vorname“)."
                )
                % {"value": name}
            )
        first_name, last_name = split or ("", name)
        cells["first_name"], cells["last_name"] = first_name, last_name
    row.read = cells
    first, last = cells.get("first_name", ""), cells.get("last_name", "")
    if not first and not row.errors:
        row.errors.append(_("Vorname fehlt."))
    if not last and not row.errors:
        row.errors.append(_("Nachname fehlt."))
    for key in ("first_name", "last_name"):
        if len(cells.get(key, "")) > 100:
            row.errors.append(_("Name ist zu lang (höchstens 100 Zeichen)."))
    for key in ("club", "town", "team"):
        if len(cells.get(key, "")) > 150:
            row.errors.append(
                _("Verein, Ort oder Mannschaft ist zu lang (höchstens 150 Zeichen).")
            )

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

    raw_category = cells.get("category", "")
    category = CATEGORIES.get(norm_header(raw_category))
    if category is None:
        row.errors.append(
            _(
                "Unbekannte Kategorie „%(value)s“ (erlaubt: Offen, Damen, Senioren, "
                "Jugend)."
            )
            % {"value": raw_category}
        )
    if not row.errors and first and last:
        row.data = PlayerData(
            first_name=first,
            last_name=last,
            club=cells.get("club", ""),
            town=cells.get("town", ""),
            category=category or Player.Category.OPEN,
            start_number=number,
            team=cells.get("team", ""),
        )
    return row


def _check_row(
    row: PreviewRow,
    taken: set[int],
    known_names: set[str],
    seen_numbers: dict[int, int],
    seen_names: dict[str, int],
) -> None:
    """What a row is beside the others: its start number free, its name
    not registered already."""
    if row.data is None:
        return
    number = row.data.start_number
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
            seen_numbers[number] = row.line
    key = name_key(row.data.first_name, row.data.last_name)
    if key in known_names:
        row.warnings.append(_("Ein Spieler mit diesem Namen ist schon gemeldet."))
    elif key in seen_names:
        row.warnings.append(
            _("Gleicher Name wie in Zeile %(line)d.") % {"line": seen_names[key]}
        )
    seen_names.setdefault(key, row.line)
    if row.errors:
        row.data = None


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
