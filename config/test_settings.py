"""Settings for the test suite: the real ones with a throwaway key and a fast
password hasher (tests create many users)."""

import os

os.environ.setdefault("SECRET_KEY", "test-suite-only-not-a-secret")
os.environ.setdefault("DEBUG", "0")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
SECURE_SSL_REDIRECT = False
# The test database is made from the models, not by replaying every
# migration in each test worker (seconds each, more on PostgreSQL);
# tests/conftest.py then records the migrations as applied (`migrate
# --fake`), and tests/site/test_migrations_match.py fails when the
# models and the migrations disagree.
DATABASES["default"].setdefault("TEST", {})["MIGRATE"] = False  # noqa: F405
# A request body arrives at once over loopback; a test of a slow one should
# not wait the 15 s a phone in the hall gets.
REQUEST_BODY_SECONDS = 2.0
# Bots of digital tables move at once, in the committing thread (a server
# started by a test may ask for the real runner threads instead).
DIGITAL_BOTS_INLINE = os.environ.get("DIGITAL_BOTS_INLINE", "1") == "1"

# Parallel test workers have their own databases (whose ids overlap) but may
# share one Redis: keep their cache entries apart.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
CACHES["default"]["KEY_PREFIX"] = f"test-{_WORKER}"  # noqa: F405
if REDIS_URL:  # noqa: F405
    # cache.clear() empties a whole Redis database, and channel groups are
    # named by tournament id: each worker gets its own database number
    # (4, 5, …; 3 for anything else; 1 and 2 are the live tests' own).
    _db = 4 + int(_WORKER[2:]) if _WORKER.startswith("gw") else 3
    _url = REDIS_URL.rsplit("/", 1)[0] if REDIS_URL.count("/") > 2 else REDIS_URL  # noqa: F405
    CACHES["default"]["LOCATION"] = f"{_url}/{_db}"  # noqa: F405
    CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [f"{_url}/{_db}"]  # noqa: F405
