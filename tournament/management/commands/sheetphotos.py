"""`python manage.py sheetphotos expire`: delete the images of photographed
score sheets older than SHEET_PHOTO_RETENTION_DAYS (and of photos never
saved as a result, after a day); `python manage.py sheetphotos delete
SLUG`: delete a tournament's photos now, as the organizer's page does.
The rows and their hashes stay (the Protokoll keeps them too).

`manage.py housekeeping` expires them with the rest of what has expired
(at every start of `make run` and `make serve`, hourly while `manage.py
serve` serves, and from the production timer)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.sheetphoto import services


class Command(BaseCommand):
    help = "Delete photos of score sheets: the expired ones, or a tournament's."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        actions.add_parser("expire", help="delete photos older than the setting")
        delete = actions.add_parser("delete", help="delete a tournament's photos")
        delete.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "expire":
            count = services.photos_expire()
        else:
            tournament = Tournament.objects.filter(slug=options["slug"]).first()
            if tournament is None:
                raise CommandError(f"No tournament {options['slug']!r}.")
            count = services.photos_delete(actor=None, tournament=tournament)
        if options["verbosity"]:
            self.stdout.write(f"{count} photo(s) deleted.")
