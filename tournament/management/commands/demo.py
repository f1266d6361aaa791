from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournament.services.demo import demo_accounts_ensure, demo_tournament_create


class Command(BaseCommand):
    help = "Create the demo championship and the demo logins (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slug", default=None, help="slug of the demo tournament")
        parser.add_argument("--players", type=int, default=None)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        accounts = demo_accounts_ensure()
        tournament = demo_tournament_create(
            slug=options["slug"], players=options["players"], seed=options["seed"]
        )
        if tournament is None:
            self.stdout.write("Demo tournament exists already; left as it is.")
        else:
            self.stdout.write(f"Demo tournament created: {tournament.slug}")
        for account in accounts:
            self.stdout.write(
                f"  login {account['username']} / {account['password']}"
                f"  ({account['role']})"
            )
