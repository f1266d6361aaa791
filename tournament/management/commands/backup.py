import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.backup.services import tournament_backup
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Write a whole tournament (players, seatings, every result version, "
    "audit trail) to one JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", required=True, help="FILE.json")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament {options['slug']!r}.") from exc
        doc = tournament_backup(tournament=tournament)
        path = Path(options["output"])
        tmp = path.with_suffix(path.suffix + ".part")
        # Write aside, then rename: a crash never leaves half a backup.
        tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1), "utf-8")
        tmp.replace(path)
        self.stdout.write(f"Backup of {tournament.slug} written to {path}")
