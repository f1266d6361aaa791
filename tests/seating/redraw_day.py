"""A day that does not go as drawn, for the redraw's tests: series 1 drawn
for 15 players, two of them swapped by hand, released; then Karl Klein
(Nr. 16) arrives late and Nr. 14 leaves; series 2 is drawn. Six players of
one club (Nr. 1-6, "Club A") among 16 at four tables: club mates share a
table in every draw, so the series page always has a trade-off to show."""

from django.utils import timezone

from tests.support.factories import EntryFactory
from tournament.models import Entry, Seat, Series, Tournament
from tournament.seating import services as seating_services


def drawn_day(tournament: Tournament, organizer) -> tuple[Series, tuple[int, int]]:
    """Series 2 drawn after the changes; the start numbers swapped in 1."""
    for n in range(1, 16):
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=f"Vor{n}",
            player__last_name=f"Name{n}",
            player__club="Club A" if n <= 6 else f"Club {n}",
        )
    EntryFactory(
        tournament=tournament,
        start_number=16,
        player__first_name="Karl",
        player__last_name="Klein",
        player__club="Club 16",
    )
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    first = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=1)
    )
    one = Seat.objects.get(series=first, table__number=1, number=1).entry
    two = Seat.objects.get(series=first, table__number=2, number=1).entry
    first = seating_services.series_swap(
        actor=organizer, series=first, entry_a=one, entry_b=two, version=first.version
    )
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
