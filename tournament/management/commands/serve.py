"""Serve the site as the hall does: uvicorn with the hall's front door
(`tournament.core.front`), after raising the open-files limit.

    python manage.py serve [--host H] [--port P | --fd N] [--workers W]
                           [--ssl-keyfile K --ssl-certfile C] [--ws none]
                           [--app module:attribute [--factory]] [--check]

`make run` and `make serve` start the site this way, and so do the tests
and benchmarks that need a real server. While it serves, `manage.py
housekeeping` runs every `--housekeeping` seconds (an hour; 0: never), and
at its end the background work stops (`core.background`, on the ASGI
lifespan's shutdown). Every phone holds a connection or
two and its live socket, and each is an open file: the usual laptop limit
of 1,024 is met by a hall of 400 phones, so the command raises the soft
limit to the hard one and says so if that stays low.
"""

import sys
from typing import Any

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext as _

from tournament.core.front import (
    Budget,
    HallProtocol,
    give_memory_back,
    raise_open_files,
)
from tournament.management.commands import housekeeping

# Below this many open files, a hall of 400 phones may be turned away.
ENOUGH_FILES = 4096


class Command(BaseCommand):
    help = "Serve the site as the hall does (uvicorn, the hall's front door)."

    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--fd", type=int, help="serve a socket already bound")
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--ssl-keyfile")
        parser.add_argument("--ssl-certfile")
        parser.add_argument("--app", default="config.asgi:application")
        parser.add_argument("--factory", action="store_true")
        parser.add_argument("--ws", default="auto", help="none: no websockets")
        parser.add_argument("--log-level", default="warning")
        parser.add_argument(
            "--housekeeping",
            type=float,
            default=3600.0,
            help="seconds between runs of `manage.py housekeeping` (0: none)",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="Django's system checks first (the site's code is loaded then)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            # Here rather than in `manage.py prepare`: the checks load every
            # view of the site, and this process needs them loaded anyway.
            self.check()
        give_memory_back()
        files = raise_open_files()
        if files < ENOUGH_FILES:
            connections = Budget.of(files).connections
            message = _(
                "Achtung: Dieser Rechner erlaubt dem Server nur %(files)d offene "
                "Dateien, also etwa %(connections)d Verbindungen; ein Saal mit 400 "
                "Handys braucht mehr. Vor dem Start im selben Fenster `ulimit -n "
                "65536` eingeben (Handbuch: „Der Tag in der Halle“)."
            ) % {"files": files, "connections": connections}
            print(message, file=sys.stderr, flush=True)
        if options["housekeeping"] > 0:
            housekeeping.every(options["housekeeping"])
        uvicorn.run(
            options["app"],
            factory=options["factory"],
            host=options["host"],
            port=options["port"],
            fd=options["fd"],
            workers=options["workers"],
            http=HallProtocol,
            # The live fragments go out gzipped already: no compression again
            # per socket.
            ws=options["ws"],
            ws_per_message_deflate=False,
            # The site's shutdown ends its background work
            # (`core.background.Lifespan`); an app without it is served all the same.
            lifespan="auto",
            # Each request's task starts with a context of its own. uvicorn
            # starts a pipelined request from within the previous one's
            # answer, and the new task took over that request's context:
            # Django's handler then found the previous request's (ended)
            # thread-sensitive context and made it an executor that nobody
            # shuts down, a thread left behind for every such request.
            reset_contextvars=True,
            log_level=options["log_level"],
            access_log=False,
            proxy_headers=True,
            forwarded_allow_ips=settings.FORWARDED_ALLOW_IPS,
            ssl_keyfile=options["ssl_keyfile"],
            ssl_certfile=options["ssl_certfile"],
        )
