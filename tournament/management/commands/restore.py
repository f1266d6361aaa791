from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.backup.services import backup_read, tournament_restore
from tournament.core.errors import UserError


class Command(BaseCommand):
    help = "Recreate a tournament from a backup file (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", help="restore under another slug")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete an existing tournament with that slug first",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = Path(options["file"]).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc}") from exc
        try:
            tournament = tournament_restore(
                doc=backup_read(data=data),
                slug=options["slug"],
                replace=options["replace"],
            )
        except UserError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Restored {tournament.slug}")
