"""The service worker under the production configuration, as `make run` and
`make serve` start it: config.settings with DEBUG off, collectstatic's
manifest storage (hashed names, WhiteNoise), uvicorn. /sw.js answers
JavaScript, and a player's "Mein Turnier", opened once, is still there
when the phone loses the network and reloads: its last copy, headed
"Kein Netz. Stand von …"."""

import json
import re

import pytest

from tests.support import servers as support
from tests.support.browser import chromium, skip_without_chromium
from tests.support.threads import in_own_thread

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 360, "height": 740}, "locale": "de-DE"}
SLUG = "rm-netz"

# Run in the server's database: a tournament whose first series is out,
# and the personal link of the player on seat 1 of table 1.
SETUP = f"""
import json
from tests.support.factories import TournamentFactory, make_series
tournament = TournamentFactory(slug="{SLUG}", table_entry="one")
series = make_series(tournament, sizes=(4, 4))
seat = series.tables.get(number=1).seats.get(number=1)
print(json.dumps({{"link": seat.entry.link_token}}))
"""


@pytest.fixture
def production(tmp_path):
    """A uvicorn process on the production settings (not the suite's: their
    static storage has no manifest) over a fresh database."""
    skip_without_chromium()
    env = support.hall_env(tmp_path)
    support.manage(env, "migrate", "-v0")
    world = json.loads(
        support.manage(env, "shell", "-c", SETUP).strip().splitlines()[-1]
    )
    port = support.free_port()
    process = support.start_server(env, port)
    try:
        support.wait_until_up(port, process)
        yield port, world
    finally:
        support.stop(process)


def test_sw_js_is_javascript_and_keeps_mein_turnier_offline(production):
    port, world = production
    status, headers, body = support.request(port, "GET", "/sw.js")
    assert status == 200, body[-2000:]
    assert headers["Content-Type"].startswith("text/javascript")
    config = json.loads(body.decode().split("\n", 1)[0][len("const CONFIG = ") : -1])
    assert config["staticUrl"] == "/static/"
    # The kept static files are the manifest's hashed names.
    assert any(re.search(r"/css/app\.[0-9a-f]{12}\.css$", a) for a in config["assets"])
    in_own_thread(_offline_reload, f"http://127.0.0.1:{port}", world["link"])


def _offline_reload(base: str, link: str) -> None:
    with chromium() as browser:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.goto(f"{base}/t/{SLUG}/mein/{link}/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now through the worker, which keeps this page
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.reload()
        page.locator("[data-offline-banner]").filter(
            has_text=re.compile(r"Kein Netz\. Stand von \d\d:\d\d")
        ).wait_for()
        assert page.get_by_role("heading", name="Mein Turnier").is_visible()
        assert page.get_by_text("Tisch 1").first.is_visible()
        context.close()
