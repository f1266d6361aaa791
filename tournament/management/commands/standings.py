import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.core.workbook import csv_write
from tournament.models import Tournament
from tournament.standings.selectors import (
    played_series,
    series_cells,
    standings_rows,
)


class Command(BaseCommand):
    help = "Print a tournament's standings as JSON (the API's rows) or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament {options['slug']!r}.") from exc
        count, played = tournament.series_count, played_series(tournament)
        rows = [
            r.as_api(series_cells(r, count, played)) for r in standings_rows(tournament)
        ]
        if options["format"] == "json":
            self.stdout.write(json.dumps({"rows": rows}, ensure_ascii=False))
            return
        series = [f"series_{n}" for n in range(1, count + 1)]
        # Names are what users typed: csv_write keeps a spreadsheet from
        # evaluating them. One column per series, whatever the kept totals
        # hold (they follow the settings only once they are refreshed).
        csv_write(
            self.stdout,
            ["rank", "start_number", "name", "points", "games_won", *series],
            (
                [
                    row["rank"],
                    row["start_number"],
                    row["name"],
                    row["points"],
                    row["games_won"],
                    *(row["series_points"] + [None] * count)[:count],
                ]
                for row in rows
            ),
        )
