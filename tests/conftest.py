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
