"""The registration desk: entries, check-in, withdrawals, teams, the
player list's export and the player import (upload → preview with
per-row errors → confirm → write)."""

import secrets

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from tournament.core.back import back_url
from tournament.core.download import content_disposition, file_name
from tournament.core.errors import UserError
from tournament.core.lookup import with_tournament
from tournament.core.roles import organizer_required
from tournament.core.upload import take_preview
from tournament.core.workbook import XLSX_CONTENT_TYPE
from tournament.models import Entry, Team, Tournament
from tournament.registration import selectors, services
from tournament.registration.export import players_workbook
from tournament.registration.forms import (
    EntryForm,
    PlayerImportForm,
    TeamForm,
    WithdrawForm,
)
from tournament.registration.player_import import (
    ImportPreview,
    PlayerTable,
    check_players,
    player_template_workbook,
    propose_mapping,
    read_player_table,
)
from tournament.registration.tables import EntryTable


@organizer_required
@with_tournament
def entry_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    query = request.GET.get("q", "")[:100]
    table = EntryTable(selectors.entries_for(tournament, query=query))
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(
        request,
        "tournament/registration/entry_list.html",
        {
            "tournament": tournament,
            "table": table,
            "query": query,
            "counts": selectors.entry_counts(tournament),
        },
    )


def _say_registered(request: HttpRequest, entry: Entry) -> None:
    """Tell the desk `entry` is registered, whether his person played here
    before, and whether a similar person waits for the organizer's review."""
    messages.success(
        request,
        _("%(name)s ist mit Startnummer %(number)d gemeldet.")
        % {"name": entry.player.full_name, "number": entry.start_number},
    )
    earlier = selectors.earlier_tournaments(entry)
    if earlier:
        messages.info(
            request,
            ngettext(
                "%(name)s ist bekannt: %(n)d Turnier bisher.",
                "%(name)s ist bekannt: %(n)d Turniere bisher.",
                earlier,
            )
            % {"name": entry.player.full_name, "n": earlier},
        )
    if entry.player.person_review:
        messages.warning(
            request,
            _(
                "Es gibt schon eine Person mit ähnlichem Namen. Ob es "
                "dieselbe ist, entscheiden Sie unter „Personen prüfen“."
            ),
        )


@organizer_required
@with_tournament
def entry_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = EntryForm(request.POST or None)
    duplicates: list[Entry] = []
    if request.method == "POST" and form.is_valid():
        data = form.player_data()
        duplicates = list(
            selectors.same_name_entries(tournament, data.first_name, data.last_name)
        )
        if duplicates and not form.cleaned_data["confirm_duplicate"]:
            # Ask once; the hidden field turns the second submit into a yes.
            form = EntryForm({**request.POST.dict(), "confirm_duplicate": "on"})
            form.is_valid()
        else:
            try:
                entry = services.entry_register(
                    actor=request.user, tournament=tournament, data=data
                )
            except UserError as error:
                form.add_error("start_number", error.message)
            else:
                _say_registered(request, entry)
                return redirect("tournament:entry_create", slug=tournament.slug)
    return render(
        request,
        "tournament/registration/entry_form.html",
        {
            "tournament": tournament,
            "form": form,
            "duplicates": duplicates,
            "next_number": services.next_start_number(tournament),
            "recent": selectors.entries_for(tournament).order_by("-created_at")[:5],
        },
    )


@organizer_required
@with_tournament
def entry_edit(
    request: HttpRequest, tournament: Tournament, number: int
) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        tournament=tournament,
        start_number=number,
    )
    form = (
        EntryForm(request.POST)
        if request.method == "POST"
        else EntryForm.for_entry(entry)
    )
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_update(
                actor=request.user, entry=entry, data=form.player_data()
            )
        except UserError as error:
            form.add_error("start_number", error.message)
        else:
            messages.success(request, _("Änderungen gespeichert."))
            return redirect("tournament:entry_list", slug=tournament.slug)
    return render(
        request,
        "tournament/registration/entry_form.html",
        {"tournament": tournament, "form": form, "entry": entry},
    )


@organizer_required
@require_POST
def entry_check_in(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    entry = get_object_or_404(Entry, tournament__slug=slug, start_number=number)
    checked_in = request.POST.get("checked_in") == "1"
    services.entry_set_checked_in(
        actor=request.user, entry=entry, checked_in=checked_in
    )
    default = reverse("tournament:entry_list", kwargs={"slug": slug})
    back = back_url(request, f"{default}#entry-{number}")
    if not checked_in:
        return HttpResponseRedirect(back)
    missed = selectors.missed_series(entry)
    if missed["running"] is not None:
        # Checked in after a series was released: say at once what follows
        # and let the desk choose (a free seat, or sitting it out).
        late = reverse(
            "tournament:series_late",
            kwargs={"slug": slug, "number": missed["running"], "start_number": number},
        )
        return redirect(f"{late}?{urlencode({'next': back})}")
    if missed["drawn"] is not None:
        messages.warning(
            request,
            _(
                "Serie %(n)d ist schon ausgelost, aber noch nicht veröffentlicht: "
                "Nr. %(number)d hat dort keinen Sitz. Bitte Serie %(n)d neu "
                "auslosen, dann spielt er mit."
            )
            % {"n": missed["drawn"], "number": number},
        )
    return HttpResponseRedirect(back)


@organizer_required
def entry_withdraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "tournament"),
        tournament__slug=slug,
        start_number=number,
    )
    moment = selectors.withdrawal_moment(entry)
    form = WithdrawForm(request.POST or None, moment=moment)
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_withdraw(
                actor=request.user,
                entry=entry,
                reason=form.cleaned_data["reason"],
                after_series=form.cleaned_data["series"],
                after_game=form.cleaned_data.get("after_game"),
            )
        except UserError as error:
            form.add_error(None, error.message)
        else:
            entry.refresh_from_db()
            messages.success(
                request,
                _("%(name)s ist %(what)s.")
                % {"name": entry.player.full_name, "what": entry.withdrawal_text},
            )
            return redirect("tournament:entry_list", slug=slug)
    return render(
        request,
        "tournament/registration/entry_withdraw.html",
        {
            "tournament": entry.tournament,
            "entry": entry,
            "form": form,
            "moment": moment,
        },
    )


@organizer_required
@require_POST
def entry_link_renew(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A lost player card: a new personal link, the old one stops working."""
    entry = get_object_or_404(
        Entry.objects.select_related("player"),
        tournament__slug=slug,
        start_number=number,
    )
    services.entry_link_renew(actor=request.user, entry=entry)
    messages.success(
        request,
        _(
            "Neue Spielerkarte für %(name)s: der alte Link gilt nicht mehr. "
            "Bitte die neue Karte drucken und aushändigen."
        )
        % {"name": entry.player.full_name},
    )
    url = reverse("tournament:entry_edit", kwargs={"slug": slug, "number": number})
    return redirect(f"{url}#spielerkarte")


@organizer_required
@require_POST
def entry_reinstate(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    entry = get_object_or_404(Entry, tournament__slug=slug, start_number=number)
    try:
        services.entry_reinstate(actor=request.user, entry=entry)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Abmeldung zurückgenommen."))
    return redirect("tournament:entry_list", slug=slug)


@organizer_required
@with_tournament
def entry_export(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    response = HttpResponse(
        players_workbook(tournament), content_type=XLSX_CONTENT_TYPE
    )
    response["Content-Disposition"] = content_disposition(
        file_name(tournament.slug, _("Spieler"), extension="xlsx")
    )
    return response


@organizer_required
@with_tournament
def team_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournament/registration/team_list.html",
        {"tournament": tournament, "teams": selectors.teams_for(tournament)},
    )


@organizer_required
@with_tournament
def team_edit(
    request: HttpRequest, tournament: Tournament, team_id: int | None = None
) -> HttpResponse:
    team = (
        get_object_or_404(Team, pk=team_id, tournament=tournament) if team_id else None
    )
    initial = {"name": team.name, "members": list(team.members.all())} if team else None
    form = TeamForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.team_save(
                actor=request.user,
                tournament=tournament,
                team=team,
                name=form.cleaned_data["name"],
                members=form.cleaned_data["members"],
            )
        except UserError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Mannschaft gespeichert."))
            return redirect("tournament:team_list", slug=tournament.slug)
    return render(
        request,
        "tournament/registration/team_form.html",
        {"tournament": tournament, "form": form, "team": team},
    )


@organizer_required
@with_tournament
def team_delete(
    request: HttpRequest, tournament: Tournament, team_id: int
) -> HttpResponse:
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    if request.method == "POST":
        services.team_delete(actor=request.user, team=team)
        messages.success(request, _("Mannschaft gelöscht."))
        return redirect("tournament:team_list", slug=tournament.slug)
    return render(
        request,
        "tournament/registration/confirm_delete.html",
        {
            "tournament": tournament,
            "object_label": _("die Mannschaft „%(name)s“") % {"name": team.name},
            "cancel_url": reverse(
                "tournament:team_list", kwargs={"slug": tournament.slug}
            ),
        },
    )


SESSION_KEY = "player_import"


def _mapping_posted(request: HttpRequest, width: int) -> list[str | None]:
    """The field chosen for each column of the preview's mapping form."""
    return [request.POST.get(f"spalte-{i}") or None for i in range(width)]


def _import_page(
    request: HttpRequest,
    tournament: Tournament,
    form: PlayerImportForm,
    preview: ImportPreview | None,
    token: str = "",
) -> HttpResponse:
    return render(
        request,
        "tournament/registration/import.html",
        {"tournament": tournament, "form": form, "preview": preview, "token": token},
    )


@organizer_required
@with_tournament
def import_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "GET" and "vorlage" in request.GET:
        # The empty list to fill in: the same columns the import reads.
        response = HttpResponse(
            player_template_workbook(), content_type=XLSX_CONTENT_TYPE
        )
        response["Content-Disposition"] = (
            'attachment; filename="spielerliste-vorlage.xlsx"'
        )
        return response
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    request.session.pop(SESSION_KEY, None)
    if request.method != "POST" or not form.is_valid():
        return _import_page(request, tournament, form, None)
    upload = form.cleaned_data["file"]
    try:
        table = read_player_table(upload, size=upload.size, filename=upload.name)
    except UserError as error:
        preview = ImportPreview(file_errors=[error.message])
        return _import_page(request, tournament, form, preview)
    mapping = propose_mapping(table)
    preview = check_players(table, mapping, tournament=tournament)
    # What was read waits in the session while the organizer maps the
    # columns; the import takes exactly the mapping last shown.
    token = secrets.token_urlsafe(16)
    request.session[SESSION_KEY] = {
        "token": token,
        "tournament": tournament.pk,
        "table": table.as_dict(),
        "shown": [mapping, False],
    }
    return _import_page(request, tournament, form, preview, token)


@organizer_required
@require_POST
@with_tournament
def import_confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The preview's form: "Vorschau aktualisieren" checks the list again
    with the columns and hidden rows as now chosen; "Jetzt importieren"
    imports what the page showed, all or nothing."""
    pending = request.session.get(SESSION_KEY)
    if (
        not pending
        or pending.get("tournament") != tournament.pk
        or pending.get("token") != request.POST.get("token")
    ):
        take_preview(request, SESSION_KEY, tournament)  # says why, forgets it
        return redirect("tournament:import_upload", slug=tournament.slug)
    table = PlayerTable.from_dict(pending["table"])
    mapping = _mapping_posted(request, table.width)
    take_hidden = request.POST.get("ausgeblendete") == "1"
    preview = check_players(
        table, mapping, tournament=tournament, take_hidden=take_hidden
    )
    shown = [mapping, take_hidden]
    if request.POST.get("action") != "import" or shown != pending["shown"]:
        # A changed choice is shown before anything is imported.
        pending["shown"] = shown
        request.session.modified = True
        return _import_page(
            request, tournament, PlayerImportForm(), preview, pending["token"]
        )
    if not preview.ok:
        return _import_page(
            request, tournament, PlayerImportForm(), preview, pending["token"]
        )
    request.session.pop(SESSION_KEY, None)
    try:
        entries = services.entries_import(
            actor=request.user, tournament=tournament, rows=preview.player_data()
        )
    except UserError as error:
        messages.error(
            request,
            _("Nichts importiert: %(error)s Bitte die Datei erneut hochladen.")
            % {"error": error.message},
        )
        return redirect("tournament:import_upload", slug=tournament.slug)
    messages.success(
        request, _("%(count)d Spieler importiert.") % {"count": len(entries)}
    )
    return redirect("tournament:entry_list", slug=tournament.slug)
