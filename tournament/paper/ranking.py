"""A season ranking on paper: the PDF (through the print template and
WeasyPrint, as every document) and the workbook (texts as text, never as
formulas). Neither computes anything: both print `history.ranking_table`."""

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from tournament.core.download import file_name
from tournament.core.workbook import workbook_bytes, write_table
from tournament.history.selectors import RankingTable
from tournament.models import Ranking
from tournament.paper.pdf import PdfFile, document_context, render_pdf


def _filename(ranking: Ranking, extension: str) -> str:
    stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M")
    return file_name(ranking.slug, _("Wertung"), stamp, extension=extension)


def ranking_pdf(*, table: RankingTable) -> PdfFile:
    ranking = table.ranking
    content, pages = render_pdf(
        "pdf/ranking.html",
        [document_context(None, ranking.name, table=table)],
        styles=["pdf/css/standings.css", "pdf/css/ranking.css"],
    )
    return PdfFile(content, _filename(ranking, "pdf"), pages)


def ranking_workbook(*, table: RankingTable) -> tuple[bytes, str]:
    """The ranking as .xlsx: a row per person, a column per tournament (its
    value; a dropped one in brackets), then the tournaments."""
    workbook = Workbook()
    sheet = workbook.active
    assert isinstance(sheet, Worksheet)
    sheet.title = _("Wertung")[:31]
    headers = [
        _("Platz"),
        _("Name"),
        _("Verein"),
        *(f"{t.date:%d.%m.%Y} {t.name}" for t in table.tournaments),
        _("Punkte"),
        _("Gezählte Ergebnisse"),
    ]
    rows = [
        [
            row.rank,
            row.name,
            row.club,
            *(
                None
                if cell.value is None
                else cell.value
                if cell.counted
                else f"({cell.value})"
                for cell in row.cells
            ),
            row.points,
            row.counted,
        ]
        for row in table.rows
    ]
    write_table(sheet, headers, rows)
    tournaments = workbook.create_sheet(_("Turniere")[:31])
    write_table(
        tournaments,
        [_("Datum"), _("Turnier"), _("Ort"), _("Stand")],
        [
            [
                t.date,
                t.name,
                t.venue,
                _("Endstand")
                if final
                else _("läuft")
                if started
                else _("noch nicht gespielt"),
            ]
            for t, started, final in table.columns
        ],
        number_formats={1: "DD.MM.YYYY"},
    )
    return workbook_bytes(workbook), _filename(table.ranking, "xlsx")
