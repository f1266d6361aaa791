"""The standings as a CSV file, as German Excel opens it (`excel_csv`):
the page's download and `manage.py standings --format csv` write the same
file. German headers; a series a player has no confirmed result in is
empty, not 0; a withdrawn player carries the standings' mark."""

from tournament.core.workbook import Writable, excel_csv
from tournament.models import Tournament
from tournament.standings.selectors import (
    export_cells,
    export_headers,
    played_series,
    standings_rows,
)


def standings_csv(tournament: Tournament, stream: Writable) -> None:
    count = tournament.series_count
    played = played_series(tournament)
    excel_csv(
        stream,
        export_headers(count),
        (export_cells(r, count, played) for r in standings_rows(tournament)),
    )
