"""The standings as a CSV file, as German Excel opens it (`excel_csv`):
the page's download and `manage.py standings --format csv` write the same
file. German headers; a series a player has no confirmed result in is
empty, not 0; a withdrawn player carries the standings' mark."""

from django.utils.translation import gettext as _

from tournament.core.workbook import Writable, excel_csv
from tournament.models import Player, Tournament
from tournament.standings.selectors import played_series, series_cells, standings_rows


def standings_csv(tournament: Tournament, stream: Writable) -> None:
    rows = standings_rows(tournament)
    count = tournament.series_count
    played = played_series(tournament)
    labels = dict(Player.Category.choices)
    excel_csv(
        stream,
        [
            _("Platz"),
            _("Startnummer"),
            _("Name"),
            _("Verein"),
            _("Kategorie"),
            *[_("Serie %(n)d") % {"n": n} for n in range(1, count + 1)],
            _("Siege"),
            _("Punkte"),
            _("Abmeldung"),
        ],
        (
            [
                r.rank,
                r.start_number,
                r.name,
                r.club,
                str(labels.get(r.category, r.category)),
                *series_cells(r, count, played),
                r.games_won,
                r.points,
                r.withdrawal_text,
            ]
            for r in rows
        ),
    )
