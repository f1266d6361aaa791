"""`python manage.py backup [SLUG] [-o FILE.json | --dir DIR]`: a whole
tournament (players, seatings, every result version, audit trail) as one
JSON file; without a slug every tournament, each to its own file in DIR
(`var/backups/` unless given), named by slug and time, so a backup after
every series never overwrites the one before (`make backup`)."""

import json
import os
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
            # Password hashes are for the file's owner only, from its first
            # byte on.
            tmp.unlink(missing_ok=True)
            mode = 0o600 if options["with_accounts"] else 0o666
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(json.dumps(doc, ensure_ascii=False, indent=1))
            tmp.replace(path)
            self.stdout.write(f"Backup of {tournament.slug} written to {path}")
        if options["with_accounts"]:
            self.stdout.write(
                "Only its owner may read this file: it holds the accounts' "
                "password hashes. Keep every copy as safe as the database."
            )
        else:
            self.stdout.write(
                "The accounts are not in it (--with-accounts carries them)."
            )
        self.stdout.write(
            "Season rankings, past champions and photos of score sheets are in "
            'no such backup (docs/OPERATING.md, "Backups").'
        )
