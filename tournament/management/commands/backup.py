"""`python manage.py backup [SLUG] [-o FILE.json | --dir DIR]`: a whole
tournament (players, seatings, every result version, audit trail) as one
JSON file; without a slug every tournament, each to its own file in DIR
(`var/backups/` unless given), named by slug and time, so a backup after
every series never overwrites the one before (`make backup`)."""

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from tournament.backup.accounts import accounts_backup
from tournament.backup.services import tournament_backup
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a whole tournament (players, seatings, every result version, "
        "audit trail) to one JSON file; without SLUG every tournament, each "
        "to its own file in --dir (var/backups/)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="the tournament (default: all)")
        parser.add_argument("-o", "--output", help="FILE.json (one tournament)")
        parser.add_argument(
            "--dir",
            type=Path,
            help="a folder for files named by slug and time (default var/backups)",
        )
        parser.add_argument(
            "--with-accounts",
            action="store_true",
            help="also every account (user names, groups, password hashes): "
            "keep such a file safe",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["slug"]:
            tournaments = list(Tournament.objects.filter(slug=options["slug"]))
            if not tournaments:
                raise CommandError(f"No tournament {options['slug']!r}.")
        else:
            if options["output"]:
                raise CommandError("-o writes one tournament: name its SLUG.")
            tournaments = list(Tournament.objects.order_by("slug"))
            if not tournaments:
                raise CommandError("No tournament to back up.")
        folder = options["dir"] or Path(settings.VAR_DIR) / "backups"
        stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M%S")
        for tournament in tournaments:
            path = (
                Path(options["output"])
                if options["output"]
                else folder / f"{tournament.slug}-{stamp}.json"
            )
            path.parent.mkdir(parents=True, exist_ok=True)
            doc = tournament_backup(tournament=tournament)
            if options["with_accounts"]:
                doc["accounts"] = accounts_backup()
            tmp = path.with_suffix(path.suffix + ".part")
            # Write aside, then rename: a crash never leaves half a backup.
            tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1), "utf-8")
            tmp.replace(path)
            self.stdout.write(f"Backup of {tournament.slug} written to {path}")
        if not options["with_accounts"]:
            self.stdout.write(
                "The accounts are not in it (--with-accounts carries them); "
                "photos of score sheets never are."
            )
