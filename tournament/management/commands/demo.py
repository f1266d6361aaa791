import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.demo.services import (
    demo_accounts_ensure,
    demo_play,
    demo_ranking_add,
    demo_tournament_create,
)
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Create the demo championship and the demo logins (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slug", default=None, help="slug of the demo tournament")
        parser.add_argument("--players", type=int, default=None)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--date",
            default=None,
            help="the day, YYYY-MM-DD (another year: the same persons again)",
        )
        parser.add_argument(
            "--complete",
            type=int,
            default=0,
            help="play this many series to the end with bots, and half the next",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            date = (
                datetime.date.fromisoformat(options["date"])
                if options["date"]
                else None
            )
        except ValueError as error:
            raise CommandError(f"--date: {error}") from error
        accounts = demo_accounts_ensure()
        tournament = demo_tournament_create(
            slug=options["slug"],
            players=options["players"],
            seed=options["seed"],
            date=date,
        )
        if tournament is None:
            self.stdout.write("Demo tournament exists already; left as it is.")
        else:
            self.stdout.write(f"Demo tournament created: {tournament.slug}")
            if options["complete"]:
                demo_play(
                    tournament=tournament,
                    complete=options["complete"],
                    seed=options["seed"],
                )
                done = Tournament.objects.get(pk=tournament.pk)
                played = min(options["complete"], done.series_count)
                rest = (
                    ", the next one half entered"
                    if played < done.series_count
                    else " (the final standings)"
                )
                self.stdout.write(
                    f"  played with bots: {played} series complete{rest} "
                    f"({done.entries.count()} players)"
                )
            ranking = demo_ranking_add(tournament=tournament)
            self.stdout.write(
                f"  season ranking {ranking.slug}: "
                f"{ranking.tournaments.count()} tournaments"
            )
        for account in accounts:
            self.stdout.write(
                f"  login {account['username']} / {account['password']}"
                f"  ({account['role']})"
            )
