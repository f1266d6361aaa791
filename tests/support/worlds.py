"""Named test worlds: the tournaments several test files play in, each
built by one function here (a unit test and its browser test meet the same
field), not by a copy per file.

Each takes the tournament and the organizer it is built for (the tests'
own fixtures, or a browser test's tournament with a password) and returns
what the tests look at.

A world every test of a file reads (and changes only inside its own test)
is built once for the file with `kept_for_the_fixture`: in a fixture of
module scope, which pytest-django lets at the database through its
`django_db_blocker`."""

import contextlib
from collections.abc import Iterator

from django.db import transaction
from django.utils import timezone

from tests.support.factories import EntryFactory, make_series
from tournament.models import Entry, Seat, Series, Tournament
from tournament.seating import adapter
from tournament.seating import services as seating_services


@contextlib.contextmanager
def kept_for_the_fixture(django_db_blocker) -> Iterator[None]:
    """What is written inside stays for as long as the fixture around it
    lives (module scope: every test of the file) and is gone after: it is
    written in a transaction rolled back at the end. Each test runs in a
    savepoint of its own inside (the `db` fixture's), so what a test
    changes is gone before the next. Not for tests that commit
    (`django_db(transaction=True)`): they empty the database."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


# --- A late arrival ------------------------------------------------------------


def present(tournament: Tournament, count: int, *, club_a: int = 0) -> None:
    """Players Nr. 1 … `count` checked in, called Vor<n> Name<n> of
    "Club <n>" (the first `club_a` of them of "Club A")."""
    for n in range(1, count + 1):
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=f"Vor{n}",
            player__last_name=f"Name{n}",
            player__club="Club A" if n <= club_a else f"Club {n}",
        )


def karl_klein(tournament: Tournament, number: int) -> None:
    """Karl Klein (Nr. `number`, "Club <number>"), registered, not here yet."""
    EntryFactory(
        tournament=tournament,
        start_number=number,
        player__first_name="Karl",
        player__last_name="Klein",
        player__club=f"Club {number}",
    )


def late_arrival(tournament: Tournament, organizer, *, release: bool = True) -> Series:
    """14 players present (Vor1 Name1 … of "Club 1" …), series 1 drawn:
    tables 1-2 of four, 3-4 of three; released unless `release` is False.
    Karl Klein (Nr. 15, "Club 15") is registered but not here yet."""
    present(tournament, 14)
    karl_klein(tournament, 15)
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    series = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=1)
    )
    if release:
        series = seating_services.series_release(actor=organizer, series=series)
    return series


# --- A swap that makes more pairs meet again -----------------------------------


def swap_second_series(
    tournament: Tournament, *, first_name: str, last_name: str, club: str
) -> Series:
    """Eight players, series 1 released at tables 1-4 and 5-8, series 2
    seated by lot at 1, 2, 5, 6 and 3, 4, 7, 8, so four pairs meet again;
    swapping 3 and 5 makes six. Returns series 2. Each player is
    `first_name` and `club` with his start number appended, all called
    `last_name`."""
    entries = {
        n: EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=f"{first_name}{n}",
            player__last_name=last_name,
            player__club=f"{club} {n}",
        )
        for n in range(1, 9)
    }
    seating_services.series_ensure(tournament=tournament)
    first = make_series(tournament, entries=[entries[n] for n in range(1, 9)])
    series = make_series(
        tournament,
        number=2,
        status="seated",
        entries=[entries[n] for n in (1, 2, 5, 6, 3, 4, 7, 8)],
    )
    series.mode = Series.Mode.LOT
    series.seed = "c0ffee"
    series.quality = adapter.seating_quality(
        [adapter.stored_series(first), adapter.stored_series(series)],
        list(entries.values()),
    )
    series.save()
    return series


# --- A day that does not go as drawn -------------------------------------------


def first_series_swapped(
    tournament: Tournament, organizer
) -> tuple[Series, tuple[Entry, Entry]]:
    """Series 1 drawn, then the first players of tables 1 and 2 swapped by
    the organizer. Returns the series and the two swapped entries."""
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    first = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=1)
    )
    one = Seat.objects.get(series=first, table__number=1, number=1).entry
    two = Seat.objects.get(series=first, table__number=2, number=1).entry
    first = seating_services.series_swap(
        actor=organizer, series=first, entry_a=one, entry_b=two, version=first.version
    )
    return first, (one, two)


def redraw_day(tournament: Tournament, organizer) -> tuple[Series, tuple[int, int]]:
    """Series 1 drawn for 15 players, two of them swapped by hand,
    released; then Karl Klein (Nr. 16) arrives late and Nr. 14 leaves;
    series 2 is drawn. Six players of one club (Nr. 1-6, "Club A") among 16
    at four tables: club mates share a table in every draw, so the series
    page always has a trade-off to show. Returns series 2 and the start
    numbers swapped in series 1."""
    present(tournament, 15, club_a=6)
    karl_klein(tournament, 16)
    first, (one, two) = first_series_swapped(tournament, organizer)
    # The swap may make series 1 worse than drawn: the organizer said yes.
    seating_services.series_release(actor=organizer, series=first, accept_worse=True)
    Entry.objects.filter(tournament=tournament, start_number=16).update(checked_in=True)
    Entry.objects.filter(tournament=tournament, start_number=14).update(
        withdrawn_at=timezone.now(), withdrawn_after_series=1
    )
    second = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=2)
    )
    return second, (one.start_number, two.start_number)
