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

# Parallel test workers have their own databases (whose ids overlap) but may
# share one Redis: keep their cache entries apart.
CACHES["default"]["KEY_PREFIX"] = "test-" + os.environ.get(  # noqa: F405
    "PYTEST_XDIST_WORKER", "main"
)
