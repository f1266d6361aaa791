import pytest

# The shared fixtures (users, a tournament, its entries) for every test folder.
pytest_plugins = ["tests.support.fixtures"]


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Database ids are reused between tests; cached standings must not be."""
    if "django_db_setup" in request.fixturenames or request.node.get_closest_marker(
        "django_db"
    ):
        from django.core.cache import cache

        cache.clear()
    yield


def pytest_collection_modifyitems(config, items):
    """The run against PostgreSQL and Redis (DATABASE_URL set) leaves out
    the tests that touch no database of the suite's: the engines, and the
    real servers of tests/support/servers.py, which drop DATABASE_URL and
    REDIS_URL unless a test hands them on (and such a test uses `db`). They
    do the same on any database; the run on SQLite tests them. A test that
    starts a server on the lane's database asks for the `db` fixture."""
    import os

    if not os.environ.get("DATABASE_URL"):
        return
    kept, left = [], []
    for item in items:
        uses = "django_db_setup" in getattr(item, "fixturenames", ())
        (kept if uses or item.get_closest_marker("django_db") else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
