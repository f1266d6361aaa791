"""Seating a series, swapping two players, releasing it to the public.

One module per kind of write: ``lot`` (a series by lot), ``draws`` (the
draws offered beside the one taken), ``standings`` (a series by the
standings), ``swaps`` (two players by hand, and what swaps made worse),
``late`` (a late arrival on a free seat), ``release``; ``common`` what they
share. The site imports them from here, ``tournament.seating.services``.
"""

from tournament.seating.services.common import (
    EDITABLE,
    SWAPPABLE,
    seated_players,
    series_ensure,
)
from tournament.seating.services.draws import (
    DRAW_OPTIONS,
    DRAW_OPTIONS_SECONDS,
    DrawOption,
    _draw_option,
    draw_options,
)
from tournament.seating.services.late import LATE_JOINABLE, series_seat_late
from tournament.seating.services.lot import series_seat
from tournament.seating.services.release import field_changed_message, series_release
from tournament.seating.services.standings import series_seat_by_standings
from tournament.seating.services.swaps import (
    DRAWN_FIGURES,
    series_swap,
    swap_effect,
    swapped_worse,
    worse_text,
)

__all__ = [
    "DRAWN_FIGURES",
    "DRAW_OPTIONS",
    "DRAW_OPTIONS_SECONDS",
    "EDITABLE",
    "LATE_JOINABLE",
    "SWAPPABLE",
    "DrawOption",
    "_draw_option",
    "draw_options",
    "field_changed_message",
    "seated_players",
    "series_ensure",
    "series_release",
    "series_seat",
    "series_seat_by_standings",
    "series_seat_late",
    "series_swap",
    "swap_effect",
    "swapped_worse",
    "worse_text",
]
