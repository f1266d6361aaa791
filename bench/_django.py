"""Set up Django for a benchmark: a fresh SQLite file in a temp folder,
migrated, with a trivial page at /bench/trivial/ as the baseline. For the
benchmarks against a real server: the site's server started on a port,
and the app factory its workers call (the site, in the run's own Redis
keys)."""

import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def setup(settings_module: str = "config.test_settings") -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix="bench-")
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django
    from django.conf import settings

    settings.ROOT_URLCONF = "bench.urls"
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def asgi_app(*, urlconf: str = "", redis_prefix_variable: str = "") -> Any:
    """What a benchmark's uvicorn app factory returns: the site, with the
    URLs of `urlconf` if given (bench.urls adds the trivial page). With
    REDIS_URL and the environment variable `redis_prefix_variable` set,
    cache and channel layer use that Redis under that key prefix (this run's
    own, so nothing meets another run's or the test suite's keys and channel
    groups; config.test_settings would move Redis to a test database)."""
    sys.path.insert(0, str(ROOT))
    import django
    from django.conf import settings

    if urlconf:
        settings.ROOT_URLCONF = urlconf
    redis_url = os.environ.get("REDIS_URL", "")
    prefix = os.environ.get(redis_prefix_variable, "") if redis_prefix_variable else ""
    if redis_url and prefix:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": redis_url,
                "KEY_PREFIX": prefix,
            }
        }
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [redis_url], "prefix": prefix},
            }
        }
    django.setup()
    from config.asgi import application

    return application


def start_uvicorn(
    factory: str,
    port: int,
    env: dict[str, str],
    *,
    workers: int | None = None,
    options: Sequence[str] = (),
) -> subprocess.Popen[bytes]:
    """The site's server as the hall starts it (`manage.py serve`: uvicorn
    with the hall's front door) on the app factory `factory`
    ("module:function"), on 127.0.0.1:`port`, quietly (warnings only, no
    access log), with `workers` worker processes if given and further
    options of that command."""
    command = [
        sys.executable,
        "manage.py",
        "serve",
        "--app",
        factory,
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    if workers is not None:
        command += ["--workers", str(workers)]
    return subprocess.Popen([*command, *options], cwd=ROOT, env=env)


async def wait_for_server(
    process: subprocess.Popen[bytes], probe: Callable[[], Awaitable[int]]
) -> None:
    """Wait (60 s at most) until `probe`, a request to the server, gets 200
    (the status it returns); a connection refused or cut is tried again
    after 0.2 s. A server process that ends stops the run."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server process ended while starting")
        with contextlib.suppress(OSError, asyncio.IncompleteReadError, ValueError):
            if await probe() == 200:
                return
        await asyncio.sleep(0.2)
    raise SystemExit("the server did not start within 60 s")
