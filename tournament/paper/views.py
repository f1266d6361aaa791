"""The organizer's paper and spreadsheet pages: print documents (PDF),
the results workbook, the import of a Games sheet, and the background jobs
that make the long ones."""

import secrets
from dataclasses import dataclass
from uuid import UUID

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)

from tournament.core.download import content_disposition
from tournament.core.errors import UserError
from tournament.core.lookup import with_tournament
from tournament.core.roles import organizer_required
from tournament.core.upload import take_preview
from tournament.core.workbook import XLSX_CONTENT_TYPE
from tournament.history import selectors as history_selectors
from tournament.models import Entry, Job, Ranking, Tournament
from tournament.paper import jobs, pdf
from tournament.paper import ranking as paper_ranking
from tournament.paper.games_import import parse_games_workbook
from tournament.paper.qr import phone_base_url
from tournament.paper.workbook import results_filename, results_workbook
from tournament.seating import selectors as seating_selectors

SESSION_KEY = "games_import"
DOCUMENTS = {
    "sheets": gettext_lazy("Spiellisten"),
    "seating": gettext_lazy("Sitzplan"),
    "cards": gettext_lazy("Tischkarten"),
    "playercards": gettext_lazy("Spielerkarten"),
    "standings": gettext_lazy("Tabelle"),
    "certificates": gettext_lazy("Urkunden"),
    "poster": gettext_lazy("Aushang mit QR-Code"),
    "xlsx": gettext_lazy("Ergebnis-Arbeitsmappe"),
}


class DocumentForm(forms.Form):
    """Which document, for which series, blank or filled, how many places."""

    document = forms.ChoiceField(choices=list(DOCUMENTS.items()))
    series = forms.IntegerField(
        required=False, min_value=1, max_value=Tournament.MAX_SERIES
    )
    filled = forms.BooleanField(required=False)
    top = forms.IntegerField(
        required=False, min_value=1, max_value=pdf.MAX_CERTIFICATES, initial=3
    )
    # One player's card (the desk), instead of every checked-in player's.
    number = forms.IntegerField(
        required=False, min_value=1, max_value=Entry.MAX_START_NUMBER
    )
    # One table's score sheet (a late arrival joined it), instead of all.
    table = forms.IntegerField(
        required=False, min_value=1, max_value=seating_selectors.MAX_TABLE
    )

    def label(self) -> str:
        return job_words(
            kind="xlsx" if self.cleaned_data["document"] == "xlsx" else "pdf",
            params=self.params(),
        ).label

    def params(self) -> dict[str, object]:
        """The document's own fields, as a job keeps them and the download
        address names them."""
        data = self.cleaned_data
        return {
            "document": data["document"],
            "series": data["series"],
            "filled": data["filled"],
            "top": data["top"] or 3,
            "number": data["number"],
        }


@dataclass(frozen=True)
class JobWords:
    """A job as the print page lists it: which document, which series,
    which variant (blank or filled score sheets, places of certificates)."""

    document: str
    series: str
    variant: str

    @property
    def label(self) -> str:
        return ", ".join(w for w in (self.document, self.series, self.variant) if w)


# Documents made for one series (the latest seated one when none is named).
SERIES_DOCUMENTS = {"sheets", "seating", "cards"}


def job_words(*, kind: str, params: dict[str, object]) -> JobWords:
    if kind == "xlsx":
        return JobWords(str(DOCUMENTS["xlsx"]), _("alle Serien"), "")
    if kind == "games_import":
        return JobWords(_("Import der Spiele"), "", str(params.get("filename", "")))
    document = str(params.get("document", ""))
    series = params.get("series")
    where = ""
    if document in SERIES_DOCUMENTS:
        if series:
            where = _("Serie %(n)s") % {"n": series}
        elif document == "cards":
            where = _("alle Tische")
        else:
            where = _("neueste Serie")
    variant = ""
    if document == "sheets":
        variant = _("ausgefüllt") if params.get("filled") else _("leer")
    elif document == "certificates":
        variant = _("Plätze 1–%(n)s") % {"n": params.get("top") or 3}
    elif document == "playercards":
        number = params.get("number")
        variant = _("Nr. %(n)s") % {"n": number} if number else _("alle Anwesenden")
    return JobWords(str(DOCUMENTS.get(document, document)), where, variant)


@dataclass(frozen=True)
class JobLine:
    job: Job
    progress: int
    words: JobWords


class GamesImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Datei (Excel, LibreOffice oder CSV)"),
        help_text=gettext_lazy(
            "Ein Blatt „Spiele“ mit den Spalten Serie, Tisch, Spiel, Sitz, "
            "Startnummer, Name, Schräm übrig, Punkte – wie in der "
            "Ergebnis-Arbeitsmappe."
        ),
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ".xlsx,.xls,.ods,.csv,application/vnd.openxmlformats-"
                "officedocument.spreadsheetml.sheet,application/vnd.ms-excel,"
                "application/vnd.oasis.opendocument.spreadsheet,text/csv"
            }
        ),
    )


def _job(tournament: Tournament, job_id: UUID) -> Job:
    return jobs.job_refresh(get_object_or_404(Job, pk=job_id, tournament=tournament))


@organizer_required
@require_GET
@with_tournament
def paper(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    series = [s for s in seating_selectors.series_list(tournament) if s.is_seated]
    recent = [jobs.job_refresh(job) for job in jobs.jobs_recent(tournament)]
    return render(
        request,
        "tournament/paper/paper.html",
        {
            "tournament": tournament,
            "series": series,
            "latest": series[-1].number if series else None,
            "phone_address": _phone_address(request),
            "jobs": [
                JobLine(
                    job,
                    jobs.job_progress(job),
                    job_words(kind=job.kind, params=job.params),
                )
                for job in recent
            ],
        },
    )


def _phone_address(request: HttpRequest) -> str:
    """The address phones in the hall open (table cards' QR codes)."""
    return phone_base_url(
        scheme=request.scheme or "http",
        host=request.get_host(),
        allowed_hosts=settings.ALLOWED_HOSTS,
    )


@organizer_required
@require_http_methods(["GET", "POST"])
@with_tournament
def paper_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A document made right away: the print page's "Sofort öffnen" posts
    its form here (so its CSRF token never stands in an address); the same
    fields as a query make a link to it."""
    form = DocumentForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        messages.error(request, _("Unbekanntes Dokument oder ungültige Angaben."))
        return redirect("tournament:paper", slug=tournament.slug)
    data = form.cleaned_data
    try:
        if data["document"] == "xlsx":
            content = results_workbook(tournament=tournament)
            filename, content_type = results_filename(tournament), XLSX_CONTENT_TYPE
        else:
            document = pdf.document_pdf(
                tournament=tournament,
                kind=data["document"],
                series_number=data["series"],
                filled=data["filled"],
                top=data["top"] or 3,
                base_url=_phone_address(request),
                start_number=data["number"],
                table_number=data["table"],
            )
            content, filename = document.content, document.filename
            content_type = pdf.PDF_CONTENT_TYPE
    except UserError as error:
        messages.error(request, error.message)
        return redirect("tournament:paper", slug=tournament.slug)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition(
        filename, attachment=content_type != pdf.PDF_CONTENT_TYPE
    )
    return response


@organizer_required
@require_POST
@with_tournament
def paper_job_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The print page's "Im Hintergrund erstellen": a background job."""
    form = DocumentForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unbekanntes Dokument oder ungültige Angaben."))
        return redirect("tournament:paper", slug=tournament.slug)
    data = form.cleaned_data
    if data["document"] == "xlsx":
        kind, params = "xlsx", {}
    else:
        kind = "pdf"
        params = {**form.params(), "base_url": _phone_address(request)}
    job = jobs.job_start(
        actor=request.user,
        tournament=tournament,
        kind=kind,
        label=form.label(),
        params=params,
    )
    return redirect("tournament:paper_job", slug=tournament.slug, job_id=job.pk)


@organizer_required
@require_GET
@with_tournament
def paper_job(
    request: HttpRequest, tournament: Tournament, job_id: UUID
) -> HttpResponse:
    job = _job(tournament, job_id)
    return render(
        request,
        "tournament/paper/job.html",
        {"tournament": tournament, "job": job, "progress": jobs.job_progress(job)},
    )


@organizer_required
@require_GET
@with_tournament
def paper_job_status(
    request: HttpRequest, tournament: Tournament, job_id: UUID
) -> JsonResponse:
    """What the job page polls."""
    job = _job(tournament, job_id)
    has_file = jobs.job_file(job) is not None
    return JsonResponse(
        {
            "status": job.status,
            "status_label": str(job.get_status_display()),
            "progress": jobs.job_progress(job),
            "message": job.message,
            "finished": job.is_finished,
            "download": reverse(
                "tournament:paper_job_file",
                kwargs={"slug": tournament.slug, "job_id": job.pk},
            )
            if has_file
            else None,
        }
    )


@organizer_required
@require_GET
@with_tournament
def paper_job_file(
    request: HttpRequest, tournament: Tournament, job_id: UUID
) -> HttpResponse:
    """The job's file, read whole in the request's thread: under ASGI Django
    reads a file's synchronous iterator whole anyway, in a thread of its own
    and with a warning, and a job's PDF or workbook is a few megabytes."""
    job = _job(tournament, job_id)
    path = jobs.job_file(job)
    if path is None:
        raise Http404
    response = HttpResponse(path.read_bytes(), content_type=job.content_type)
    response["Content-Disposition"] = content_disposition(
        job.file_name, attachment=job.content_type != pdf.PDF_CONTENT_TYPE
    )
    return response


@organizer_required
@with_tournament
def games_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a workbook and see what its Games sheet would do; nothing is
    written before the organizer confirms."""
    form = GamesImportForm(request.POST or None, request.FILES or None)
    preview = None
    token = ""
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        preview = parse_games_workbook(
            upload, size=upload.size, filename=upload.name, tournament=tournament
        )
        request.session.pop(SESSION_KEY, None)
        if preview.ok and preview.to_import:
            token = secrets.token_urlsafe(16)
            request.session[SESSION_KEY] = {
                "token": token,
                "tournament": tournament.pk,
                "filename": upload.name[:100],
                "tables": preview.payload(),
            }
    return render(
        request,
        "tournament/paper/import.html",
        {"tournament": tournament, "form": form, "preview": preview, "token": token},
    )


@organizer_required
@require_POST
@with_tournament
def games_import_confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    pending = take_preview(request, SESSION_KEY, tournament)
    if pending is None:
        return redirect("tournament:games_import", slug=tournament.slug)
    job = jobs.job_start(
        actor=request.user,
        tournament=tournament,
        kind="games_import",
        label=_("Import der Spiele aus %(file)s") % {"file": pending["filename"]},
        params={
            "tables": pending["tables"],
            "filename": pending["filename"],
            "actor": request.user.pk,
        },
    )
    return redirect("tournament:paper_job", slug=tournament.slug, job_id=job.pk)


@organizer_required
@require_GET
def ranking_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """A season ranking as PDF, to print and hang up."""
    table = history_selectors.ranking_table(get_object_or_404(Ranking, slug=slug))
    document = paper_ranking.ranking_pdf(table=table)
    response = HttpResponse(document.content, content_type=pdf.PDF_CONTENT_TYPE)
    response["Content-Disposition"] = content_disposition(
        document.filename, attachment=False
    )
    return response


@organizer_required
@require_GET
def ranking_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    """A season ranking as a workbook."""
    table = history_selectors.ranking_table(get_object_or_404(Ranking, slug=slug))
    content, filename = paper_ranking.ranking_workbook(table=table)
    response = HttpResponse(content, content_type=XLSX_CONTENT_TYPE)
    response["Content-Disposition"] = content_disposition(filename)
    return response
