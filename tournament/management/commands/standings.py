import csv
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.standings.selectors import standings_rows


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
        rows = [r.as_api() for r in standings_rows(tournament)]
        if options["format"] == "json":
            self.stdout.write(json.dumps({"rows": rows}, ensure_ascii=False))
            return
        writer = csv.writer(self.stdout)
        series = [f"series_{n}" for n in range(1, tournament.series_count + 1)]
        writer.writerow(
            ["rank", "start_number", "name", "points", "games_won", *series]
        )
        for row in rows:
            writer.writerow(
                [
                    row["rank"],
                    row["start_number"],
                    row["name"],
                    row["points"],
                    row["games_won"],
                    *row["series_points"],
                ]
            )
