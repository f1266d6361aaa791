import io
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.standings.export import standings_csv
from tournament.standings.selectors import played_series, series_cells, standings_rows


class Command(BaseCommand):
    help = (
        "Print a tournament's standings as JSON (the API's rows) or as the CSV "
        "German Excel opens (semicolons, UTF-8 with BOM, German headers)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament {options['slug']!r}.") from exc
        if options["format"] == "json":
            count, played = tournament.series_count, played_series(tournament)
            rows = [
                r.as_api(series_cells(r, count, played))
                for r in standings_rows(tournament)
            ]
            self.stdout.write(json.dumps({"rows": rows}, ensure_ascii=False))
            return
        # The file German Excel opens (the page's download is the same),
        # written whole: the output wrapper would end its first line early.
        buffer = io.StringIO()
        standings_csv(tournament, buffer)
        self.stdout.write(buffer.getvalue(), ending="")
