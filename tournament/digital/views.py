"""Digital tables: the organizer's page of a table, the table in the
browser (private link, watching, practice) and the replay of a game."""

import contextlib
import json
from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring.bots import DEFAULT_BOT
from tournament.core.errors import ConflictError, UserError
from tournament.core.lookup import with_tournament
from tournament.core.ratelimit import (
    LINK_COOKIE,
    LINK_COOKIE_SALT,
    link_missed,
    seat_link_guarded,
)
from tournament.core.roles import organizer_required, tournament_referee_required
from tournament.digital import adapter, away, faces, ratelimit, services
from tournament.digital.selectors import seat_by_token, state
from tournament.models import DigitalSeat, DigitalTable, Table, Tournament
from tournament.results.selectors import table_or_404
from tournament.seating import selectors as seating_selectors

# The session remembers a visitor's practice table, so a reload or a second
# visit goes back to it instead of opening a new one.
PRACTICE_SESSION_KEY = "practice_token"


def _qr(url: str) -> str:
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


def _seat_rows(request: HttpRequest, digital: DigitalTable) -> list[dict[str, Any]]:
    rows = []
    for seat in digital.seats.select_related("entry__player"):
        url = request.build_absolute_uri(
            reverse("tournament:digital_play", args=[seat.token])
        )
        rows.append({"seat": seat, "url": url, "qr": _qr(url)})
    return rows


@organizer_required
def digital_manage(
    request: HttpRequest, slug: str, number: int, table: int
) -> HttpResponse:
    """Make a table digital (bots for chosen seats), hand out its links,
    let a bot take a seat over, renew a link, or stop digital play."""
    table_obj = table_or_404(slug, number, table)
    digital = DigitalTable.objects.filter(table=table_obj).first()
    if request.method == "POST":
        try:
            _manage_post(request, table_obj, digital)
        except UserError as error:
            messages.error(request, error.message)
        return redirect(request.path)
    return render(
        request,
        "tournament/digital/manage.html",
        {
            "tournament": table_obj.series.tournament,
            "series": table_obj.series,
            "table": table_obj,
            "seats": table_obj.seats.all(),
            "digital": digital,
            "rows": _seat_rows(request, digital) if digital else [],
            "bot_names": services.BOT_NAMES,
            "default_bot": DEFAULT_BOT,
            "games": adapter.finished_games(digital) if digital else [],
        },
    )


def _manage_post(
    request: HttpRequest, table: Table, digital: DigitalTable | None
) -> None:
    action = request.POST.get("action")
    if action == "create":
        bots = {}
        for seat in table.seats.all():
            bot = request.POST.get(f"bot_{seat.number}", "")
            if bot:
                bots[seat.number] = bot
        services.digital_table_create(actor=request.user, table=table, bots=bots)
        messages.success(request, _("Der Tisch wird jetzt digital gespielt."))
        return
    if digital is None:
        raise UserError(_("Dieser Tisch ist kein digitaler Tisch."))
    if action == "stop":
        services.digital_stop(
            actor=request.user, digital=digital, reason=request.POST.get("reason", "")
        )
        messages.success(request, _("Das digitale Spiel ist beendet."))
        return
    digital_seat = _seat_of(digital, request.POST.get("seat"))
    if action == "bot":
        services.digital_seat_set_bot(
            actor=request.user, seat=digital_seat, bot=request.POST.get("bot", "")
        )
        messages.success(
            request, _("Sitz %(n)d geändert.") % {"n": digital_seat.number}
        )
    elif action == "link":
        services.digital_seat_new_link(actor=request.user, seat=digital_seat)
        messages.success(
            request,
            _("Sitz %(n)d hat einen neuen Link; der alte gilt nicht mehr.")
            % {"n": digital_seat.number},
        )
    else:
        raise UserError(_("Unbekannte Aktion."))


def _seat_of(digital: DigitalTable, raw: str | None) -> DigitalSeat:
    try:
        number = int(raw or "")
    except ValueError:
        raise UserError(_("Unbekannter Sitz.")) from None
    seat = digital.seats.filter(number=number).first()
    if seat is None:
        raise UserError(_("Unbekannter Sitz."))
    return seat


def _play_page(
    request: HttpRequest, digital: DigitalTable, seat: DigitalSeat | None, **urls: str
) -> HttpResponse:
    lang = get_language() or settings.LANGUAGE_CODE
    return render(
        request,
        "tournament/digital/play.html",
        {
            "digital": digital,
            "seat": seat,
            "tournament": digital.table.series.tournament if digital.table else None,
            "socket_url": f"{urls['socket']}?lang={lang}",
            "state_url": urls["state"],
            "move_url": urls.get("move", ""),
            "replay_url": urls.get("replay", ""),
            # How often the page without a socket says it is open.
            "beat": away.beat_seconds(),
            # Rendered with the page, so a phone shows the table before the
            # socket is up (and the test of leaks sees this too).
            "initial": json.dumps(state(digital, seat)),
            "faces": faces.faces(),
        },
    )


# A seat's private link is a personal link like a player's (/t/<slug>/mein/
# <token>/): its addresses are behind the same wrong-link guard
# (core.ratelimit, `seat_link_guarded`: its requests are not counted, its
# wrong links are), a wrong token counts as a miss of the asking address,
# and the JSON ones are refused in JSON when asked.


def _seat_or_404(request: HttpRequest, token: str) -> DigitalSeat:
    seat = seat_by_token(token)
    if seat is None:
        link_missed(request)
        raise Http404
    return seat


def _remember(response: HttpResponse, seat: DigitalSeat) -> None:
    """The phone keeps the seat's link (signed, on the link's own path, so
    the table's requests under it send it back): the guard answers a link
    its phone opened before even while the address waits for a guesser's
    wrong links. It grants nothing: every request names the link."""
    response.set_signed_cookie(
        LINK_COOKIE,
        seat.token,
        salt=LINK_COOKIE_SALT,
        max_age=int(settings.PLAYER_LINK_COOKIE_DAYS) * 24 * 3600,
        path=reverse("tournament:digital_play", args=[seat.token]),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


@seat_link_guarded
@never_cache
def digital_play(request: HttpRequest, token: str) -> HttpResponse:
    """The table for the holder of a private link. (Its socket, or the
    fallback's "here", gives the seat back if a bot took it over while the
    phone was gone: a GET writes nothing.)"""
    seat = _seat_or_404(request, token)
    response = _play_page(
        request,
        seat.table,
        seat,
        socket=f"/ws/d/{seat.token}/",
        state=reverse("tournament:digital_state", args=[token]),
        move=reverse("tournament:digital_move", args=[token]),
        replay=reverse("tournament:digital_replay_own", args=[token, 1]),
    )
    _remember(response, seat)
    return response


@seat_link_guarded
@never_cache
def digital_state(request: HttpRequest, token: str) -> JsonResponse:
    """The seat's state as JSON: the page's fallback when the socket fails."""
    seat = _seat_or_404(request, token)
    return JsonResponse(state(seat.table, seat))


@seat_link_guarded
@require_POST
def digital_move(request: HttpRequest, token: str) -> JsonResponse:
    """A move sent over plain HTTP (the socket's fallback): the same
    message and the same answers as over the socket. It says the phone is
    there, as an open socket does; {"type": "here"} says only that (the
    fallback sends it while it polls), and gets the state."""
    seat = _seat_or_404(request, token)
    message = None
    if len(request.body) <= services.MAX_MESSAGE_CHARS:
        with contextlib.suppress(ValueError, RecursionError):
            message = json.loads(request.body.decode("utf-8"))
    message = services.parse_message(message)
    if message is not None and message["type"] in ("here", "act"):
        away.seat_seen(seat, beat=message["type"] == "here")
        if message["type"] == "here":
            return JsonResponse(state(seat.table, seat))
    if message is None or message["type"] != "act":
        return JsonResponse(
            {
                "type": "error",
                "code": "bad_message",
                "message": _(
                    "Diese Nachricht versteht der Tisch nicht; nichts wurde geändert."
                ),
            },
            status=400,
        )
    try:
        services.digital_act_message(token=seat.token, message=message)
    except UserError as error:
        status = 409 if isinstance(error, ConflictError) else 400
        return JsonResponse(
            {"type": "error", "code": error.code, "message": error.message},
            status=status,
        )
    seat.refresh_from_db()
    seat.table.refresh_from_db()
    return JsonResponse(state(seat.table, seat))


@tournament_referee_required
def digital_watch(
    request: HttpRequest, slug: str, number: int, table: int
) -> HttpResponse:
    """Referees and the organizer watch a digital table (no cards shown)."""
    digital = get_object_or_404(DigitalTable, table=table_or_404(slug, number, table))
    return _play_page(
        request,
        digital,
        None,
        socket=f"/ws/d/zuschauen/{digital.pk}/",
        state=reverse("tournament:digital_watch_state", args=[slug, number, table]),
    )


@tournament_referee_required
@never_cache
def digital_watch_state(
    request: HttpRequest, slug: str, number: int, table: int
) -> JsonResponse:
    digital = get_object_or_404(DigitalTable, table=table_or_404(slug, number, table))
    return JsonResponse(state(digital, None))


def practice(request: HttpRequest) -> HttpResponse:
    """Anyone may play a game against three bots, outside any tournament
    (as many tables as `ratelimit` allows; a new one replaces the last)."""
    token = request.session.get(PRACTICE_SESSION_KEY)
    current = seat_by_token(token) if token else None
    if current is not None and current.table.status != DigitalTable.Status.PLAYING:
        current = None
    if request.method == "POST":
        if current is None or request.POST.get("new"):
            try:
                current = _practice_open(request, replacing=current)
            except UserError as error:
                messages.error(request, error.message)
                return redirect("tournament:practice")
        return redirect("tournament:digital_play", token=current.token)
    return render(request, "tournament/digital/practice.html", {"current": current})


def _practice_open(request: HttpRequest, replacing: DigitalSeat | None) -> DigitalSeat:
    # The address first: a flood without cookies is refused before it
    # makes a session for each request.
    ratelimit.practice_count_address(request.META.get("REMOTE_ADDR", ""))
    if request.session.session_key is None:
        request.session.save()
    session_key = request.session.session_key
    assert session_key is not None  # saved just now
    ratelimit.practice_count_session(session_key)
    seat = services.digital_practice_create(replacing=replacing)
    request.session[PRACTICE_SESSION_KEY] = seat.token
    return seat


def _replay(
    request: HttpRequest, digital: DigitalTable, game: int, **ctx: Any
) -> HttpResponse:
    if not 1 <= game <= len(digital.games):
        raise Http404
    try:
        hands = adapter.replay(digital.games[game - 1])
    except adapter.StillPlaying:
        # An unfinished game's record holds everybody's cards.
        raise Http404 from None
    number = request.GET.get("hand", "1")
    # ASCII digits, a few: int() refuses "²" and more than 4300 digits.
    short = number.isascii() and number.isdigit() and len(number) <= 4
    hand_number = int(number) if short else 1
    if not 1 <= hand_number <= len(hands):
        hand_number = 1
    return render(
        request,
        "tournament/digital/replay.html",
        {
            "digital": digital,
            "game": game,
            "games": range(1, len(digital.games) + 1),
            "hands": hands,
            "hand": hands[hand_number - 1],
            "hand_number": hand_number,
            "players": state(digital, None)["players"],
            **ctx,
        },
    )


@with_tournament
def digital_replay(
    request: HttpRequest, tournament: Tournament, number: int, table: int, game: int
) -> HttpResponse:
    """Any finished game of a tournament's digital table, hand by hand."""
    series = seating_selectors.public_series_or_404(tournament, number)
    digital = get_object_or_404(DigitalTable, table__series=series, table__number=table)
    return _replay(request, digital, game, tournament=tournament, series=series)


@seat_link_guarded
def digital_replay_own(request: HttpRequest, token: str, game: int) -> HttpResponse:
    """A finished game of the table behind a private link (practice too)."""
    seat = _seat_or_404(request, token)
    return _replay(request, seat.table, game, seat=seat)
