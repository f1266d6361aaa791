"""Result entry for referees (enter, confirm, reject, correct), tie
decisions for the organizer, and a series' results for everybody."""

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.core.errors import UserError
from tournament.core.idempotency import idempotent
from tournament.core.lookup import with_tournament
from tournament.core.roles import (
    is_organizer,
    tournament_referee_required,
)
from tournament.live.fragments import (
    FRAGMENTS,
    FragmentKey,
    region,
)
from tournament.live.invalidation import Source
from tournament.live.pages import public_page, region_or_404, render_live_page
from tournament.models import ResultVersion, Table, Tournament
from tournament.results import selectors, services
from tournament.results.forms import (
    ResultForm,
    result_initial,
    save_entered,
    saved_message,
    table_result_form,
)
from tournament.results.selectors import table_or_404
from tournament.seating import selectors as seating_selectors


def _table(request: HttpRequest, slug: str, series: int, table: int) -> Table:
    """A table for result entry. Until its series is released the seating is
    the organizer's alone: for anybody else the table does not exist."""
    table_obj = table_or_404(slug, series, table)
    if not table_obj.series.is_public and not is_organizer(request.user):
        raise Http404
    return table_obj


@tournament_referee_required
@with_tournament
def entry_overview(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # The progress is the staff live region: rendered once per state of the
    # tournament (its ETag) for every referee, not once per page view.
    progress = region(tournament, FragmentKey(FRAGMENTS["progress"], {}))
    return render(
        request,
        "tournament/results/overview.html",
        {"tournament": tournament, "live": progress},
    )


def _enter(
    request: HttpRequest, form: ResultForm, table: Table
) -> ResultVersion | None:
    """Save the posted games; or show every mistake of every game beside
    it (returns None), keeping all that was typed."""
    try:
        return save_entered(
            form,
            table,
            lambda games, data: services.result_enter(
                actor=request.user,
                table=table,
                games=games,
                mode=data["mode"],
                revision=data["revision"],
                reason=data["reason"],
            ),
        )
    except UserError as error:
        form.add_refusal(error)
        return None


@tournament_referee_required
@idempotent
def table_result(
    request: HttpRequest, slug: str, series: int, table: int
) -> HttpResponse:
    table_obj = _table(request, slug, series, table)
    versions = list(selectors.result_versions(table_obj))
    pending = next((v for v in versions if v.status == "pending"), None)
    confirmed = next((v for v in versions if v.status == "confirmed"), None)
    correction = confirmed is not None
    if request.method == "POST":
        form = table_result_form(table_obj, request.POST, correction=correction)
        version = _enter(request, form, table_obj)
        if version is not None:
            messages.success(request, saved_message(version))
            return redirect("tournament:results", slug=slug)
    else:
        form = table_result_form(
            table_obj,
            initial=result_initial(table_obj, pending or confirmed),
            correction=correction,
        )
    return _table_page(
        request,
        table_obj,
        form,
        versions=versions,
        pending=pending,
        confirmed=confirmed,
    )


def _table_page(
    request: HttpRequest,
    table_obj: Table,
    form: ResultForm,
    *,
    versions: list[ResultVersion],
    pending: ResultVersion | None,
    confirmed: ResultVersion | None,
) -> HttpResponse:
    """A table's result page: its result confirmed and waiting, the form,
    the reviews it needs, and for the organizer every version."""
    # A table with a result shows it; the form to change it opens on request
    # (or with the mistakes of a save).
    form_open = (
        request.method == "POST"
        or (pending is None and confirmed is None)
        or "korrigieren" in request.GET
    )
    return render(
        request,
        "tournament/results/table_result.html",
        {
            "tournament": table_obj.series.tournament,
            "series": table_obj.series,
            "table": table_obj,
            "form": form,
            "form_open": form_open,
            "pending": pending,
            "confirmed": confirmed,
            "confirmed_points": (
                selectors.table_points(table_obj, confirmed) if confirmed else None
            ),
            "can_confirm": pending is not None
            and pending.entered_by_id != request.user.pk,
            "versions": versions if is_organizer(request.user) else [],
            # A player's Stimmt nicht, or a referee's entry that differs
            # from the table's own: both versions side by side.
            "reviews": selectors.table_reviews(
                table_obj.series.tournament, table=table_obj
            ),
            "seats": list(table_obj.seats.all()),
        },
    )


class DecisionForm(forms.Form):
    version = forms.IntegerField(min_value=1)
    revision = forms.IntegerField(min_value=0)
    reason = forms.CharField(max_length=300, required=False)


def _decide(
    request: HttpRequest, slug: str, series: int, table: int, confirm: bool
) -> HttpResponse:
    table_obj = _table(request, slug, series, table)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Ungültige Anfrage. Bitte die Seite neu laden."))
        return redirect(
            "tournament:table_result", slug=slug, series=series, table=table
        )
    version = get_object_or_404(
        ResultVersion, table=table_obj, number=form.cleaned_data["version"]
    )
    try:
        if confirm:
            services.result_confirm(
                actor=request.user,
                version=version,
                revision=form.cleaned_data["revision"],
            )
            messages.success(
                request, _("Ergebnis von Tisch %(t)d bestätigt.") % {"t": table}
            )
        else:
            services.result_reject(
                actor=request.user,
                version=version,
                revision=form.cleaned_data["revision"],
                reason=form.cleaned_data["reason"],
            )
            messages.success(
                request, _("Eingabe abgelehnt; der Tisch wartet auf eine neue Eingabe.")
            )
    except UserError as error:
        messages.error(request, error.message)
        return redirect(
            "tournament:table_result", slug=slug, series=series, table=table
        )
    return redirect("tournament:results", slug=slug)


@tournament_referee_required
@require_POST
@idempotent
def result_confirm(
    request: HttpRequest, slug: str, series: int, table: int
) -> HttpResponse:
    return _decide(request, slug, series, table, confirm=True)


@tournament_referee_required
@require_POST
@idempotent
def result_reject(
    request: HttpRequest, slug: str, series: int, table: int
) -> HttpResponse:
    return _decide(request, slug, series, table, confirm=False)


@public_page(Source.RESULTS)
@with_tournament
def series_results(
    request: HttpRequest, tournament: Tournament, number: int
) -> HttpResponse:
    series = seating_selectors.public_series_or_404(tournament, number)
    return render_live_page(
        request,
        "tournament/results/series_results.html",
        {"tournament": tournament, "series": series},
        region_or_404(tournament, "results", {"series": str(number)}),
    )
