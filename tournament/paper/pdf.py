"""PDFs with WeasyPrint: the data of `documents` through a print
template (templates/pdf/), A4, with the fonts vendored under static/fonts.

Long documents are rendered in chunks so a background job can report
progress; the chunks are laid out in the layout process (`layout`) and
their pages joined before writing, so every font is embedded once.
Templates can load nothing but our own static files.
"""

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournament.core.download import file_name
from tournament.core.errors import UserError
from tournament.models import Tournament
from tournament.paper import documents, layout, sheets
from tournament.paper.qr import qr_svg

PDF_CONTENT_TYPE = "application/pdf"
# Score sheets per layout pass: small enough for a progress bar that moves,
# large enough that the per-pass overhead does not show (bench/paper.py).
SHEETS_PER_CHUNK = 10
KINDS = (
    "sheets",
    "seating",
    "cards",
    "playercards",
    "standings",
    "certificates",
    "poster",
)
# The poster's QR code.
POSTER_QR_MM = 125.0
MAX_CERTIFICATES = 100

Progress = Callable[[int], None]


@dataclasses.dataclass(frozen=True)
class PdfFile:
    content: bytes
    filename: str
    pages: int


def _report(progress: Progress | None, percent: int) -> None:
    if progress is not None:
        progress(max(0, min(100, percent)))


def _css_string(text: str) -> str:
    """`text` as a quoted CSS string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'"{escaped}"'


def page_footer() -> str:
    """The footer's "Seite 1 von 4" in the active language, as the value of
    a CSS `content` (words from the catalog around the page counters; the
    stylesheets are no file the catalog reads)."""
    marker = "\x00"
    text = _("Seite %(page)s von %(pages)s") % {"page": marker, "pages": marker}
    before, between, after = [*text.split(marker), "", ""][:3]
    parts = [
        _css_string(before),
        "counter(page)",
        _css_string(between),
        "counter(pages)",
        _css_string(after),
    ]
    return " ".join(part for part in parts if part != '""')


def style_texts(styles: Sequence[str], context: dict[str, Any]) -> tuple[str, ...]:
    """The shared base stylesheet and a document's own, as CSS text (they
    are templates too, for their translated labels)."""
    context = {**context, "page_footer": page_footer()}
    return tuple(
        render_to_string(name, context) for name in ("pdf/css/base.css", *styles)
    )


def render_pdf(
    template: str,
    contexts: Sequence[dict[str, Any]],
    *,
    styles: Sequence[str],
    progress: Progress | None = None,
    start: int = 5,
) -> tuple[bytes, int]:
    """Each context through `template` as one HTML document, all their
    pages as one PDF, laid out in the layout process (`layout`). Progress
    runs from `start` to 90 % over the documents; writing (font subsetting)
    is the last 10 %."""
    first = contexts[0] if contexts else {}
    draft = layout.Draft(
        documents=tuple(render_to_string(template, c) for c in contexts),
        styles=style_texts(styles, first),
    )
    count = len(draft.documents)
    content, pages = layout.lay_out_apart(
        draft, lambda done: _report(progress, start + (90 - start) * done // count)
    )
    _report(progress, 100)
    return content, pages


def document_context(
    tournament: Tournament | None, title: str, **extra: Any
) -> dict[str, Any]:
    """What every document's template gets: the tournament, the title, the
    language and the time of printing, and `extra`."""
    return {
        "tournament": tournament,
        "title": title,
        "language": translation.get_language() or settings.LANGUAGE_CODE,
        "printed_at": timezone.localtime(),
        **extra,
    }


def _filename(tournament: Tournament, *words: object) -> str:
    return file_name(tournament.slug, *words, extension="pdf")


def sheets_pdf(
    *,
    tournament: Tournament,
    series_number: int | None = None,
    filled: bool = False,
    base_url: str = "",
    table_number: int | None = None,
    progress: Progress | None = None,
) -> PdfFile:
    """Score sheets, one page per table: blank to play with, or filled from
    the confirmed results; with `base_url` (the address phones open) each
    carries the QR code of its table's page. `table_number`: that table's
    sheet alone (reprinted after a late arrival joined it)."""
    series = documents.series_for(tournament, series_number)
    data = sheets.score_sheets(
        tournament=tournament, series=series, filled=filled, base_url=base_url
    )
    if table_number is not None:
        data = dataclasses.replace(
            data, sheets=[s for s in data.sheets if s.table == table_number]
        )
        if not data.sheets:
            raise UserError(
                _("Serie %(n)d hat keinen Tisch %(t)d.")
                % {"n": series.number, "t": table_number},
                code="no_such_table",
            )
    _report(progress, 5)
    if table_number is not None:
        title = _("Spielliste Serie %(n)d, Tisch %(t)d") % {
            "n": series.number,
            "t": table_number,
        }
    elif filled:
        title = _("Spiellisten Serie %(n)d (ausgefüllt)") % {"n": series.number}
    else:
        title = _("Spiellisten Serie %(n)d") % {"n": series.number}
    step = SHEETS_PER_CHUNK
    chunks = [
        dataclasses.replace(data, sheets=data.sheets[i : i + step])
        for i in range(0, len(data.sheets), step)
    ] or [data]
    content, pages = render_pdf(
        "pdf/sheets.html",
        [document_context(tournament, title, data=chunk) for chunk in chunks],
        styles=["pdf/css/sheet.css"],
        progress=progress,
    )
    words: list[object] = [_("Spiellisten"), _("Serie"), series.number]
    if table_number is not None:
        words += [_("Tisch"), table_number]
    if filled:
        words.append(_("ausgefüllt"))
    return PdfFile(content, _filename(tournament, *words), pages)


def seating_pdf(
    *,
    tournament: Tournament,
    series_number: int | None = None,
    progress: Progress | None = None,
) -> PdfFile:
    """Seating lists for the wall: alphabetical, then table by table."""
    series = documents.series_for(tournament, series_number)
    data = documents.seating_lists(tournament=tournament, series=series)
    _report(progress, 10)
    title = _("Sitzplan Serie %(n)d") % {"n": series.number}
    content, pages = render_pdf(
        "pdf/seating.html",
        [document_context(tournament, title, data=data)],
        styles=["pdf/css/lists.css"],
        progress=progress,
        start=10,
    )
    return PdfFile(
        content, _filename(tournament, _("Sitzplan"), _("Serie"), series.number), pages
    )


def cards_pdf(
    *,
    tournament: Tournament,
    series_number: int | None = None,
    base_url: str = "",
    progress: Progress | None = None,
) -> PdfFile:
    """Table cards: the table number, huge, one per page; with `base_url`
    (the address phones in the hall open) a QR code to the table's page."""
    series = (
        documents.series_for(tournament, series_number)
        if series_number is not None
        else None
    )
    data = documents.table_cards(
        tournament=tournament, series=series, base_url=base_url
    )
    _report(progress, 10)
    content, pages = render_pdf(
        "pdf/cards.html",
        [document_context(tournament, _("Tischkarten"), data=data)],
        styles=["pdf/css/card.css"],
        progress=progress,
        start=10,
    )
    return PdfFile(content, _filename(tournament, _("Tischkarten")), pages)


def playercards_pdf(
    *,
    tournament: Tournament,
    base_url: str,
    start_number: int | None = None,
    progress: Progress | None = None,
) -> PdfFile:
    """Player cards: one per checked-in player (or the one with
    `start_number`), ten to a page, each with the QR code of the player's
    personal link (`base_url`: the address phones in the hall open)."""
    data = documents.player_cards(
        tournament=tournament, base_url=base_url, start_number=start_number
    )
    _report(progress, 10)
    content, pages = render_pdf(
        "pdf/playercards.html",
        [document_context(tournament, _("Spielerkarten"), data=data)],
        styles=["pdf/css/playercard.css"],
        progress=progress,
        start=10,
    )
    words: list[object] = [_("Spielerkarten")]
    if start_number is not None:
        words.append(start_number)
    return PdfFile(content, _filename(tournament, *words), pages)


def standings_pdf(
    *, tournament: Tournament, progress: Progress | None = None
) -> PdfFile:
    """Overall, each category's ranking and teams, with the time of the
    state."""
    data = documents.standings_document(tournament=tournament)
    _report(progress, 10)
    content, pages = render_pdf(
        "pdf/standings.html",
        [document_context(tournament, _("Tabelle"), data=data)],
        styles=["pdf/css/standings.css"],
        progress=progress,
        start=10,
    )
    stamp = data.at.strftime("%Y-%m-%d-%H%M")
    return PdfFile(content, _filename(tournament, _("Tabelle"), stamp), pages)


def certificates_pdf(
    *, tournament: Tournament, top: int = 3, progress: Progress | None = None
) -> PdfFile:
    """Certificates (Urkunden) for places 1 to `top`."""
    if not 1 <= top <= MAX_CERTIFICATES:
        raise UserError(
            _("Urkunden für die Plätze 1 bis %(max)d.") % {"max": MAX_CERTIFICATES},
            code="top_range",
        )
    data = documents.certificates(tournament=tournament, top=top)
    _report(progress, 10)
    content, pages = render_pdf(
        "pdf/certificates.html",
        [document_context(tournament, _("Urkunden"), data=data)],
        styles=["pdf/css/certificate.css"],
        progress=progress,
        start=10,
    )
    return PdfFile(content, _filename(tournament, _("Urkunden")), pages)


def poster_pdf(
    *,
    base_url: str,
    tournament: Tournament | None = None,
    tls: bool = False,
    progress: Progress | None = None,
) -> PdfFile:
    """A poster for the wall: the address phones open (`base_url`, the
    tournament's page when one is given), as a QR code and in large type,
    and how to get there; with `tls`, what the phone's warning means."""
    if not base_url:
        raise UserError(
            _(
                "Für den Aushang fehlt die Adresse, unter der die Handys die "
                "Seite finden."
            ),
            code="no_address",
        )
    url = base_url.rstrip("/") + (
        reverse("tournament:detail", kwargs={"slug": tournament.slug})
        if tournament is not None
        else "/"
    )
    content, pages = render_pdf(
        "pdf/poster.html",
        [
            {
                **document_context(tournament, _("Aushang"), url=url, tls=tls),
                "qr": qr_svg(url, size_mm=POSTER_QR_MM),
            }
        ],
        styles=["pdf/css/poster.css"],
        progress=progress,
    )
    name = file_name(
        tournament.slug if tournament else "", _("Aushang"), extension="pdf"
    )
    return PdfFile(content, name, pages)


def document_pdf(
    *,
    tournament: Tournament,
    kind: str,
    series_number: int | None = None,
    filled: bool = False,
    top: int = 3,
    base_url: str = "",
    start_number: int | None = None,
    table_number: int | None = None,
    progress: Progress | None = None,
) -> PdfFile:
    """Any of the documents by name (views, the print command, jobs);
    `base_url` is the address phones open, for the QR codes of the table
    cards, the score sheets and the player cards; `start_number` prints one
    player's card, `table_number` one table's score sheet."""
    if kind == "sheets":
        return sheets_pdf(
            tournament=tournament,
            series_number=series_number,
            filled=filled,
            base_url=base_url,
            table_number=table_number,
            progress=progress,
        )
    if kind == "playercards":
        return playercards_pdf(
            tournament=tournament,
            base_url=base_url,
            start_number=start_number,
            progress=progress,
        )
    if kind == "seating":
        return seating_pdf(
            tournament=tournament, series_number=series_number, progress=progress
        )
    if kind == "cards":
        return cards_pdf(
            tournament=tournament,
            series_number=series_number,
            base_url=base_url,
            progress=progress,
        )
    if kind == "standings":
        return standings_pdf(tournament=tournament, progress=progress)
    if kind == "certificates":
        return certificates_pdf(tournament=tournament, top=top, progress=progress)
    if kind == "poster":
        return poster_pdf(
            tournament=tournament,
            base_url=base_url,
            tls=base_url.startswith("https:"),
            progress=progress,
        )
    raise ValueError(f"unknown document kind {kind!r}")
