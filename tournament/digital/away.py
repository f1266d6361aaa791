"""A seat whose phone is gone: a bot plays for it until the phone is back.

Whether a phone is there is known across worker processes by one time per
seat in the database, `DigitalSeat.seen_at`: set when the seat's socket
connects or closes and every `beat_seconds()` while it is open, and when
its page, without a socket, posts a move or "here" (it does every beat
while it polls). So a seat whose phone is connected is never older than a
beat. (A GET writes nothing: the page and its polls only read.)

The bot runner asks `take_over_if_gone` whenever the bots wait for a
person: if the seat due to act has not been seen for
`DIGITAL_AWAY_SECONDS`, a bot takes it over (the seat is `away`);
otherwise the runner hears how long until it would be, and looks again
then. Only tournament tables: a practice table waits for its one person.
A seat whose link was never opened is not gone (its player has not sat
down yet: the organizer decides), and nobody's seat is taken over while
no other person's phone at the table is there to wait for it. Opening the
link again gives the seat back (`seat_seen`). Both are announced at the
table (the seats' state says `away`) and audited, by the site (actor
None).
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from scoring.bots import DEFAULT_BOT
from tournament.core.audit import audit_record
from tournament.digital import adapter, moves
from tournament.models import DigitalSeat, DigitalTable, Tournament

# The bot that plays for a seat whose phone is gone.
AWAY_BOT = DEFAULT_BOT


def limit() -> timedelta:
    return timedelta(seconds=float(settings.DIGITAL_AWAY_SECONDS))


def beat_seconds() -> float:
    """How often an open socket says its phone is there: well within the
    limit, and no more often than needed."""
    return min(20.0, max(0.05, limit().total_seconds() / 3))


def _throttle() -> timedelta:
    # A page or poll writes the time at most this often (polls come every
    # 3 seconds); an open socket's beat always does.
    return min(timedelta(seconds=5), limit() / 6)


def seat_seen(seat: DigitalSeat, *, beat: bool = False) -> None:
    """The seat's phone is there (its page, a poll, its socket; `beat`: the
    socket's connect, close or beat, always written). A seat a bot took
    over because its phone was gone is given back to the person."""
    now = timezone.now()
    away = seat.away
    if beat or seat.seen_at is None or now - seat.seen_at >= _throttle():
        DigitalSeat.objects.filter(pk=seat.pk).update(seen_at=now)
        seat.seen_at = now
        # Read again after the write: a takeover deciding meanwhile held
        # the seat's row, so the write waited for it and sees it here.
        away = DigitalSeat.objects.filter(pk=seat.pk, away=True).exists()
    if away and seat_back(seat_id=seat.pk):
        seat.refresh_from_db(fields=["bot", "away"])
        seat.table.refresh_from_db()  # its version changed


def seat_back(*, seat_id: int) -> bool:
    """Give a seat taken over while its phone was gone back to the person;
    False if it was not (any more) away."""
    with transaction.atomic():
        table_id = DigitalSeat.objects.values_list("table_id", flat=True).get(
            pk=seat_id
        )
        digital = moves.lock(table_id)
        seat = DigitalSeat.objects.select_for_update().get(pk=seat_id)
        if not seat.away:
            return False
        before = seat.bot
        seat.bot, seat.away = "", False
        seat.save(update_fields=["bot", "away"])
        digital.version += 1
        digital.save(update_fields=["version", "updated_at"])
        audit_record(
            actor=None,
            action="digital.back",
            obj=seat,
            tournament=_tournament(digital),
            before={"bot": before, "away": True},
            after={"bot": "", "away": False},
        )
        moves.tell_sockets(digital.pk)
    return True


def _gone_for(digital: DigitalTable) -> tuple[DigitalSeat, float] | None:
    """The person's seat the table waits for, and how many seconds are left
    until it counts as gone (0 or less: gone); None if the table waits for
    no person whose phone was ever there, or is a practice table."""
    if digital.status != DigitalTable.Status.PLAYING or digital.table_id is None:
        return None
    number = adapter.due_seat(digital)
    if number is None:
        return None
    seats = list(digital.seats.all())
    seat = next((s for s in seats if s.number == number), None)
    if seat is None or seat.bot or seat.seen_at is None:
        return None
    # Somebody must be there, waiting: when every phone is gone (the hall's
    # Wi-Fi is down) the table waits for them, rather than its bots
    # playing the game out in a minute.
    since = timezone.now() - limit()
    if not any(
        not s.bot and s.seen_at is not None and s.seen_at >= since
        for s in seats
        if s.pk != seat.pk
    ):
        return None
    left = seat.seen_at + limit() - timezone.now()
    return seat, left.total_seconds()


def take_over_if_gone(*, table_id: int) -> float | None:
    """If the seat due to act is a person's whose phone has been gone for
    the limit, a bot takes it over (0.0; the table's bots then play on);
    else the seconds until it would count as gone, or None when there is
    nothing to watch."""
    digital = DigitalTable.objects.filter(pk=table_id).first()
    due = None if digital is None else _gone_for(digital)
    if due is None or due[1] > 0:
        return None if due is None else due[1]
    with transaction.atomic():
        # Again under the table's lock: a move or the phone may have come.
        digital = moves.lock(table_id)
        due = _gone_for(digital)
        if due is None or due[1] > 0:
            return None if due is None else due[1]
        seat = DigitalSeat.objects.select_for_update().get(pk=due[0].pk)
        if seat.bot or seat.seen_at != due[0].seen_at:
            return limit().total_seconds()
        seat.bot, seat.away = AWAY_BOT, True
        seat.save(update_fields=["bot", "away"])
        digital.version += 1
        digital.save(update_fields=["version", "updated_at"])
        audit_record(
            actor=None,
            action="digital.away",
            obj=seat,
            tournament=_tournament(digital),
            before={"bot": "", "away": False, "seen_at": str(seat.seen_at)},
            after={"bot": AWAY_BOT, "away": True},
        )
        moves.tell_sockets(digital.pk)
    return 0.0


def _tournament(digital: DigitalTable) -> Tournament | None:
    table = digital.table  # None for a practice table (no query then)
    return table.series.tournament if table is not None else None
