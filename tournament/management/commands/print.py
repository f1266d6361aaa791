"""`python manage.py print SLUG sheets|seating|cards|playercards|standings|
certificates|poster [--series K] [--filled] [--top N] [--number N]
[--address URL] -o FILE.pdf`"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from tournament.core.errors import UserError
from tournament.management.commands.hall import hall_address
from tournament.models import Tournament
from tournament.paper.pdf import KINDS, MAX_CERTIFICATES, document_pdf

# The documents with QR codes to the site: they need the address phones open.
QR_DOCUMENTS = ("cards", "poster", "playercards", "sheets")


class Command(BaseCommand):
    help = "Print a tournament's documents as PDF (A4)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("document", choices=KINDS)
        parser.add_argument(
            "--series", type=int, help="series number (default: the latest seated)"
        )
        parser.add_argument(
            "--filled",
            action="store_true",
            help="score sheets filled from the confirmed results",
        )
        parser.add_argument(
            "--top",
            type=int,
            default=3,
            help=f"certificates for places 1..N (1 to {MAX_CERTIFICATES}, default 3)",
        )
        parser.add_argument(
            "--number",
            type=int,
            help="playercards: only the card of this start number (default: "
            "every player checked in)",
        )
        parser.add_argument(
            "--address",
            help="the address phones in the hall open, for the QR codes of the "
            "table cards, score sheets, player cards and the poster (default: "
            "http://<the laptop's LAN address>:8000/)",
        )
        parser.add_argument("-o", "--output", required=True, help="FILE.pdf")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament {options['slug']!r}.") from exc
        try:
            with translation.override(settings.LANGUAGE_CODE):
                document = document_pdf(
                    tournament=tournament,
                    kind=options["document"],
                    series_number=options["series"],
                    filled=options["filled"],
                    top=options["top"],
                    start_number=options["number"],
                    base_url=(
                        (options["address"] or hall_address())
                        if options["document"] in QR_DOCUMENTS
                        else ""
                    ),
                )
        except UserError as error:
            raise CommandError(error.message) from error
        output = Path(options["output"])
        output.write_bytes(document.content)
        self.stdout.write(f"{output}: {document.pages} pages")
