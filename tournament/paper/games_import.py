"""Import the Games sheet of a results workbook (tournaments scored
elsewhere, or a round trip of our own export) into a checked preview, and
apply a confirmed preview through the referees' own service.

Reading writes nothing: the preview lists every table with its games, what
importing would do (new, unchanged, replacing a result) and every error with
its row in the sheet. `games_import_apply` then enters each changed table
with `result_enter(mode="import", auto_confirm=True)`, so every validation
and audit of referee entry applies, in one transaction: all tables or none.
"""

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.core.rules import game_points
from tournament.core.sheets import HEADER_ROWS, Sheet, read_sheets
from tournament.core.upload import norm_header
from tournament.models import ResultVersion, Series, Table, Tournament
from tournament.models.results import winners_and_marks
from tournament.results.services import GameInput, result_check, result_enter

# Rows with something in them below the header: 400 players × 25 games is
# 10,000.
MAX_ROWS = 40_000

# Accepted header spellings (lower case, letters and digits only).
HEADERS = {
    "serie": "series",
    "series": "series",
    "tisch": "table",
    "table": "table",
    "spiel": "game",
    "game": "game",
    "sitz": "seat",
    "platz": "seat",  # the workbooks written before the seat was a "Sitz"
    "seat": "seat",
    "startnummer": "start_number",
    "startnr": "start_number",
    "startnumber": "start_number",
    "nr": "start_number",
    "name": "name",
    "schrämübrig": "marks",
    "schraemuebrig": "marks",
    "schräm": "marks",
    "markskept": "marks",
    "marks": "marks",
    "punkte": "points",
    "points": "points",
}
REQUIRED = ("series", "table", "game", "seat", "start_number", "marks")
SHEET_NAMES = ("spiele", "games")

Progress = Callable[[int], None]


@dataclass
class TableImport:
    """One table's five games as the sheet gives them."""

    series: int
    table: int
    games: list[tuple[int, int]] = field(default_factory=list)  # (winner, marks)
    action: str = "new"  # new | same | replace | replace_pending
    revision: int = 0
    current_version: int | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return _("Serie %(s)d, Tisch %(t)d") % {"s": self.series, "t": self.table}

    @property
    def summary(self) -> str:
        return " · ".join(f"{w}:{m}" for w, m in self.games)


@dataclass
class GamesPreview:
    file_errors: list[str] = field(default_factory=list)
    row_errors: list[str] = field(default_factory=list)
    tables: list[TableImport] = field(default_factory=list)
    rows: int = 0

    @property
    def ok(self) -> bool:
        return (
            not self.file_errors
            and not self.row_errors
            and not any(t.errors for t in self.tables)
        )

    @property
    def error_count(self) -> int:
        return (
            len(self.file_errors)
            + len(self.row_errors)
            + sum(len(t.errors) for t in self.tables)
        )

    @property
    def errors(self) -> list[str]:
        table_errors = [f"{t.label}: {e}" for t in self.tables for e in t.errors]
        return [*self.file_errors, *self.row_errors, *table_errors]

    @property
    def to_import(self) -> list[TableImport]:
        return [t for t in self.tables if t.action != "same"]

    def payload(self) -> list[dict[str, Any]]:
        """What the confirmation needs (kept in the session, then a job)."""
        return [
            {
                "series": t.series,
                "table": t.table,
                "games": [list(g) for g in t.games],
                "revision": t.revision,
            }
            for t in self.to_import
        ]


def _int(value: Any) -> int | None:
    """A whole number from a cell (Excel gives 3.0 for 3), else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip()
    # Not isdigit(): int() refuses "²", "--5" and thousands of digits.
    return int(text) if re.fullmatch(r"-?[0-9]{1,18}", text) else None


def parse_games_workbook(
    upload: IO[bytes], *, size: int, filename: str, tournament: Tournament
) -> GamesPreview:
    """Check an uploaded workbook's Games sheet against the tournament's
    seating and results. Writes nothing. Any spreadsheet a club's program
    writes (`core.sheets`: .xlsx, .xls, .ods, CSV); rows that are only
    formatted do not count."""
    preview = GamesPreview()
    try:
        found = _games_sheet(
            read_sheets(upload, size=size, filename=filename, limit=MAX_ROWS)
        )
    except UserError as error:
        preview.file_errors.append(error.message)
        return preview
    if found is None:
        preview.file_errors.append(
            _(
                "Kein Blatt „Spiele“ gefunden: erwartet werden die Spalten "
                "Serie, Tisch, Spiel, Sitz, Startnummer, Schräm übrig "
                "(wie in der Ergebnis-Arbeitsmappe)."
            )
        )
        return preview
    sheet, position = found
    if sheet.too_long:
        preview.file_errors.append(
            _(
                "Zu viele Zeilen: höchstens %(max)d unter der Überschrift (leere "
                "Zeilen zählen nicht). Bitte die Liste aufteilen."
            )
            % {"max": MAX_ROWS}
        )
        return preview
    rows = _read_rows(sheet, position, preview)
    if preview.file_errors:
        return preview
    _check(rows, preview, tournament)
    return preview


def _columns(cells: Sequence[str]) -> list[str | None]:
    return [HEADERS.get(norm_header(v)) if v else None for v in cells]


def _games_sheet(sheets: Iterable[Sheet]) -> tuple[Sheet, int] | None:
    """The sheet named Spiele/Games, else the first whose header fits, with
    the position of its header among its first rows."""
    fitting: list[tuple[Sheet, int]] = []
    for sheet in sheets:
        for position, row in enumerate(sheet.rows[:HEADER_ROWS]):
            keys = set(_columns(row.cells))
            if all(k in keys for k in REQUIRED):
                fitting.append((sheet, position))
                break
    named = [f for f in fitting if norm_header(f[0].name) in SHEET_NAMES]
    chosen = named or fitting
    return chosen[0] if chosen else None


Row = dict[str, Any]


def _read_rows(sheet: Sheet, position: int, preview: GamesPreview) -> list[Row]:
    header = sheet.rows[position].cells
    columns = _columns(header)
    for index, (key, value) in enumerate(zip(columns, header, strict=True), 1):
        if key is not None and key in columns[: index - 1]:
            preview.file_errors.append(
                _("Die Spalte „%(name)s“ kommt doppelt vor (Spalte %(col)d).")
                % {"name": value, "col": index}
            )
    rows: list[Row] = []
    for found in sheet.rows[position + 1 :]:
        row: Row = {"line": found.line}
        for key, cell in zip(columns, found.cells, strict=False):
            if key is not None:
                row[key] = cell
        rows.append(row)
    if not rows and not preview.file_errors:
        preview.file_errors.append(_("Das Blatt „Spiele“ enthält keine Zeilen."))
    preview.rows = len(rows)
    return rows


# (series, table) -> game -> seat -> (marks kept, line in the sheet)
Found = dict[tuple[int, int], dict[int, dict[int, tuple[int, int]]]]


@dataclass
class _Seating:
    """What the rows are checked against: the tournament's series, its
    tables by (series, table) and who sits where by (series, table, seat)."""

    series: dict[int, Series]
    tables: dict[tuple[int, int], Table]
    seated: dict[tuple[int, int, int], int]

    @classmethod
    def of(cls, tournament: Tournament) -> "_Seating":
        tables = {
            (t.series.number, t.number): t
            for t in Table.objects.filter(series__tournament=tournament)
            .select_related("series")
            .prefetch_related("seats__entry")
        }
        return cls(
            series={s.number: s for s in tournament.series.all()},
            tables=tables,
            seated={
                (t.series.number, t.number, seat.number): seat.entry.start_number
                for t in tables.values()
                for seat in t.seats.all()
            },
        )


def _check(rows: list[Row], preview: GamesPreview, tournament: Tournament) -> None:
    """Each row against the seating and the rules (an error per refused
    row), then each table's games against its results."""
    seating = _Seating.of(tournament)
    found: Found = defaultdict(lambda: defaultdict(dict))
    for row in rows:
        problem = _row_problem(row, seating, tournament, found)
        if problem is not None:
            preview.row_errors.append(problem)
    versions = _current_versions(tournament)
    for (s, t), games in sorted(found.items()):
        table = seating.tables[s, t]
        preview.tables.append(
            _table_import(
                table, seating.series[s], games, tournament, versions[table.pk]
            )
        )


def _row_problem(
    row: Row, seating: _Seating, tournament: Tournament, found: Found
) -> str | None:
    """Why a row cannot be imported; else None, its marks kept in `found`."""
    line = row["line"]
    numbers = {k: _int(row.get(k)) for k in (*REQUIRED, "points")}
    bad = [k for k in REQUIRED if numbers[k] is None]
    if bad:
        return _("Zeile %(line)d: %(cols)s fehlt oder ist keine ganze Zahl.") % {
            "line": line,
            "cols": ", ".join(_column_names(bad)),
        }
    s, t, g, p, n, marks = (numbers[k] for k in REQUIRED)
    assert s is not None and t is not None and g is not None and p is not None
    assert n is not None and marks is not None
    problem = _place_problem(line, s, t, g, p, n, seating, tournament)
    if problem is None:
        problem = _score_problem(line, marks, numbers["points"], row, tournament)
    if problem is not None:
        return problem
    game = found[s, t][g]
    if p in game:
        return _(
            "Zeile %(line)d: Serie %(s)d, Tisch %(t)d, Spiel %(g)d, Sitz "
            "%(p)d steht schon in Zeile %(other)d."
        ) % {"line": line, "s": s, "t": t, "g": g, "p": p, "other": game[p][1]}
    game[p] = (marks, line)
    return None


def _place_problem(
    line: int,
    s: int,
    t: int,
    g: int,
    p: int,
    n: int,
    seating: _Seating,
    tournament: Tournament,
) -> str | None:
    """Why series `s`, table `t`, game `g`, seat `p` with start number `n`
    is no place of this tournament's seating, else None."""
    if s not in seating.series:
        return _("Zeile %(line)d: Serie %(s)d gibt es in diesem Turnier nicht.") % {
            "line": line,
            "s": s,
        }
    if (s, t) not in seating.tables:
        return _("Zeile %(line)d: Serie %(s)d hat keinen Tisch %(t)d.") % {
            "line": line,
            "s": s,
            "t": t,
        }
    games_per_series = tournament.games_per_series
    if not 1 <= g <= games_per_series:
        return _("Zeile %(line)d: Spiel %(g)d gibt es nicht (1 bis %(n)d).") % {
            "line": line,
            "g": g,
            "n": games_per_series,
        }
    expected = seating.seated.get((s, t, p))
    if expected is None:
        return _(
            "Zeile %(line)d: an Tisch %(t)d der Serie %(s)d gibt es keinen Sitz %(p)d."
        ) % {"line": line, "s": s, "t": t, "p": p}
    if n != expected:
        return _(
            "Zeile %(line)d: auf Serie %(s)d, Tisch %(t)d, Sitz %(p)d sitzt "
            "Startnummer %(e)d, nicht %(n)d. Die Setzung der Datei muss "
            "der des Turniers entsprechen."
        ) % {"line": line, "s": s, "t": t, "p": p, "e": expected, "n": n}
    return None


def _score_problem(
    line: int, marks: int, points: int | None, row: Row, tournament: Tournament
) -> str | None:
    """Why the marks kept (and the points, if the row gives them) are not
    what the rules allow, else None."""
    start = tournament.start_marks
    if not 0 <= marks <= start:
        return _("Zeile %(line)d: %(m)d Schräm übrig – möglich sind 0 bis %(max)d.") % {
            "line": line,
            "m": marks,
            "max": start,
        }
    should = game_points(marks, tournament)
    if row.get("points") not in (None, "") and points != should:
        return _(
            "Zeile %(line)d: %(pts)s Punkte passen nicht zu %(m)d Schräm "
            "übrig (das gibt %(should)d Punkte)."
        ) % {"line": line, "pts": row.get("points"), "m": marks, "should": should}
    return None


def _current_versions(
    tournament: Tournament,
) -> defaultdict[int, dict[str, ResultVersion]]:
    """The confirmed and the pending result of each table, by table id (an
    empty dict for a table with neither)."""
    versions: defaultdict[int, dict[str, ResultVersion]] = defaultdict(dict)
    for version in ResultVersion.objects.filter(
        table__series__tournament=tournament,
        status__in=[ResultVersion.Status.CONFIRMED, ResultVersion.Status.PENDING],
    ):
        versions[version.table_id][version.status] = version
    return versions


def _column_names(keys: Sequence[str]) -> list[str]:
    names = {
        "series": _("Serie"),
        "table": _("Tisch"),
        "game": _("Spiel"),
        "seat": _("Sitz"),
        "start_number": _("Startnummer"),
        "marks": _("Schräm übrig"),
    }
    return [str(names[k]) for k in keys]


def _table_import(
    table: Table,
    series: Series,
    games: dict[int, dict[int, tuple[int, int]]],
    tournament: Tournament,
    versions: dict[str, ResultVersion],
) -> TableImport:
    item = TableImport(series=series.number, table=table.number)
    if not series.is_public:
        item.errors.append(
            _("Serie %(n)d ist noch nicht veröffentlicht.") % {"n": series.number}
        )
        return item
    for number in range(1, tournament.games_per_series + 1):
        seats = games.get(number, {})
        missing = [p for p in range(1, table.size + 1) if p not in seats]
        if missing:
            item.errors.append(
                _("Spiel %(g)d: es fehlen Zeilen für Sitz %(p)s.")
                % {"g": number, "p": ", ".join(map(str, missing))}
            )
            continue
        winners = sorted(p for p, (marks, _line) in seats.items() if marks > 0)
        if len(winners) != 1:
            message = (
                _("Spiel %(g)d: niemand hat noch Schräm – es braucht einen Gewinner.")
                if not winners
                else _(
                    "Spiel %(g)d: mehrere Spieler haben noch Schräm (Sitze "
                    "%(p)s); nur der Gewinner behält welche."
                )
            )
            item.errors.append(
                message % {"g": number, "p": ", ".join(map(str, winners))}
            )
            continue
        item.games.append((winners[0], seats[winners[0]][0]))
    if item.errors:
        return item
    # The same check the referee's entry gets.
    try:
        data = result_check(
            games=[GameInput(winner=w, marks=m) for w, m in item.games],
            table=table,
            tournament=tournament,
        )
    except UserError as error:
        item.errors.append(error.message)
        return item
    item.revision = table.result_revision
    confirmed = versions.get(ResultVersion.Status.CONFIRMED)
    if ResultVersion.Status.PENDING in versions:
        item.action = "replace_pending"
    elif confirmed is not None:
        same = winners_and_marks(confirmed.games) == winners_and_marks(data["games"])
        item.action = "same" if same else "replace"
        item.current_version = confirmed.number
    return item


def _import_table(
    actor: Actor,
    by_key: dict[tuple[int, int], Table],
    item: dict[str, Any],
    reason: str,
) -> None:
    """Enter one previewed table's result (`item`: its series, table,
    games and the revision seen); a refusal names the series and table."""
    table = by_key.get((item["series"], item["table"]))
    if table is None:
        raise UserError(
            _("Serie %(s)d, Tisch %(t)d gibt es nicht mehr.")
            % {"s": item["series"], "t": item["table"]},
            code="unknown_table",
        )
    try:
        result_enter(
            actor=actor,
            table=table,
            games=[GameInput(winner=w, marks=m) for w, m in item["games"]],
            mode=ResultVersion.Mode.IMPORT,
            revision=item["revision"],
            reason=reason,
            auto_confirm=True,
        )
    except UserError as error:
        raise UserError(
            _("Serie %(s)d, Tisch %(t)d: %(e)s")
            % {"s": item["series"], "t": item["table"], "e": error.message},
            code=error.code,
        ) from error


def games_import_apply(
    *,
    actor: Actor,
    tournament: Tournament,
    tables: Sequence[dict[str, Any]],
    filename: str,
    progress: Progress | None = None,
) -> int:
    """Enter the previewed tables' results, all or none. Each goes through
    `result_enter` (mode import, confirmed at once) with the revision seen in
    the preview: a table changed since then fails the whole import."""
    reason = _("Import aus %(file)s") % {"file": filename}
    with transaction.atomic():
        by_key = {
            (t.series.number, t.number): t
            for t in Table.objects.filter(series__tournament=tournament).select_related(
                "series"
            )
        }
        for index, item in enumerate(tables, 1):
            _import_table(actor, by_key, item, reason)
            if progress is not None:
                progress(95 * index // max(len(tables), 1))
        audit_record(
            actor=actor,
            action="results.import",
            obj=tournament,
            tournament=tournament,
            after={"file": filename, "tables": len(tables)},
            note=reason,
        )
    return len(tables)
