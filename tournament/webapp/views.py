"""The service worker and the manifest. The worker's code is the static file
js/sw.js with its CONFIG in front: the static files to keep (their hashed
names, so a new release installs a new worker), the pages it may keep, and
the words of its offline page. Both answers are made per language, as every
page is."""

import hashlib
import json
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_cookie

# What every page of the phones needs (templates/base.html and the live
# pages), kept when the worker installs; other static files as they are used.
ASSETS = (
    "vendor/pico/pico.green.min.css",
    "css/app.css",
    "css/offline.css",
    "js/app.js",
    "js/large-print.js",
    "js/live.js",
    "js/offline.js",
    "js/outbox.js",
    "favicon.svg",
    "favicon.ico",
    "apple-touch-icon.png",
    "icons/icon-192.png",
)
# Pages a phone may keep and show without the network: the tournament's
# pages (public ones, the referees' entry, a player's own) and the start.
PAGES = ("/t/",)
START = "/"
# ... but not the organizer's (big, and nobody needs them offline).
NOT_PAGES = ("/verwaltung/",)
# A page kept before is shown when the network has not answered in this time.
PAGE_TIMEOUT_MS = 4000

THEME_COLOR = "#1d4d33"  # the favicon's green


def _worker_source() -> str:
    # Read once per process; in development on every request (make dev).
    if settings.DEBUG:
        _read_worker.cache_clear()
    return _read_worker()


@lru_cache(maxsize=1)
def _read_worker() -> str:
    found = finders.find("js/sw.js")
    path = found[0] if isinstance(found, list) else found
    if not path:
        raise FileNotFoundError("static/js/sw.js")
    with open(path, encoding="utf-8") as file:
        return file.read()


def _config() -> dict[str, Any]:
    assets = [static(name) for name in ASSETS]
    # The folder itself has no entry in collectstatic's manifest (static("")
    # fails there): its address is the setting, with the script's prefix.
    static_url = settings.STATIC_URL
    source = _worker_source()
    version = hashlib.sha256(json.dumps([assets, source]).encode("utf-8")).hexdigest()[
        :16
    ]
    return {
        "version": version,
        "staticUrl": static_url,
        "assets": assets,
        "pages": [START, *PAGES],
        "notPages": list(NOT_PAGES),
        "pageTimeout": PAGE_TIMEOUT_MS,
        "offline": {
            "lang": escape(translation.get_language() or settings.LANGUAGE_CODE),
            "title": escape(_("Ohne Netz")),
            "body": escape(
                _(
                    "Diese Seite war auf diesem Handy noch nicht geöffnet und "
                    "kann ohne Netz nicht gezeigt werden. Sobald das WLAN wieder "
                    "geht, bitte neu laden."
                )
            ),
            "home": escape(_("Zur Startseite")),
        },
    }


@require_GET
@cache_control(no_cache=True)
@vary_on_cookie
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: asked again by the browser on every visit (no-cache), so a
    new release reaches the phones with their next page."""
    config = json.dumps(_config(), ensure_ascii=False)
    body = f"const CONFIG = {config};\n{_worker_source()}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
@vary_on_cookie
def manifest(request: HttpRequest) -> HttpResponse:
    """What a phone needs to put the site on its home screen."""
    data = {
        "name": _("Siebenschräm – 7-Schräm-Turnier"),
        "short_name": _("7-Schräm"),
        "description": _("Sitzplatz, Ergebnisse und Tabelle des Turniers"),
        "lang": translation.get_language() or settings.LANGUAGE_CODE,
        "start_url": START,
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": [
            {
                "src": static("icons/icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
            },
            {
                "src": static("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
            },
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return HttpResponse(
        json.dumps(data, ensure_ascii=False),
        content_type="application/manifest+json; charset=utf-8",
    )
