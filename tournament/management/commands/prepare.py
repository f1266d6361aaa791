"""The steps before the server starts, in one Django start-up.

    python manage.py prepare [--static] "migrate --noinput -v0" "demo --complete 3" …

Each argument is one management command with its options, run in the
order given; `--static` collects the static files last, and only when
their sources changed since the last collection. `make run` and `make
serve` prepare this way: every start of Python with the whole site costs
seconds on a laptop (the PDF and photo libraries are loaded once per
start), and collecting the static files compresses each of them again
even when none changed. A restart after a crash, with nothing to migrate
or collect, then serves again within seconds.
"""

import hashlib
import shlex
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

# Beside the collected files: what their sources were when last collected.
SOURCES_FILE = ".sources"
MANIFEST_FILE = "staticfiles.json"


def static_sources() -> str:
    """A fingerprint of every static source file the finders find: its
    name, size and modification time (a changed, added or removed file
    changes it), and the storage's class (debug or compressed)."""
    digest = hashlib.sha256(settings.STORAGES["staticfiles"]["BACKEND"].encode())
    found: list[str] = []
    for finder in get_finders():
        for path, storage in finder.list([]):
            stat = Path(storage.path(path)).stat()
            found.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    for line in sorted(found):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def static_collect(*, verbosity: int) -> bool:
    """collectstatic unless the sources are those of the last collection
    (and its manifest is still there); True if it collected."""
    root = Path(settings.STATIC_ROOT)
    stamp = root / SOURCES_FILE
    sources = static_sources()
    collected = (root / MANIFEST_FILE).exists() or "Manifest" not in (
        settings.STORAGES["staticfiles"]["BACKEND"]
    )
    if collected and stamp.exists() and stamp.read_text() == sources:
        return False
    stamp.unlink(missing_ok=True)
    call_command("collectstatic", interactive=False, verbosity=verbosity)
    stamp.write_text(sources)
    return True


class Command(BaseCommand):
    # The checks load every view (and with them the PDF and photo
    # libraries); `manage.py serve --check` runs them where that is done
    # anyway.
    requires_system_checks: list[str] = []
    help = (
        "Run management commands one after another in one start-up; "
        "--static: collect the static files if their sources changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "steps", nargs="*", help='one command with its options each: "demo -v0"'
        )
        parser.add_argument(
            "--static",
            action="store_true",
            help="collectstatic last, only if the static sources changed",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for step in options["steps"]:
            words = shlex.split(step)
            if not words:
                raise CommandError("An empty step.")
            call_command(*words)
        if options["static"]:
            static_collect(verbosity=0)
        connections.close_all()
