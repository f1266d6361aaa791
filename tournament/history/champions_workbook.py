"""Read the list of past champions from an .xlsx workbook into a checked
preview (year, name, club, points), as the player import does: nothing
here writes; every error of the file is listed at once, next to its row;
the organizer confirms and `champions_import` writes all or nothing."""

import datetime
from dataclasses import dataclass, field
from typing import IO, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from tournament.core.text import name_key
from tournament.core.upload import (
    RowsPreview,
    cell_text,
    norm_header,
    read_first_sheet,
    row_cells,
    upload_rows,
)
from tournament.history.services import ChampionData, champion_person_index
from tournament.models import PastChampion, Person, Tournament

# Rows below the header, empty ones too (`upload_rows`).
MAX_ROWS = 500

HEADERS = {
    "jahr": "year",
    "year": "year",
    "saison": "year",
    "name": "name",
    "meister": "name",
    "meisterin": "name",
    "spieler": "name",
    "champion": "name",
    "vorname": "first_name",
    "firstname": "first_name",
    "nachname": "last_name",
    "lastname": "last_name",
    "verein": "club",
    "club": "club",
    "punkte": "points",
    "points": "points",
    "gesamtpunkte": "points",
}

COLUMNS = {
    "year": gettext_lazy("Jahr"),
    "name": gettext_lazy("Name"),
    "club": gettext_lazy("Verein"),
    "points": gettext_lazy("Punkte"),
}


@dataclass
class ChampionRow:
    line: int  # as Excel numbers it
    data: ChampionData | None
    shown: list[str]
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def cells(self) -> list[tuple[str, str]]:
        return list(zip(self.shown, [str(c) for c in COLUMNS.values()], strict=True))


@dataclass
class ChampionsPreview(RowsPreview[ChampionRow]):
    replaced: int = 0  # champions imported before, which the list replaces

    @property
    def headings(self) -> list[str]:
        return [str(c) for c in COLUMNS.values()]

    def champion_data(self) -> list[ChampionData]:
        return [r.data for r in self.rows if r.data is not None]


def _text(value: Any) -> str:
    if isinstance(value, datetime.datetime | datetime.date):
        return str(value.year)  # a year typed as a date
    return cell_text(value)


def parse_champions_workbook(
    upload: IO[bytes], *, size: int, filename: str
) -> ChampionsPreview:
    """Check an uploaded list of champions; writes nothing."""
    preview = ChampionsPreview()
    read_first_sheet(
        upload,
        size=size,
        filename=filename,
        file_errors=preview.file_errors,
        read=lambda sheet: _read_sheet(sheet, preview),
    )
    if preview.ok:
        _persons(preview)
    return preview


def _columns(header: tuple[Any, ...], preview: ChampionsPreview) -> list[str | None]:
    columns: list[str | None] = []
    for index, value in enumerate(header, start=1):
        text = _text(value)
        if not text:
            columns.append(None)
            continue
        key = HEADERS.get(norm_header(text))
        if key is None:
            preview.file_errors.append(
                _(
                    "Unbekannte Spalte „%(name)s“ (Spalte %(col)d). Erlaubt sind: "
                    "Jahr, Name (oder Vorname und Nachname), Verein, Punkte."
                )
                % {"name": text, "col": index}
            )
        elif key in columns:
            preview.file_errors.append(
                _("Die Spalte „%(name)s“ kommt doppelt vor.") % {"name": text}
            )
        columns.append(key)
    if "year" not in columns:
        preview.file_errors.append(_("Die Spalte „Jahr“ fehlt."))
    has_parts = "first_name" in columns or "last_name" in columns
    if "name" not in columns and not has_parts:
        preview.file_errors.append(
            _("Die Spalte „Name“ fehlt (oder „Vorname“ und „Nachname“).")
        )
    if "name" in columns and has_parts:
        preview.file_errors.append(
            _("Bitte entweder „Name“ oder „Vorname“ und „Nachname“, nicht beides.")
        )
    return columns


def _read_sheet(sheet: ReadOnlyWorksheet, preview: ChampionsPreview) -> None:
    rows = upload_rows(sheet, limit=MAX_ROWS)
    header = next(rows, None)
    if header is None or not any(_text(v) for v in header):
        preview.file_errors.append(
            _(
                "Das Blatt ist leer: in der ersten Zeile fehlen die "
                "Spaltenüberschriften (Jahr, Name, Verein, Punkte)."
            )
        )
        return
    columns = _columns(header, preview)
    if preview.file_errors:
        return
    played = {
        t.date.year: t.name
        for t in Tournament.objects.filter(is_championship=True).order_by("date")
    }
    seen: dict[tuple[int, str], int] = {}
    years: dict[int, int] = {}
    for line, values in enumerate(rows, start=2):
        cells = row_cells(values, columns, _text)
        if not any(cells.values()):
            continue
        preview.rows.append(_read_row(line, cells, played, seen, years))
    if not preview.rows:
        preview.file_errors.append(_("Das Blatt enthält keine Meister."))
    preview.replaced = PastChampion.objects.count()


def _name(cells: dict[str, str]) -> str:
    if "name" in cells:
        name = cells["name"]
        if name.count(",") == 1:  # "Jöbges, Anna"
            last, first = (part.strip() for part in name.split(","))
            name = f"{first} {last}".strip()
        return name
    return " ".join(
        part
        for part in (cells.get("first_name", ""), cells.get("last_name", ""))
        if part
    )


def _read_row(
    line: int,
    cells: dict[str, str],
    played: dict[int, str],
    seen: dict[tuple[int, str], int],
    years: dict[int, int],
) -> ChampionRow:
    name = _name(cells)
    club = cells.get("club", "")
    raw_year, raw_points = cells.get("year", ""), cells.get("points", "")
    row = ChampionRow(line=line, data=None, shown=[raw_year, name, club, raw_points])
    this_year = datetime.date.today().year
    year: int | None = None
    if not raw_year:
        row.errors.append(_("Jahr fehlt."))
    else:
        try:
            year = int(raw_year)
        except ValueError:
            row.errors.append(
                _("Jahr „%(value)s“ ist keine Jahreszahl.") % {"value": raw_year}
            )
        else:
            if not 1900 <= year <= this_year:
                row.errors.append(
                    _("Jahr %(year)d liegt nicht zwischen 1900 und %(now)d.")
                    % {"year": year, "now": this_year}
                )
                year = None
    if not name:
        row.errors.append(_("Name fehlt."))
    elif len(name) > 201:
        row.errors.append(_("Name ist zu lang (höchstens 200 Zeichen)."))
    if len(club) > 150:
        row.errors.append(_("Verein ist zu lang (höchstens 150 Zeichen)."))
    points: int | None = None
    if raw_points:
        try:
            points = int(raw_points)
            if points < 0:
                raise ValueError
        except ValueError:
            row.errors.append(
                _("Punkte „%(value)s“ sind keine ganze Zahl ab 0.")
                % {"value": raw_points}
            )
            points = None
    if year is not None and name:
        key = (year, name_key("", name))
        if key in seen:
            row.errors.append(
                _("%(name)s steht für %(year)d schon in Zeile %(line)d.")
                % {"name": name, "year": year, "line": seen[key]}
            )
        else:
            if year in years:
                row.warnings.append(
                    _("%(year)d steht schon in Zeile %(line)d: ein geteilter Titel?")
                    % {"year": year, "line": years[year]}
                )
            seen[key] = line
            years.setdefault(year, line)
        if year in played:
            row.warnings.append(
                _(
                    "%(year)d ist auf der Seite gespielt („%(name)s“): dort steht "
                    "der Meister aus der Tabelle, diese Zeile wird nicht gezeigt."
                )
                % {"year": year, "name": played[year]}
            )
    if not row.errors and year is not None:
        row.data = ChampionData(year=year, name=name, club=club, points=points)
    return row


def _persons(preview: ChampionsPreview) -> None:
    """Which rows name a known person (linked on import), by the matching
    rule of registrations: the same name and club, exactly one person."""
    data = preview.champion_data()
    index = champion_person_index(data)
    for row in preview.rows:
        if row.data is None:
            continue
        match = index.match("", row.data.name, row.data.club)
        if match.person is not None:
            row.notes.append(
                _("Verknüpft mit %(name)s.") % {"name": _person_text(match.person)}
            )


def _person_text(person: Person) -> str:
    return f"{person.full_name} ({person.club})" if person.club else person.full_name
