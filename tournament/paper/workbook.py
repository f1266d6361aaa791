"""The results workbook: players, the seating of every series, every game
(one row per player per game) and the tables the standings PDF has
(overall, each category with players, teams), as .xlsx for the federation
and the local paper.

The Games sheet is also what `tournament.paper.games_import` reads back, so a
tournament scored elsewhere can be imported and an exported one re-imported
unchanged. Only confirmed results are exported; nothing is computed here:
every number is the standings' own value, not a formula (a program that
does not recalculate, or a newspaper's import, would read a formula
empty). A series a player has no confirmed result in stays blank. A
withdrawn player carries the mark the standings show ("abgemeldet (nach
Serie 2, Spiel 2)"); the reason the desk typed stays on the site.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from tournament.core.download import file_name
from tournament.core.workbook import workbook_bytes, write_table
from tournament.models import Entry, GameScore, Seat, Tournament
from tournament.standings.selectors import (
    Row,
    categories,
    category_rows,
    export_cells,
    export_headers,
    standings_rows,
    team_rows,
)

Progress = Callable[[int], None]
INTEGER = "0"


@dataclass
class Played:
    """What the Games sheet found, for the sheets after it: the series each
    start number has a confirmed result in."""

    series: set[tuple[int, int]] = field(default_factory=set)


def games_headers() -> list[str]:
    """The Games sheet's columns (the import accepts these, in German or
    English, in any order)."""
    return [
        _("Serie"),
        _("Tisch"),
        _("Spiel"),
        _("Sitz"),
        _("Startnummer"),
        _("Name"),
        _("Schräm übrig"),
        _("Punkte"),
    ]


def games_sheet_title() -> str:
    return _("Spiele")


def _players(workbook: Workbook, tournament: Tournament, played: Played) -> None:
    sheet = workbook.active
    assert isinstance(sheet, Worksheet)  # a new workbook has one
    sheet.title = _("Spieler")[:31]
    entries = (
        Entry.objects.filter(tournament=tournament)
        .select_related("player", "team")
        .order_by("start_number")
    )
    write_table(
        sheet,
        [
            _("Startnummer"),
            _("Vorname"),
            _("Nachname"),
            _("Verein"),
            _("Ort"),
            _("Kategorie"),
            _("Mannschaft"),
            _("Abmeldung"),
        ],
        (
            [
                e.start_number,
                e.player.first_name,
                e.player.last_name,
                e.player.club,
                e.player.town,
                e.player.get_category_display(),
                e.team.name if e.team else "",
                e.withdrawal_text,
            ]
            for e in entries
        ),
        number_formats={1: INTEGER},
    )


def _seating(workbook: Workbook, tournament: Tournament, played: Played) -> None:
    """One sheet per seated series: table, seat, player."""
    seats = (
        Seat.objects.filter(series__tournament=tournament)
        .seated()
        .select_related("series", "table", "entry__player")
        .order_by("series__number", "table__number", "number")
    )
    by_series: dict[int, list[list[Any]]] = {}
    for seat in seats:
        by_series.setdefault(seat.series.number, []).append(
            [
                seat.table.number,
                seat.number,
                seat.entry.start_number,
                seat.entry.player.full_name,
                seat.entry.player.club,
            ]
        )
    for number, rows in sorted(by_series.items()):
        sheet = workbook.create_sheet((_("Setzung Serie %(n)d") % {"n": number})[:31])
        write_table(
            sheet,
            [_("Tisch"), _("Sitz"), _("Startnummer"), _("Name"), _("Verein")],
            rows,
            number_formats={1: INTEGER, 2: INTEGER, 3: INTEGER},
        )


def _games(workbook: Workbook, tournament: Tournament, played: Played) -> None:
    scores = list(
        GameScore.objects.filter(series__tournament=tournament)
        .order_by("series__number", "table__number", "game", "seat")
        .values_list(
            "series__number",
            "table__number",
            "game",
            "seat",
            "entry__start_number",
            "entry__player__first_name",
            "entry__player__last_name",
            "marks",
            "points",
        )
    )
    played.series.update((number, series) for series, _, _, _, number, *_ in scores)
    sheet = workbook.create_sheet(games_sheet_title()[:31])
    write_table(
        sheet,
        games_headers(),
        (
            [series, table, game, seat, number, f"{first} {last}", marks, points]
            for series, table, game, seat, number, first, last, marks, points in scores
        ),
        number_formats={c: INTEGER for c in (1, 2, 3, 4, 5, 7, 8)},
    )


def _standings(workbook: Workbook, tournament: Tournament, played: Played) -> None:
    """The standings PDF's tables, one sheet each: overall ("Tabelle"),
    each category with players (their overall places, as on paper), the
    teams."""
    rows = standings_rows(tournament)
    count = tournament.series_count
    headers = export_headers(count)
    numbers = {c: INTEGER for c in (1, 2, *range(6, 6 + count + 2))}

    def table(title: str, part: list[Row]) -> None:
        write_table(
            workbook.create_sheet(title[:31]),
            headers,
            (export_cells(r, count, played.series) for r in part),
            number_formats=numbers,
        )

    table(_("Tabelle"), rows)
    for category in categories():
        found = category_rows(rows, category.value)
        if found:
            table(str(category.title), found)
    teams = team_rows(tournament, rows)
    if teams:
        write_table(
            workbook.create_sheet(_("Mannschaftswertung")[:31]),
            [_("Platz"), _("Mannschaft"), _("Punkte"), _("Spieler")],
            ([t.rank, t.name, t.points, ", ".join(t.members)] for t in teams),
            number_formats={1: INTEGER, 3: INTEGER},
        )


def results_workbook(
    *, tournament: Tournament, progress: Progress | None = None
) -> bytes:
    """The whole tournament as one workbook (5 queries)."""
    workbook = Workbook()
    workbook.properties.title = tournament.name
    workbook.properties.creator = "Siebenschräm"
    workbook.properties.created = timezone.now().replace(tzinfo=None)
    played = Played()
    steps: list[Callable[[Workbook, Tournament, Played], None]] = [
        _players,
        _seating,
        _games,
        _standings,
    ]
    for index, step in enumerate(steps, 1):
        step(workbook, tournament, played)
        if progress is not None:
            progress(90 * index // len(steps))
    content = workbook_bytes(workbook)
    if progress is not None:
        progress(100)
    return content


def results_filename(tournament: Tournament) -> str:
    stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M")
    return file_name(tournament.slug, _("Ergebnisse"), stamp, extension="xlsx")
