import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.core.errors import UserError
from tournament.models import Tournament
from tournament.registration.player_import import (
    check_players,
    parse_mapping,
    propose_mapping,
    read_player_table,
)
from tournament.registration.services import entries_import


class Command(BaseCommand):
    help = (
        "Import a club's player list (.xlsx, .xls, .ods, CSV) into a tournament "
        "as the import page does: the proposed mapping of columns to fields, or "
        'one given as --map "Familienname=last_name,Telefon=". Nothing is '
        "imported unless every row is right."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--dry-run", action="store_true", help="Check only; import nothing."
        )
        parser.add_argument(
            "--json", action="store_true", help="Print the preview as JSON."
        )
        parser.add_argument(
            "--map",
            default="",
            help="Header=field pairs, comma-separated (fields: start_number, "
            "first_name, last_name, name_comma, club, town, category, team; "
            "empty: not taken); other columns keep the proposal.",
        )
        parser.add_argument(
            "--hidden",
            action="store_true",
            help="Take the rows hidden or filtered out in the file too.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament {options['slug']!r}.") from exc
        path: Path = options["file"]
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from exc
        try:
            with path.open("rb") as upload:
                table = read_player_table(upload, size=len(content), filename=path.name)
            mapping = (
                parse_mapping(options["map"], table)
                if options["map"]
                else propose_mapping(table)
            )
        except UserError as error:
            raise CommandError(error.message) from error
        preview = check_players(
            table, mapping, tournament=tournament, take_hidden=options["hidden"]
        )
        if options["json"]:
            self.stdout.write(json.dumps(preview.as_json(), ensure_ascii=False))
        else:
            self._describe(preview)
        if not preview.ok:
            raise CommandError(
                "Nothing imported: the columns or rows said above need correcting."
                if not options["json"]
                else "Nothing imported: see the rows' errors."
            )
        if options["dry_run"]:
            return
        entries = entries_import(
            actor=None, tournament=tournament, rows=preview.player_data()
        )
        if not options["json"]:
            self.stdout.write(f"{len(entries)} players imported.")

    def _describe(self, preview: Any) -> None:
        where = f"sheet {preview.sheet!r}, " if preview.sheet else ""
        self.stdout.write(f"Read {where}header in row {preview.header_row}.")
        for column in preview.mapping:
            self.stdout.write(
                f"  {column.letter} {column.header or '-'}: {column.field or '-'}"
            )
        for error in preview.file_errors + preview.mapping_errors:
            self.stdout.write(f"! {error}")
        if preview.hidden_lines:
            taken = "taken" if preview.take_hidden else "left out (--hidden takes them)"
            self.stdout.write(
                f"{len(preview.hidden_lines)} hidden rows {taken}: "
                + ", ".join(str(n) for n in preview.hidden_lines)
            )
        for row in preview.rows:
            for message in row.errors:
                self.stdout.write(f"! row {row.line}: {message}")
            for message in row.warnings:
                self.stdout.write(f"  row {row.line}: {message}")
