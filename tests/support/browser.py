"""Debian's Chromium through Playwright, for the browser tests: one launcher,
one skip where it is missing, one sign-in, one folder for screenshots.

Playwright's own browser download cannot work here; where no Chromium is
installed the tests skip with a clear message (.ci/run installs it)."""

import contextlib
import os
import shutil
from pathlib import Path

import pytest

from tests.support import servers

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def skip_without_chromium() -> None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")


@contextlib.contextmanager
def chromium():
    """The browser, launched; skips the test where there is none. Playwright's
    sync API holds an event loop in the thread that calls this while the
    browser is open: a test that also runs async code calls it in a thread
    of its own (`tests.support.threads.in_own_thread`) or in a fixture of
    module scope."""
    servers.assert_marked(servers.running, ("e2e",))
    skip_without_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            yield browser
        finally:
            browser.close()


# A page made wider changes some colours with a transition (the menu's).
_TRANSITIONS_ENDED = """() => Promise.all(document.getAnimations()
  .filter((animation) => animation instanceof CSSTransition)
  .map((animation) => animation.finished.catch(() => null)))"""


def resize(page, viewport: dict[str, int]) -> None:
    """The open page at another width, as it then looks: once the
    transitions the change started have ended."""
    page.set_viewport_size(viewport)
    page.evaluate(_TRANSITIONS_ENDED)


def follow(page, target) -> None:
    """Click `target`, a link or a button that opens another page, and
    return once that page has loaded: what looks at the page right after a
    bare click may meet the page it left, or no document at all."""
    with page.expect_navigation():
        target.click()


def sign_in(page, base: str, username: str, password: str, next_path="/") -> None:
    """Sign in on the login page, as a person would, and land on
    `next_path`."""
    page.goto(f"{base}/konto/anmelden/?next={next_path}")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(password)
    page.locator("main").get_by_role("button", name="Anmelden").click()
    page.wait_for_url(f"{base}{next_path}")
