"""Set up Django for a benchmark: a fresh SQLite file in a temp folder,
migrated, with a trivial page at /bench/trivial/ as the baseline."""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix="bench-")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    import django
    from django.conf import settings

    settings.ROOT_URLCONF = "bench.urls"
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
