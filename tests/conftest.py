import os

import pytest
from hypothesis import settings

from tests.support import servers
from tests.support.hostile import THOROUGH

# The shared fixtures (users, a tournament, its entries) for every test folder.
pytest_plugins = ["tests.support.fixtures"]

# Property tests: "thorough" (hypothesis's own 100 examples per test, and
# what a test asks beyond that) for `make test` and CI; "quick", a tenth of
# that, for the edit loop (`make test-fast`). HYPOTHESIS_PROFILE chooses;
# without it, thorough. A test's @example cases run in both.
# No deadline: a test asserts behaviour, never time (the benchmarks in
# bench/ measure speed); an example slowed by a loaded machine (CI's two
# cores running servers and browsers beside it) is not a failure.
settings.register_profile("thorough", max_examples=THOROUGH, deadline=None)
settings.register_profile("quick", max_examples=THOROUGH // 10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "thorough"))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, made from the models (MIGRATE False in
    config/test_settings.py), recorded as migrated to the latest state by
    `migrate --fake`: the data migrations' tests and `restore` see it as a
    migrated database."""
    from django.core.management import call_command
    from django.db import connections

    with django_db_blocker.unblock():
        for alias in connections:
            call_command("migrate", fake=True, database=alias, verbosity=0)


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Database ids are reused between tests; cached standings must not be."""
    if "django_db_setup" in request.fixturenames or request.node.get_closest_marker(
        "django_db"
    ):
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """The test being run, for tests/support/servers.py: a server process
    or a browser it starts, also in a fixture, needs the test marked so."""
    servers.running = item
    try:
        return (yield)
    finally:
        servers.running = None


# Files that start a whole day, servers or a browser wait most of their
# time; run first, they overlap the quick files instead of ending the run
# alone (with -n, each file goes whole to one worker: --dist loadfile).
_FIRST = ("slow", "server", "e2e")


def _rank(item) -> int:
    marks = {m.name for m in item.iter_markers()}
    return next((i for i, m in enumerate(_FIRST) if m in marks), len(_FIRST))


def _minutes(item) -> float:
    """The minutes a long file says it takes on a worker of a loaded `make
    test` (`pytest.mark.slow(minutes=…)`). The longest go first: one about as
    long as the rest of the run would otherwise start late and end it alone."""
    return max(
        (m.kwargs.get("minutes", 0) for m in item.iter_markers("slow")), default=0
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    _leave_out_on_postgresql(config, items)
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    # A file ranks as its slowest test; among equals, the longer first,
    # then more tests first.
    order = sorted(
        files.values(),
        key=lambda f: (min(map(_rank, f)), -max(map(_minutes, f)), -len(f)),
    )
    items[:] = [item for f in order for item in f]


def _leave_out_on_postgresql(config, items):
    """The run against PostgreSQL and Redis (DATABASE_URL set) leaves out
    the tests that touch no database of the suite's: the engines, and the
    real servers of tests/support/servers.py, which drop DATABASE_URL and
    REDIS_URL unless a test hands them on (and such a test uses `db`). They
    do the same on any database; the run on SQLite tests them. A test that
    starts a server on the lane's database asks for the `db` fixture."""
    if not os.environ.get("DATABASE_URL"):
        return
    kept, left = [], []
    for item in items:
        uses = "django_db_setup" in getattr(item, "fixturenames", ())
        (kept if uses or item.get_closest_marker("django_db") else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
