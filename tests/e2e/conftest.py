"""Browser tests: Playwright driving Debian's Chromium (see
tests/support/browser.py; they skip with a message where it is missing)."""

import os

import pytest

from tests.support.browser import ARTIFACTS, chromium, skip_without_chromium


# Module scope: Playwright's sync API holds an event loop in this thread while
# the browser is open, which async tests later on the same worker must not see.
@pytest.fixture(scope="module")
def browser():
    skip_without_chromium()
    # Playwright's sync API runs its own event loop; Django must allow ORM
    # calls from the test's thread while it runs.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with chromium() as launched:
        yield launched


@pytest.fixture
def shot():
    """Save a screenshot as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return take
