"""Player import: upload → preview with per-row errors → confirm → write."""

import dataclasses
import secrets
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import UserError
from tournament.forms import PlayerImportForm
from tournament.models import Tournament
from tournament.player_import import parse_player_workbook
from tournament.roles import organizer_required
from tournament.services import registration
from tournament.services.registration import PlayerData

SESSION_KEY = "player_import"


@organizer_required
def import_upload(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    preview = None
    token = ""
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        preview = parse_player_workbook(
            upload, size=upload.size, filename=upload.name, tournament=tournament
        )
        if preview.ok:
            # The checked rows wait in the session until the organizer says yes.
            token = secrets.token_urlsafe(16)
            request.session[SESSION_KEY] = {
                "token": token,
                "tournament": tournament.pk,
                "rows": [dataclasses.asdict(d) for d in preview.player_data()],
            }
        else:
            request.session.pop(SESSION_KEY, None)
    return render(
        request,
        "tournament/import.html",
        {"tournament": tournament, "form": form, "preview": preview, "token": token},
    )


def take_preview(
    request: HttpRequest, key: str, tournament: Tournament
) -> dict[str, Any] | None:
    """The checked rows an upload left in the session, once: only for this
    tournament and the token of the page that was confirmed; else a message
    and None (the organizer uploads again)."""
    pending: dict[str, Any] | None = request.session.pop(key, None)
    if (
        not pending
        or pending.get("tournament") != tournament.pk
        or pending.get("token") != request.POST.get("token")
    ):
        messages.error(
            request,
            _(
                "Diese Vorschau ist nicht mehr gültig. "
                "Bitte die Datei erneut hochladen."
            ),
        )
        return None
    return pending


@organizer_required
@require_POST
def import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    pending = take_preview(request, SESSION_KEY, tournament)
    if pending is None:
        return redirect("tournament:import_upload", slug=slug)
    rows = [PlayerData(**row) for row in pending["rows"]]
    try:
        entries = registration.entries_import(
            actor=request.user, tournament=tournament, rows=rows
        )
    except UserError as error:
        messages.error(
            request,
            _("Nichts importiert: %(error)s Bitte die Datei erneut hochladen.")
            % {"error": error.message},
        )
        return redirect("tournament:import_upload", slug=slug)
    messages.success(
        request, _("%(count)d Spieler importiert.") % {"count": len(entries)}
    )
    return redirect("tournament:entry_list", slug=slug)
