"""Organizer: seat a series, check its quality, swap players, release it."""

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from tournament.core.back import back_url
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
from tournament.models import Entry, Series, Tournament
from tournament.registration import selectors as registration_selectors
from tournament.seating import selectors, services


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=0)


class ReleaseForm(VersionForm):
    reason = forms.CharField(
        label=gettext_lazy("Grund"),
        max_length=300,
        required=False,
        help_text=gettext_lazy("Wird im Protokoll festgehalten."),
    )


class LateSeatForm(VersionForm):
    """A late arrival's seat: the table of three whose free seat he takes."""

    table = forms.IntegerField(min_value=1, max_value=selectors.MAX_TABLE)


class ChoiceForm(VersionForm):
    """One of the draws offered: its seed and the fingerprint of what the
    page showed of it."""

    seed = forms.CharField(max_length=64)
    digest = forms.CharField(max_length=64)


class SwapPickForm(forms.Form):
    """The swap's first step: which two players (start numbers)."""

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


class SwapForm(VersionForm, SwapPickForm):
    """The swap's second step, after the page named both players."""


def _series(slug: str, number: int) -> Series:
    return get_object_or_404(
        Series.objects.select_related("tournament"),
        tournament__slug=slug,
        number=number,
    )


@organizer_required
@with_tournament
def series_overview(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    services.series_ensure(tournament=tournament, actor=request.user)
    return render(
        request,
        "tournament/seating/series_overview.html",
        {
            "tournament": tournament,
            "series_list": selectors.series_list(tournament),
            "players": len(services.seated_players(tournament)),
        },
    )


def _swap_preview(series: Series, form: SwapPickForm) -> dict[str, object] | None:
    """Both players of a swap with their table and seat, or why the swap
    cannot be (for the page to say before anything is changed)."""
    if not form.is_bound:
        return None
    if not form.is_valid():
        return {"error": _("Bitte zwei Startnummern angeben.")}
    a, b = form.cleaned_data["a"], form.cleaned_data["b"]
    if a == b:
        return {"error": _("Bitte zwei verschiedene Spieler wählen.")}
    seats = selectors.seats_of(series, [a, b])
    for number in (a, b):
        if number not in seats:
            missing: dict[str, object] = {
                "error": _("Startnummer %(n)d sitzt nicht in Serie %(s)d.")
                % {"n": number, "s": series.number}
            }
            if series.status in services.LATE_JOINABLE:
                # Came after the release? A swap moves only the seated; his
                # way in is the free seat of a table of three.
                missing["late"] = number
            return missing
    if seats[a].table_id == seats[b].table_id:
        return {
            "error": _(
                "%(a)s und %(b)s sitzen beide an Tisch %(t)d: ein Tausch am "
                "selben Tisch änderte nur die Sitze, nicht die Gegner."
            )
            % {
                "a": seats[a].entry.player.full_name,
                "b": seats[b].entry.player.full_name,
                "t": seats[a].table.number,
            }
        }
    before, after = services.swap_effect(
        series=series, a=seats[a].entry_id, b=seats[b].entry_id
    )
    return {"a": seats[a], "b": seats[b], "before": before, "after": after}


def _late_choice(
    request: HttpRequest, series: Series, entry: Entry, back: str
) -> HttpResponse:
    """The late arrival's choice made: he sits the series out, or takes a
    table of three's free seat (then his table's sheet to print again);
    back to `back`, or to the choices again with what went wrong."""
    name = entry.player.full_name
    number = series.number
    if request.POST.get("choice") == "sit_out":
        messages.info(
            request,
            _(
                "%(name)s setzt Serie %(n)d aus und bekommt für sie keine "
                "Punkte. Die nächste Auslosung setzt ihn."
            )
            % {"name": name, "n": number},
        )
        return redirect(back)
    form = LateSeatForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Bitte einen Dreiertisch wählen."))
    else:
        try:
            table = services.series_seat_late(
                actor=request.user,
                series=series,
                entry=entry,
                table_number=form.cleaned_data["table"],
                version=form.cleaned_data["version"],
            )
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _late_seated(series, name, table.number))
            return redirect(back)
    return redirect(f"{request.path}?{urlencode({'next': back})}")


def _late_seated(series: Series, name: str, table: int) -> SafeString:
    """What the organizer reads when a late arrival took a free seat: the
    table's sheet was printed without him, so his name by hand, or that one
    sheet printed again (the link)."""
    slug = series.tournament.slug
    sheet = reverse("tournament:paper_download", kwargs={"slug": slug})
    sheet_of_table: dict[str, str | int] = {
        "document": "sheets",
        "series": series.number,
        "table": table,
    }
    query = urlencode(sheet_of_table)
    return format_html(
        '{} <a href="{}?{}" target="_blank">{}</a>',
        _(
            "%(name)s spielt in Serie %(n)d an Tisch %(t)d mit, "
            "auf Sitz 4: er gibt zuerst und führt die Spielliste. "
            "Bitte seinen Namen auf der Spielliste des Tisches "
            "ergänzen, oder sie neu drucken:"
        )
        % {"name": name, "n": series.number, "t": table},
        sheet,
        query,
        _("Spielliste von Tisch %(t)d drucken") % {"t": table},
    )


@organizer_required
def series_late(
    request: HttpRequest, slug: str, number: int, start_number: int
) -> HttpResponse:
    """A player checked in after the series was released: what follows, and
    his choice: the free seat of a table of three that has not begun, or
    sitting this series out (the next draw seats him)."""
    series = _series(slug, number)
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        tournament=series.tournament,
        start_number=start_number,
    )
    back = back_url(request, reverse("tournament:entry_list", kwargs={"slug": slug}))
    if request.method == "POST":
        return _late_choice(request, series, entry, back)
    seat = selectors.seats_of(series, [start_number]).get(start_number)
    return render(
        request,
        "tournament/seating/late_arrival.html",
        {
            "tournament": series.tournament,
            "series": series,
            "entry": entry,
            "seat": seat,
            "present": entry.checked_in and entry.withdrawn_at is None,
            "running": series.status in services.LATE_JOINABLE,
            "choices": selectors.late_choices(series),
            "drawn": registration_selectors.missed_series(entry)["drawn"],
            "next": back,
        },
    )


def _redraw(
    request: HttpRequest,
    series: Series,
    report: selectors.SeatingReport | None,
    *,
    waiting: bool,
) -> dict[str, object]:
    """What the series page says of a draw that had to trade (repeats, club
    mates at a table, tables of three): why (`reasons`), whether other draws
    are offered (`offer`), and those draws once asked for (`options`).

    They are offered for a series drawn by lot and not yet released, the
    first one too; not while something else is `waiting`: the field changed
    since the draw (draw again first) or a swap waits to be confirmed."""
    trades = bool(
        report
        and (
            report["repeats"]
            or report["club_tables"]
            or report["three_again"]
            or (series.quality or {}).get("repeated_meetings")
        )
    )
    # A series by the standings says in its report which rule decided.
    if not trades or series.mode == Series.Mode.STANDINGS:
        return {"reasons": None, "offer": False, "options": None}
    offer = (
        series.status == Series.Status.SEATED
        and series.mode == Series.Mode.LOT
        and not waiting
    )
    options = None
    if offer and request.GET.get("vergleichen") == "1":
        try:
            options = services.draw_options(series=series)
        except UserError as error:
            messages.error(request, error.message)
    return {
        "reasons": selectors.redraw_reasons(series),
        "offer": offer,
        "options": options,
    }


@organizer_required
def series_manage(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(slug, number)
    tables = selectors.series_tables(series)
    seated = series.is_seated
    # Only a seated series can still be drawn again; a released one is
    # played as it is (a late arrival takes the free seat of a table of
    # three that has not begun, or the next draw seats him).
    watch = (Series.Status.SEATED, Series.Status.RELEASED, Series.Status.PLAYING)
    changes = selectors.field_changes(series) if series.status in watch else None
    pick = SwapPickForm(request.GET if "a" in request.GET else None)
    swap = _swap_preview(series, pick)
    report = selectors.seating_report(series, tables) if seated else None
    changed = bool(changes and any(changes.values()))
    worse = (
        services.swapped_worse(series)
        if series.status == Series.Status.SEATED
        else None
    )
    redraw = _redraw(
        request, series, report, waiting=changed or bool(swap and "a" in swap)
    )
    return render(
        request,
        "tournament/seating/series_manage.html",
        {
            "tournament": series.tournament,
            "series": series,
            "tables": tables,
            "swap_form": pick,
            "swap": swap,
            "report": report,
            **redraw,
            "changes": changes if changed else None,
            "worse": services.worse_text(*worse) if worse else "",
            "release_form": ReleaseForm(initial={"version": series.version}),
            "players": len(services.seated_players(series.tournament)),
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
    if request.POST.get("mode") == Series.Mode.STANDINGS:
        _run(
            request,
            lambda: services.series_seat_by_standings(
                actor=request.user, series=series, version=version
            ),
            _("Serie %(n)d ist nach Tabelle gesetzt.") % {"n": number},
        )
        return redirect("tournament:series_manage", slug=slug, number=number)
    new_lot = request.POST.get("new_lot") == "1"
    _run(
        request,
        lambda: services.series_seat(
            actor=request.user, series=series, new_lot=new_lot, version=version
        ),
        _("Serie %(n)d ist ausgelost.") % {"n": number},
    )
    return redirect("tournament:series_manage", slug=slug, number=number)


@organizer_required
@require_POST
def series_choose(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The organizer takes one of the draws the series page offered."""
    series = _series(slug, number)
    form = ChoiceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Bitte eine der angebotenen Auslosungen wählen."))
    else:
        _run(
            request,
            lambda: services.series_seat(
                actor=request.user,
                series=series,
                version=form.cleaned_data["version"],
                seed=form.cleaned_data["seed"],
                digest=form.cleaned_data["digest"],
            ),
            _("Serie %(n)d ist neu gesetzt: die gewählte Auslosung gilt.")
            % {"n": number},
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
        for e in Entry.objects.select_related("player").filter(
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
    a, b = entries[form.cleaned_data["a"]], entries[form.cleaned_data["b"]]
    _run(
        request,
        lambda: services.series_swap(
            actor=request.user,
            series=series,
            entry_a=a,
            entry_b=b,
            version=form.cleaned_data["version"],
        ),
        _("%(a)s und %(b)s haben die Sitze getauscht.")
        % {"a": a.player.full_name, "b": b.player.full_name},
    )
    series.refresh_from_db()
    repeats = (series.quality or {}).get("repeated_pairs") or 0
    if repeats:
        messages.warning(
            request,
            ngettext(
                "Achtung: %(n)d Paar trifft sich mehr als einmal.",
                "Achtung: %(n)d Paare treffen sich mehr als einmal.",
                repeats,
            )
            % {"n": repeats},
        )
    return redirect("tournament:series_manage", slug=slug, number=number)


@organizer_required
@require_POST
def series_release(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(slug, number)
    form = ReleaseForm(request.POST)
    valid = form.is_valid()
    version = form.cleaned_data["version"] if valid else None
    reason = form.cleaned_data["reason"] if valid else ""
    _run(
        request,
        lambda: services.series_release(
            actor=request.user,
            series=series,
            version=version,
            reason=reason,
            accept_worse=request.POST.get("accept_worse") == "1",
        ),
        _("Serie %(n)d ist veröffentlicht.") % {"n": number},
    )
    return redirect("tournament:series_manage", slug=slug, number=number)


@public_page(invalidation.SEATING)
@with_tournament
def series_detail(
    request: HttpRequest, tournament: Tournament, number: int
) -> HttpResponse:
    """The seating of a released series, by table (for the wall and phones)."""
    series = selectors.public_series_or_404(tournament, number)
    return render_live_page(
        request,
        "tournament/seating/series_detail.html",
        {"tournament": tournament, "series": series},
        region_or_404(tournament, "seating", {"series": str(number)}),
    )


@public_page(invalidation.SEATING, params=fragment_params("where", "q"))
@with_tournament
def where_do_i_sit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    page_region = region_or_404(tournament, "where", {"q": request.GET.get("q", "")})
    return render_live_page(
        request,
        "tournament/seating/where.html",
        {"tournament": tournament, "query": page_region.key.params.get("q", "")},
        page_region,
    )
