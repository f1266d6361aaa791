"""`python manage.py housekeeping`: what the site lets go of with time, for
every tournament at once: submission keys older than IDEMPOTENCY_KEY_DAYS
(`core.idempotency`), photos of score sheets past their retention
(`sheetphoto.services.photos_expire`), and the organizer's jobs with their
files after two days (`paper.jobs.jobs_prune`). Nothing else does it: no
request of one tournament does another's housekeeping.

Production runs it from a timer (deploy/systemd/siebenschraem-expire.timer,
hourly); `make run` and `make serve` run it at every start, and `manage.py
serve` every hour while it serves (`every`, on the process's timer).
"""

import contextlib
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection

from tournament.core import background


class Command(BaseCommand):
    help = "Forget expired submission keys, photos of score sheets and jobs."

    def handle(self, *args: Any, **options: Any) -> None:
        # Here, not above: `manage.py serve` imports this module for `every`,
        # and its process needs neither the photo reader nor the PDFs.
        from tournament.core.idempotency import submission_keys_expire
        from tournament.paper.jobs import jobs_prune
        from tournament.sheetphoto.services import photos_expire

        keys = submission_keys_expire()
        photos = photos_expire()
        jobs = jobs_prune()
        if options["verbosity"]:
            self.stdout.write(
                f"{keys} submission key(s), {photos} photo(s), {jobs} job(s) deleted."
            )


def every(seconds: float) -> None:
    """Run the housekeeping every `seconds` in this process, in its pool
    "housekeeping" (one at a time: a run still busy skips the next)."""

    def run() -> None:
        try:
            call_command("housekeeping", verbosity=0)
        finally:
            connection.close()

    def tick() -> None:
        with contextlib.suppress(background.Full):
            background.pool("housekeeping", background.Bound(workers=1)).submit(run)
        every(seconds)

    background.later(seconds, tick, key="housekeeping")
