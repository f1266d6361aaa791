"""Entry at the table: a player enters his table's games, or says *Stimmt*
or *Stimmt nicht* to another player's entry, from his phone.

Each address holds the player's personal link, so these pages need no
sign-in and no CSRF token: the secret in the path is the credential, and
no cookie grants anything here (a phone that kept a form while offline
sends it later as it was). The rules are the services'
(`services.table_player_refusal`); the games go through the referees' form
and checks (`results.forms`, `results.services.result_check`).

Every POST answers a browser's form with a redirect to "Mein Turnier" (or
the page again, with what is wrong), and a client that asks for JSON
(``Accept: application/json``, the phone's outbox) with::

    {"ok": true, "state": "entered" | "agreed" | "confirmed" | "disputed",
     "message": "…", "series": 3, "table": 7, "version": 2, "revision": 5,
     "location": "/t/<slug>/mein/<token>/"}
    {"ok": false, "state": "invalid", "message": "…",
     "errors": {"g3_winner": ["…"], "__all__": ["…"]}}             400
    {"ok": false, "state": "refused", "code": "other_table", "message": "…"}
                                                                    403
    {"ok": false, "state": "not_found", "message": "…"}             404
    {"ok": false, "state": "conflict", "message": "…", "revision": 6}
                                                                    409
    {"ok": false, "state": "rate_limited", "message": "…"}          429

`code` of a refusal: table_entry_off, withdrawn, past_series, other_table,
digital_table, confirmed, referee_entry, own_entry, answered, disputed,
other_tournament. Nothing is written on any answer but `ok`.
"""

from typing import Any

from django import forms
from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from tournament.core.errors import ConflictError, UserError
from tournament.core.idempotency import idempotent
from tournament.core.ratelimit import (
    link_missed,
    link_not_found,
    personal_link_limited,
    wants_json,
)
from tournament.models import Entry, ResultVersion, Table
from tournament.registration.selectors import entry_by_link, mine_url
from tournament.results import selectors as results_selectors
from tournament.results.forms import (
    ResultForm,
    result_initial,
    save_entered,
    table_result_form,
)
from tournament.tableentry import selectors, services


class _NotFound(Exception):
    """A link, series or table that does not exist: one answer for all."""


def _player(request: HttpRequest, slug: str, token: str) -> Entry:
    entry = entry_by_link(slug, token)
    if entry is None:
        link_missed(request)
        raise _NotFound
    return entry


def _table(entry: Entry, series: int, table: int) -> Table:
    found = selectors.released_table(entry, series, table)
    if found is None:
        raise _NotFound
    return found


def _refused(
    request: HttpRequest, entry: Entry, table: Table, error: UserError
) -> HttpResponse:
    """A refusal or a conflict: nothing was written; the message says why."""
    conflict = isinstance(error, ConflictError)
    status = 409 if conflict else 403
    if wants_json(request):
        payload: dict[str, Any] = {
            "ok": False,
            "state": "conflict" if conflict else "refused",
            "message": error.message,
        }
        if conflict:
            table.refresh_from_db(fields=["result_revision"])
            payload["revision"] = table.result_revision
        else:
            payload["code"] = error.code
        return JsonResponse(payload, status=status)
    return render(
        request,
        "tournament/tableentry/refused.html",
        {
            "tournament": entry.tournament,
            "entry": entry,
            "table": table,
            "message": error.message,
            "conflict": conflict,
            "mine_url": mine_url(entry),
        },
        status=status,
    )


_MESSAGES = {
    "agreed": gettext_lazy(
        "Danke! Das Ergebnis zählt, sobald alle anderen Spieler des Tisches "
        "bestätigt haben."
    ),
    "confirmed": gettext_lazy("Bestätigt. Das Ergebnis zählt ab sofort."),
    "repeated": gettext_lazy(
        "Diese Eingabe war schon gespeichert und zählt nur einmal. Sie wartet "
        "auf die Bestätigung der anderen Spieler."
    ),
    "disputed": gettext_lazy(
        "Ihr Einwand ist notiert; die Schiedsrichter sehen sich den Tisch an. "
        "Wenn Sie das richtige Ergebnis kennen, geben Sie es bitte neu ein."
    ),
}


def _done(
    request: HttpRequest, entry: Entry, version: ResultVersion, state: str
) -> HttpResponse:
    table = version.table
    if state == "entered":
        message = services.entered_message(entry.tournament)
    else:
        message = str(_MESSAGES[state])
    # Also for JSON: the phone's outbox follows `location` while the player
    # waits, and "Mein Turnier" then says what became of it.
    messages.success(request, message)
    if wants_json(request):
        table.refresh_from_db(fields=["result_revision"])
        return JsonResponse(
            {
                "ok": True,
                "state": state,
                "message": message,
                "series": table.series.number,
                "table": table.number,
                "version": version.number,
                "revision": table.result_revision,
                "location": mine_url(entry),
            }
        )
    return redirect(mine_url(entry), permanent=False)


def _initial(table: Table) -> dict[str, Any]:
    """The form as the table stands: a waiting entry of the table's players
    to correct, else empty."""
    return result_initial(table, _pending(table, None))


def _invalid(
    request: HttpRequest, entry: Entry, table: Table, form: ResultForm
) -> HttpResponse:
    if wants_json(request):
        return JsonResponse(
            {
                "ok": False,
                "state": "invalid",
                "message": form.error_summary(),
                "errors": _form_errors(form),
            },
            status=400,
        )
    return _enter_page(request, entry, table, form, status=400)


def _enter_page(
    request: HttpRequest,
    entry: Entry,
    table: Table,
    form: ResultForm,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournament/tableentry/enter.html",
        {
            "tournament": table.series.tournament,
            "series": table.series,
            "table": table,
            "entry": entry,
            "form": form,
            "seats": list(table.seats.all()),
            "mine_url": mine_url(entry),
        },
        status=status,
    )


@csrf_exempt
@personal_link_limited
@never_cache
@require_http_methods(["GET", "POST"])
@idempotent
def player_enter(
    request: HttpRequest, slug: str, token: str, series: int, table: int
) -> HttpResponseBase:
    """The player enters his table's games (or corrects the waiting entry
    of his table): the referees' form, the same checks, every mistake
    beside its game, nothing written until all are right."""
    try:
        entry = _player(request, slug, token)
        table_obj = _table(entry, series, table)
    except _NotFound:
        return link_not_found(request)
    refusal = services.table_player_refusal(
        player=entry, table=table_obj, action="enter"
    )
    if refusal is not None:
        return _refused(request, entry, table_obj, refusal)
    if request.method != "POST":
        return _enter_page(
            request,
            entry,
            table_obj,
            table_result_form(table_obj, initial=_initial(table_obj)),
        )
    form = table_result_form(table_obj, request.POST)
    waited = _pending(table_obj, None)
    try:
        version = save_entered(
            form,
            table_obj,
            lambda games, data: services.result_enter_by_player(
                player=entry,
                table=table_obj,
                games=games,
                mode=data["mode"],
                revision=data["revision"],
            ),
        )
    except UserError as error:
        return _refused(request, entry, table_obj, error)
    if version is None:
        return _invalid(request, entry, table_obj, form)
    if waited is not None and waited.pk == version.pk:
        # The same games again: a repeat, no new entry.
        return _done(request, entry, version, "repeated")
    return _done(request, entry, version, "entered")


class AnswerForm(forms.Form):
    """*Stimmt*: which version the player saw (its number)."""

    version = forms.IntegerField(min_value=1, max_value=2**31 - 1)


class RejectForm(AnswerForm):
    """*Stimmt nicht*: which version, and what is wrong with it."""

    reason = forms.CharField(
        label=gettext_lazy("Was stimmt nicht?"),
        max_length=300,
        error_messages={
            "required": gettext_lazy(
                "Bitte kurz sagen, was nicht stimmt (z. B. „Spiel 3 hat Sitz 2 "
                "gewonnen“)."
            ),
            "max_length": gettext_lazy("Bitte höchstens 300 Zeichen."),
        },
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": 300}),
    )


def _pending(table: Table, number: int | None) -> ResultVersion | None:
    if number is None:
        return table.result_versions.filter(status=ResultVersion.Status.PENDING).first()
    return ResultVersion.objects.filter(table=table, number=number).first()


def _reject_page(
    request: HttpRequest,
    entry: Entry,
    table: Table,
    form: RejectForm,
    version: ResultVersion | None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournament/tableentry/reject.html",
        {
            "tournament": table.series.tournament,
            "series": table.series,
            "table": table,
            "entry": entry,
            "form": form,
            "version": version,
            "points": results_selectors.table_points(table, version) if version else [],
            "mine_url": mine_url(entry),
        },
        status=status,
    )


def _form_errors(form: forms.Form) -> dict[str, list[str]]:
    return {f: [str(e) for e in errs] for f, errs in form.errors.items()}


def _answer(
    request: HttpRequest,
    slug: str,
    token: str,
    series: int,
    table: int,
    *,
    agree: bool,
) -> HttpResponse:
    try:
        entry = _player(request, slug, token)
        table_obj = _table(entry, series, table)
    except _NotFound:
        return link_not_found(request)
    form: AnswerForm = AnswerForm(request.POST) if agree else RejectForm(request.POST)
    if not form.is_valid():
        message = _("Ungültige Anfrage. Bitte die Seite neu laden.")
        if "reason" in form.errors:
            message = " ".join(str(e) for e in form.errors["reason"])
        if wants_json(request):
            return JsonResponse(
                {
                    "ok": False,
                    "state": "invalid",
                    "message": message,
                    "errors": _form_errors(form),
                },
                status=400,
            )
        if isinstance(form, RejectForm) and "version" not in form.errors:
            version = _pending(table_obj, form.cleaned_data["version"])
            return _reject_page(request, entry, table_obj, form, version, status=400)
        return _refused(request, entry, table_obj, UserError(message))
    version = _pending(table_obj, form.cleaned_data["version"])
    try:
        if version is None:
            raise ConflictError(_("Dieses Ergebnis gibt es an diesem Tisch nicht."))
        if agree:
            version = services.result_confirm_by_player(player=entry, version=version)
            state = (
                "confirmed"
                if version.status == ResultVersion.Status.CONFIRMED
                else "agreed"
            )
        else:
            version = services.result_reject_by_player(
                player=entry, version=version, reason=form.cleaned_data["reason"]
            )
            state = "disputed"
    except UserError as error:
        return _refused(request, entry, table_obj, error)
    return _done(request, entry, version, state)


@csrf_exempt
@personal_link_limited
@require_POST
@idempotent
def player_confirm(
    request: HttpRequest, slug: str, token: str, series: int, table: int
) -> HttpResponse:
    """*Stimmt*: another player of the table confirms the waiting entry."""
    return _answer(request, slug, token, series, table, agree=True)


@csrf_exempt
@personal_link_limited
@never_cache
@require_http_methods(["GET", "POST"])
@idempotent
def player_reject(
    request: HttpRequest, slug: str, token: str, series: int, table: int
) -> HttpResponseBase:
    """*Stimmt nicht*, with a reason: the referees decide. Its page (GET)
    shows the waiting entry beside the field for the reason."""
    if request.method == "POST":
        return _answer(request, slug, token, series, table, agree=False)
    try:
        entry = _player(request, slug, token)
        table_obj = _table(entry, series, table)
    except _NotFound:
        return link_not_found(request)
    version = _pending(table_obj, None)
    refusal = services.table_player_refusal(
        player=entry, table=table_obj, action="reject", version=version
    )
    if refusal is not None:
        return _refused(request, entry, table_obj, refusal)
    assert version is not None  # no refusal: it waits
    form = RejectForm(initial={"version": version.number})
    return _reject_page(request, entry, table_obj, form, version)
