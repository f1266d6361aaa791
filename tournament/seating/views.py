"""Organizer: seat a series, check its quality, swap players, release it."""

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournament.core.errors import UserError
from tournament.core.roles import organizer_required
from tournament.live.pages import region_or_404, render_live_page
from tournament.models import Entry, Series, Tournament
from tournament.seating import selectors
from tournament.seating import services as seating_service


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=0)


class SwapForm(VersionForm):
    a = forms.IntegerField(
        label=gettext_lazy("Startnummer"),
        min_value=1,
        max_value=Entry.MAX_START_NUMBER,
    )
    b = forms.IntegerField(
        label=gettext_lazy("tauschen mit Startnummer"),
        min_value=1,
        max_value=Entry.MAX_START_NUMBER,
    )


def _series(slug: str, number: int) -> Series:
    return get_object_or_404(
        Series.objects.select_related("tournament"),
        tournament__slug=slug,
        number=number,
    )


@organizer_required
def series_overview(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    seating_service.series_ensure(tournament=tournament, actor=request.user)
    return render(
        request,
        "tournament/seating/series_overview.html",
        {
            "tournament": tournament,
            "series_list": selectors.series_list(tournament),
            "players": len(seating_service.seated_players(tournament)),
        },
    )


@organizer_required
def series_manage(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(slug, number)
    return render(
        request,
        "tournament/seating/series_manage.html",
        {
            "tournament": series.tournament,
            "series": series,
            "tables": selectors.series_tables(series),
            "swap_form": SwapForm(initial={"version": series.version}),
            "repeated": selectors.repeated_meetings(series),
            "players": len(seating_service.seated_players(series.tournament)),
        },
    )


def _run(request: HttpRequest, action: Callable[[], object], success: str) -> None:
    try:
        action()
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)


@organizer_required
@require_POST
def series_seat(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(slug, number)
    form = VersionForm(request.POST)
    version = form.cleaned_data["version"] if form.is_valid() else None
    new_lot = request.POST.get("new_lot") == "1"
    _run(
        request,
        lambda: seating_service.series_seat(
            actor=request.user, series=series, new_lot=new_lot, version=version
        ),
        _("Serie %(n)d ist ausgelost.") % {"n": number},
    )
    return redirect("tournament:series_manage", slug=slug, number=number)


@organizer_required
@require_POST
def series_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(slug, number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Bitte zwei Startnummern angeben."))
        return redirect("tournament:series_manage", slug=slug, number=number)
    entries = {
        e.start_number: e
        for e in Entry.objects.filter(
            tournament=series.tournament,
            start_number__in=[form.cleaned_data["a"], form.cleaned_data["b"]],
        )
    }
    missing = [
        n for n in (form.cleaned_data["a"], form.cleaned_data["b"]) if n not in entries
    ]
    if missing:
        messages.error(
            request, _("Startnummer %(n)d gibt es nicht.") % {"n": missing[0]}
        )
        return redirect("tournament:series_manage", slug=slug, number=number)
    _run(
        request,
        lambda: seating_service.series_swap(
            actor=request.user,
            series=series,
            entry_a=entries[form.cleaned_data["a"]],
            entry_b=entries[form.cleaned_data["b"]],
            version=form.cleaned_data["version"],
        ),
        _("Plätze getauscht."),
    )
    series.refresh_from_db()
    repeats = (series.quality or {}).get("repeated_pairs") or 0
    if repeats:
        messages.warning(
            request,
            _("Achtung: %(n)d Paare treffen sich mehr als einmal.") % {"n": repeats},
        )
    return redirect("tournament:series_manage", slug=slug, number=number)


@organizer_required
@require_POST
def series_release(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(slug, number)
    form = VersionForm(request.POST)
    version = form.cleaned_data["version"] if form.is_valid() else None
    _run(
        request,
        lambda: seating_service.series_release(
            actor=request.user, series=series, version=version
        ),
        _("Serie %(n)d ist veröffentlicht.") % {"n": number},
    )
    return redirect("tournament:series_manage", slug=slug, number=number)


def series_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating of a released series, by table (for the wall and phones)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    series = selectors.public_series_or_404(tournament, number)
    return render_live_page(
        request,
        "tournament/seating/series_detail.html",
        {"tournament": tournament, "series": series},
        region_or_404(tournament, "seating", {"series": str(number)}),
    )


def where_do_i_sit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    page_region = region_or_404(tournament, "where", {"q": request.GET.get("q", "")})
    return render_live_page(
        request,
        "tournament/seating/where.html",
        {"tournament": tournament, "query": page_region.key.params.get("q", "")},
        page_region,
    )
