"""A seat whose phone is gone is played by a bot until the phone is back
(issue 14.21): a seat silent past the limit is taken over when it is due
and the game goes on; opening the link again gives the seat back; a seat
whose socket is open is never taken over, nor one nobody waits for, and
the runner's alarm finds a silent seat although nothing else happens at
the table."""

import asyncio
import queue
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from tests.support.clock import Clock
from tests.support.threads import run_async
from tests.support.websockets import ws_connect
from tournament.digital import adapter, away, runner
from tournament.digital.selectors import state
from tournament.digital.services import (
    digital_practice_create,
    digital_seat_set_bot,
)
from tournament.models import AuditEvent, DigitalSeat, DigitalTable

committing = pytest.mark.django_db(transaction=True)


def due(digital):
    digital.refresh_from_db()
    return adapter.due_seat(digital)


def seen_ago(seat, seconds, *, now=None):
    DigitalSeat.objects.filter(pk=seat.pk).update(
        seen_at=(now or timezone.now()) - timedelta(seconds=seconds)
    )


def seat_of(digital, number):
    return DigitalSeat.objects.get(table=digital, number=number)


def someone_waits(digital, number, *, now=None):
    """The phone of the seat after `number` is there, waiting for him."""
    seen_ago(seat_of(digital, number % 4 + 1), 0, now=now)


def beats(monkeypatch):
    """The times a socket's connect, beat or close wrote, as they come."""
    written = queue.Queue()
    seat_seen = away.seat_seen

    def counted(seat, *, beat=False):
        seat_seen(seat, beat=beat)
        if beat:
            written.put(seat.seen_at)

    monkeypatch.setattr(away, "seat_seen", counted)
    return written


@committing
def test_a_seat_silent_past_the_limit_is_taken_over_and_the_game_goes_on(
    four_people, memory_layer, settings
):
    settings.DIGITAL_AWAY_SECONDS = 60
    digital = four_people
    first = due(digital)
    seat = seat_of(digital, first)
    someone_waits(digital, first)
    seen_ago(seat, 59)
    runner.wake(digital.pk)
    assert not seat_of(digital, first).bot  # not yet
    seen_ago(seat, 61)
    version = DigitalTable.objects.get(pk=digital.pk).version
    runner.wake(digital.pk)
    seat.refresh_from_db()
    assert (seat.bot, seat.away) == ("greedy", True)
    # The bot played for him: the hand waits for someone else now.
    assert due(digital) != first and digital.version > version + 1
    event = AuditEvent.objects.get(action="digital.away")
    assert event.actor is None and event.object_id == str(seat.pk)
    # Everybody at the table is told.
    other = seat_of(digital, first % 4 + 1)
    players = state(digital, other)["players"]
    assert [p["away"] for p in players if p["seat"] == first] == [True]


@committing
def test_the_page_without_a_socket_gives_the_seat_back_when_it_says_here(
    four_people, memory_layer, settings, client
):
    """Opening the link again: its socket gives the seat back (next test),
    or, where sockets fail, the page's first "here" post. The GET of the
    page and its polls only read."""
    digital = four_people
    first = due(digital)
    seat = seat_of(digital, first)
    someone_waits(digital, first)
    seen_ago(seat, settings.DIGITAL_AWAY_SECONDS + 1)
    runner.wake(digital.pk)
    seat.refresh_from_db()
    assert seat.away
    client.get(reverse("tournament:digital_play", args=[seat.token]))
    client.get(reverse("tournament:digital_state", args=[seat.token]))
    assert seat_of(digital, first).away
    answer = client.post(
        reverse("tournament:digital_move", args=[seat.token]),
        {"type": "here"},
        content_type="application/json",
    ).json()
    seat.refresh_from_db()
    assert (seat.bot, seat.away) == ("", False)
    event = AuditEvent.objects.get(action="digital.back")
    assert event.actor is None and event.object_id == str(seat.pk)
    # The answer is his seat's state, at the table's current version.
    digital.refresh_from_db()
    assert answer["bot"] is False and answer["version"] == digital.version
    assert timezone.now() - seat.seen_at < timedelta(seconds=5)


@committing
def test_the_socket_gives_the_seat_back_before_its_first_state(
    four_people, memory_layer, settings
):
    digital = four_people
    first = due(digital)
    seat = seat_of(digital, first)
    someone_waits(digital, first)
    seen_ago(seat, settings.DIGITAL_AWAY_SECONDS + 1)
    runner.wake(digital.pk)
    seat.refresh_from_db()
    assert seat.away

    async def reconnect():
        socket, connected, _ = await ws_connect(f"/ws/d/{seat.token}/")
        assert connected
        message = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return message

    message = run_async(reconnect)
    assert message["bot"] is False
    assert not [p for p in message["players"] if p["away"]]
    seat.refresh_from_db()
    assert not seat.away and not seat.bot


@committing
def test_a_connected_seat_is_never_taken_over(
    four_people, memory_layer, settings, monkeypatch
):
    """The rule's clock moves only when the test moves it: three limits in
    steps of half a limit, and after each step the test waits for the
    socket's next beat instead of for time to pass."""
    settings.DIGITAL_AWAY_SECONDS = 0.6  # the socket beats every 0.2 s
    clock = Clock(monkeypatch, away)
    written = beats(monkeypatch)
    digital = four_people
    first = due(digital)
    seat = seat_of(digital, first)

    def next_beat():
        """Blocks until a beat writes the clock's present time."""
        while written.get(timeout=10) < clock.now():
            pass

    def is_away():
        return seat_of(digital, first).away

    async def connected_then_gone():
        socket, connected, _ = await ws_connect(f"/ws/d/{seat.token}/")
        assert connected
        # Three limits long, connected: the bots wait for him. The wake in
        # the consumers' database thread, as a socket's wake is; the wait
        # for the beat outside it (the beat writes in that thread).
        taken = []
        for _ in range(6):
            clock.advance(0.3)
            # His neighbour's phone is there, waiting for him.
            await database_sync_to_async(someone_waits)(digital, first, now=clock.now())
            await asyncio.to_thread(next_beat)
            await database_sync_to_async(runner.wake)(digital.pk)
            taken.append(await database_sync_to_async(is_away)())
        await socket.disconnect()
        return taken

    assert run_async(connected_then_gone) == [False] * 6
    assert due(digital) == first and not AuditEvent.objects.filter(
        action="digital.away"
    )
    # Closed: the limit counts from the close, then a bot plays for him.
    seat.refresh_from_db()
    assert seat.seen_at == clock.now()
    clock.advance(0.5)
    someone_waits(digital, first, now=clock.now())
    runner.wake(digital.pk)
    assert not seat_of(digital, first).away
    clock.advance(0.2)
    someone_waits(digital, first, now=clock.now())
    runner.wake(digital.pk)
    assert seat_of(digital, first).away


@committing
def test_no_takeover_of_an_unopened_link_nor_with_nobody_waiting_nor_at_practice(
    four_people, organizer, memory_layer, settings
):
    digital = four_people
    first = due(digital)
    # Never opened: the player has not sat down yet.
    someone_waits(digital, first)
    runner.wake(digital.pk)
    assert not seat_of(digital, first).bot
    # Every phone gone (the hall's Wi-Fi is down): nobody waits, the table
    # waits for them instead of its bots playing the game out.
    for number in range(1, 5):
        seen_ago(seat_of(digital, number), settings.DIGITAL_AWAY_SECONDS + 1)
    runner.wake(digital.pk)
    assert not seat_of(digital, first).bot
    # A practice table waits for its one person, however long.
    practice = digital_practice_create(seed="away")
    seen_ago(practice, 3600)
    runner.wake(practice.table_id)
    practice.refresh_from_db()
    assert not practice.bot
    # The organizer's choice stands: a seat he gives a bot is not given
    # back by the link, one he gives back is the person's.
    seat = seat_of(digital, first)
    someone_waits(digital, first)
    runner.wake(digital.pk)
    seat.refresh_from_db()
    assert seat.away
    digital_seat_set_bot(actor=organizer, seat=seat, bot="random")
    seat.refresh_from_db()
    assert (seat.bot, seat.away) == ("random", False)


@committing
def test_the_runner_wakes_the_table_when_the_seat_due_would_be_gone(
    four_people, memory_layer, settings, monkeypatch
):
    """Nothing happens at the table, yet the silent seat is taken over: the
    runner set an alarm for when it would count as gone."""
    settings.DIGITAL_BOTS_INLINE = False
    settings.DIGITAL_AWAY_SECONDS = 3
    settings.DIGITAL_BOT_DELAY = 0
    ended = queue.Queue()
    real_run = runner._run

    def run_and_report(table_id):
        try:
            real_run(table_id)
        finally:
            ended.put(threading.current_thread())

    monkeypatch.setattr(runner, "_run", run_and_report)
    clock = Clock(monkeypatch, away)
    digital = four_people
    first = due(digital)
    # Silent for 2 of the 3 seconds; the next seat's phone waits for him.
    seen_ago(seat_of(digital, first), 2, now=clock.now())
    someone_waits(digital, first, now=clock.now())
    runner.wake(digital.pk)
    ended.get(timeout=30)  # the first look: not gone yet
    assert not seat_of(digital, first).away
    clock.advance(1)
    # Nothing but the alarm wakes the table again (in about a second; one
    # that came before the clock moved found him not gone and set another).
    for _ in range(3):
        ended.get(timeout=30)
        if seat_of(digital, first).away:
            break
    assert seat_of(digital, first).away
