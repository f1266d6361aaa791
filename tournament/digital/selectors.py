"""Reads of digital tables: what one seat (or a spectator) is sent.

`state` is the one message a player's page gets, over the socket or the
polling fallback; it is built from `adapter.seat_view`, so it holds
no other seat's unplayed cards.
"""

from typing import Any

from django.utils.translation import gettext as _

from tournament.core.roles import is_organizer, may_referee, signed_in_user
from tournament.digital import adapter
from tournament.models import DigitalSeat, DigitalTable


def seat_by_token(token: str) -> DigitalSeat | None:
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    return (
        DigitalSeat.objects.select_related(
            "table__table__series__tournament", "entry__player"
        )
        .filter(token=token)
        .first()
    )


def table_for_watching(table_id: int) -> DigitalTable | None:
    return (
        DigitalTable.objects.select_related("table__series__tournament")
        .filter(pk=table_id)
        .first()
    )


def may_watch(user: object, digital: DigitalTable) -> bool:
    """Referees of the table's tournament and the organizer watch any
    digital table; practice tables only the organizer. `user`: a socket's
    (`roles.signed_in_user`)."""
    member = signed_in_user(user)
    if member is None:
        return False
    table = digital.table  # None for a practice table (no query then)
    if table is None:
        return is_organizer(member)
    return may_referee(member, table.series.tournament)


def _players(digital: DigitalTable, me: int | None) -> list[dict[str, Any]]:
    out = []
    for seat in digital.seats.select_related("entry__player").order_by("number"):
        if seat.entry is not None:  # select_related: no query
            player = seat.entry.player
            name = f"{player.first_name} {player.last_name}"
        elif seat.bot:
            name = _("Bot %(n)d") % {"n": seat.number}
        elif seat.number == me:
            name = _("Sie")
        else:
            name = _("Sitz %(n)d") % {"n": seat.number}
        out.append(
            {
                "seat": seat.number,
                "name": name,
                "bot": bool(seat.bot),
                # A bot plays because the phone was gone (announced).
                "away": seat.away,
                "you": seat.number == me,
            }
        )
    return out


def state(digital: DigitalTable, seat: DigitalSeat | None) -> dict[str, Any]:
    """The message for `seat` (None: a spectator) -- its view only."""
    number = None if seat is None else seat.number
    return {
        "type": "state",
        "table": digital.pk,
        "version": digital.version,
        "status": digital.status,
        "seat": number,
        "next_seq": None if seat is None else seat.last_seq + 1,
        "bot": bool(seat and seat.bot),
        "games_total": digital.games_total,
        "win_bonus": digital.win_bonus,
        "players": _players(digital, number),
        **adapter.seat_view(digital, number),
    }


def fresh_state(table_id: int, token: str | None) -> dict[str, Any] | None:
    """Re-read the table (and the seat of `token`, None: a spectator) and
    build the message; None if the table is gone or the link replaced."""
    digital = DigitalTable.objects.filter(pk=table_id).first()
    if digital is None:
        return None
    seat = None
    if token is not None:
        seat = DigitalSeat.objects.filter(token=token, table=digital).first()
        if seat is None:
            return None
    return state(digital, seat)
