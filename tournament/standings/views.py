"""The standings pages (overall, each category's, teams), a player's page,
and the organizer's page that decides ties (playoff or lot)."""

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tournament.core.download import content_disposition, file_name
from tournament.core.errors import UserError
from tournament.core.lookup import with_tournament
from tournament.core.roles import organizer_required
from tournament.live import invalidation
from tournament.live.pages import (
    fragment_params,
    public_page,
    region_or_404,
    render_live_page,
)
from tournament.models import Entry, TieBreak, Tournament
from tournament.standings import selectors, tiebreaks
from tournament.standings.export import standings_csv
from tournament.standings.selectors import standings_rows


@public_page(
    invalidation.Source.STANDINGS, params=fragment_params("standings", "sort", "q")
)
@with_tournament
def standings(
    request: HttpRequest, tournament: Tournament, view: str = "overall"
) -> HttpResponse:
    """The overall standings, a category's ranking (`view`: its stored
    value) or the teams'."""
    page_region = region_or_404(
        tournament,
        "standings",
        {
            "view": view,
            "sort": request.GET.get("sort", ""),
            "q": request.GET.get("q", ""),
        },
    )
    return render_live_page(
        request,
        "tournament/standings/standings.html",
        {
            "tournament": tournament,
            "view": view,
            "category": selectors.category_named(view),
            "query": page_region.key.params.get("q", ""),
        },
        page_region,
    )


@require_GET
@with_tournament
def standings_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The standings as a CSV file German Excel opens (`export`)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    standings_csv(tournament, response)
    response["Content-Disposition"] = content_disposition(
        file_name(tournament.slug, _("Tabelle"), extension="csv")
    )
    return response


@public_page(invalidation.CONFIRMED)
@with_tournament
def player_detail(
    request: HttpRequest, tournament: Tournament, number: int
) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "team"),
        tournament=tournament,
        start_number=number,
    )
    row = next((r for r in standings_rows(tournament) if r.entry_id == entry.pk), None)
    return render(
        request,
        "tournament/standings/player_detail.html",
        {
            "tournament": tournament,
            "entry": entry,
            "row": row,
            "series_rows": selectors.player_tables(entry),
        },
    )


class TieBreakForm(forms.Form):
    method = forms.ChoiceField(
        label=gettext_lazy("Entscheidung"), choices=TieBreak.Method.choices
    )
    numbers = forms.CharField(
        label=gettext_lazy("Startnummern"),
        help_text=gettext_lazy(
            "Beim Stechen in der erreichten Reihenfolge (Sieger zuerst), "
            "durch Komma getrennt; beim Los in beliebiger Reihenfolge."
        ),
        max_length=200,
    )
    note = forms.CharField(label=gettext_lazy("Notiz"), max_length=300, required=False)

    def clean_numbers(self) -> list[int]:
        raw = self.cleaned_data["numbers"].replace(";", ",").replace(" ", ",")
        try:
            numbers = [int(part) for part in raw.split(",") if part]
        except ValueError as exc:
            raise forms.ValidationError(
                _("Bitte nur Startnummern, durch Komma getrennt.")
            ) from exc
        top = Entry.MAX_START_NUMBER
        if any(not 1 <= n <= top for n in numbers):
            raise forms.ValidationError(
                _("Startnummern gehen von 1 bis %(max)d.") % {"max": top}
            )
        return numbers


@organizer_required
@with_tournament
def tiebreak_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TieBreakForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        numbers = form.cleaned_data["numbers"]
        try:
            if form.cleaned_data["method"] == TieBreak.Method.LOT:
                result = tiebreaks.tiebreak_draw_lot(
                    actor=request.user, tournament=tournament, start_numbers=numbers
                )
            else:
                result = tiebreaks.tiebreak_record_playoff(
                    actor=request.user,
                    tournament=tournament,
                    order=numbers,
                    note=form.cleaned_data["note"],
                )
        except UserError as error:
            form.add_error("numbers", error.message)
        else:
            messages.success(
                request,
                _("Reihenfolge festgehalten: %(order)s")
                % {"order": ", ".join(map(str, result.order))},
            )
            return redirect("tournament:tiebreaks", slug=tournament.slug)
    rows = standings_rows(tournament)
    groups: dict[int, list[object]] = {}
    for row in rows:
        if row.points:
            groups.setdefault(row.rank, []).append(row)
    return render(
        request,
        "tournament/standings/tiebreaks.html",
        {
            "tournament": tournament,
            "form": form,
            "ties": [g for g in groups.values() if len(g) > 1],
            "decisions": TieBreak.objects.filter(tournament=tournament),
        },
    )
