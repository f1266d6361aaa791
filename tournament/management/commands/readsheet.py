"""`python manage.py readsheet PHOTO [--json] [--tournament SLUG]
[--series N] [--table N]`: read a photographed score sheet and print what
the result form would be pre-filled with; a sheet that cannot be read
exits non-zero with the sentence the person at the table would see."""

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from tournament.sheetphoto.reader.read import (
    MAX_BYTES,
    Expected,
    SheetRefused,
    read_sheet,
)
from tournament.sheetphoto.refusals import refusal_message


class Command(BaseCommand):
    help = "Read a photographed score sheet (Spielliste)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("photo", help="JPEG, PNG or WebP file")
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument("--tournament", help="refuse another tournament's sheet")
        parser.add_argument("--series", type=int, help="refuse another series' sheet")
        parser.add_argument("--table", type=int, help="refuse another table's sheet")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["photo"])
        expected = None
        if options["tournament"]:
            expected = Expected(
                tournament=options["tournament"],
                series=options["series"],
                table=options["table"],
            )
        with translation.override(settings.LANGUAGE_CODE):
            try:
                with path.open("rb") as photo:
                    # One byte more than allowed is enough to refuse it.
                    data = photo.read(MAX_BYTES + 1)
                reading = read_sheet(data, expected=expected)
            except OSError as error:
                raise CommandError(f"{path}: {error.strerror}") from error
            except SheetRefused as refusal:
                raise CommandError(refusal_message(refusal)) from refusal
        if options["json"]:
            self.stdout.write(json.dumps(reading.as_dict(), ensure_ascii=False))
            return
        sheet = reading.sheet
        self.stdout.write(
            f"{sheet.tournament} · Serie {sheet.series} · Tisch {sheet.table}"
        )
        for game in reading.games:
            if game.winner_seat is None:
                line = "?"
            else:
                line = f"Sitz {game.winner_seat}, {game.marks_left} Schräm"
            flag = "  ← prüfen" if game.flagged else ""
            self.stdout.write(f"Spiel {game.number}: {line}{flag}")
