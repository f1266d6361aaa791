from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _

from tournament.backup.accounts import accounts_restore
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
        parser.add_argument(
            "--with-accounts",
            action="store_true",
            help="also make the accounts in the backup that this database lacks",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = Path(options["file"]).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc}") from exc
        if _unapplied_migrations():
            # A new server's database: set it up first, as `migrate` would.
            self.stdout.write(
                _("Die Datenbank wird zuerst eingerichtet (manage.py migrate) …")
            )
            call_command("migrate", verbosity=0)
        accounts = None
        try:
            doc = backup_read(data=data)
            # The accounts first (the tournament names its referees), in one
            # transaction with the tournament: all or nothing.
            with transaction.atomic():
                if options["with_accounts"] and isinstance(doc, dict):
                    accounts = accounts_restore(docs=doc.get("accounts", []))
                tournament = tournament_restore(
                    doc=doc, slug=options["slug"], replace=options["replace"]
                )
        except UserError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Restored {tournament.slug}")
        if accounts is not None:
            self.stdout.write(
                f"Accounts: {accounts[0]} made, "
                f"{accounts[1]} already there (left as they were)"
            )
        elif isinstance(doc, dict) and doc.get("accounts"):
            self.stdout.write(
                "The backup carries accounts; --with-accounts restores them."
            )


def _unapplied_migrations() -> bool:
    connection = connections[DEFAULT_DB_ALIAS]
    executor = MigrationExecutor(connection)
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))
