"""static/js/live.js in a real browser (Debian's Chromium through Playwright)
against a real uvicorn process: the standings change without a reload when
a result is confirmed; with the server gone the page says so, polls, and
reconnects once websockets are back.

The page's clock is Playwright's, so backoff and poll timers can be run
forward instead of waited for."""

import pytest

from tests.support import servers as support
from tests.support.browser import chromium, skip_without_chromium
from tests.support.threads import in_own_thread

pytestmark = pytest.mark.e2e

STATE = ".live-status[data-live-state='{}']"


@pytest.fixture
def site(tmp_path):
    """A seeded database and a way to (re)start the server on one port."""
    skip_without_chromium()  # before the seeding, which takes seconds
    # DEBUG: WhiteNoise serves the static files straight from static/.
    env = support.server_env(tmp_path, DEBUG="1")
    pending = support.seed_database(env)
    port = support.free_port()
    running = []

    def start(*options):
        process = support.start_server(env, port, *options)
        running.append(process)
        support.wait_until_up(port, process)
        return process

    yield port, pending, start
    for process in running:
        support.stop(process)


def test_standings_follow_confirmations_through_push_poll_and_reconnect(site):
    in_own_thread(_push_poll_and_reconnect, *site)


def _push_poll_and_reconnect(port, pending, start):
    server = start()
    with chromium() as browser:
        page = browser.new_page()
        page.clock.install()
        page.goto(f"http://127.0.0.1:{port}/t/{support.SLUG}/tabelle/")
        page.wait_for_selector(STATE.format("live"))
        page.evaluate("window.loadedOnce = true")

        # Pushed: table 1's winner (70 points) appears without a reload.
        support.confirm(port, 1, *pending[1])
        page.wait_for_selector("td.points:text-is('70')", timeout=5000)

        # The server goes away: the page says so.
        support.stop(server)
        page.wait_for_selector(STATE.format("offline"), timeout=5000)

        # Back without websockets: the page keeps current by polling.
        http_only = start("--ws", "none")
        support.confirm(port, 2, *pending[2])
        assert page.locator("td.points:text-is('65')").count() == 0
        page.clock.run_for(25_000)
        page.wait_for_selector("td.points:text-is('65')", timeout=5000)
        assert page.locator(STATE.format("offline")).count() == 1

        # Websockets again: within the longest backoff (30 s) it is live again.
        support.stop(http_only)
        start()
        page.clock.run_for(35_000)
        page.wait_for_selector(STATE.format("live"), timeout=5000)
        assert page.evaluate("window.loadedOnce") is True  # never reloaded
