"""`python manage.py export SLUG -o FILE.xlsx`: the results workbook."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from tournament.models import Tournament
from tournament.paper.workbook import results_workbook


class Command(BaseCommand):
    help = "Export a tournament's results workbook (.xlsx)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", required=True, help="FILE.xlsx")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament {options['slug']!r}.") from exc
        with translation.override(settings.LANGUAGE_CODE):
            content = results_workbook(tournament=tournament)
        output = Path(options["output"])
        output.write_bytes(content)
        self.stdout.write(f"{output}: {len(content)} bytes")
