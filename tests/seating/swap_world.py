"""The world of the swap tests (tests/seating/test_swap_preview.py and its
browser test): eight players, series 1 released at tables 1-4 and 5-8,
series 2 seated by lot at 1, 2, 5, 6 and 3, 4, 7, 8, so four pairs meet
again; swapping 3 and 5 makes six."""

from tests.support.factories import EntryFactory, make_series
from tournament.models import Series, Tournament
from tournament.seating import adapter
from tournament.seating import services as seating_services


def second_series(
    tournament: Tournament, *, first_name: str, last_name: str, club: str
) -> Series:
    """Series 2 of that world; each player `first_name` and `club` with his
    start number appended, all called `last_name`."""
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
