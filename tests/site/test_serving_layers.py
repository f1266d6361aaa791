"""The serving layers switched off one at a time (SERVING_LAYERS_OFF,
tournament/core/serving.py), and all at once: whatever is off, a public
page, its live fragment and their 304s, a signed-in referee's own page and
a confirmed result on the standings behave as with every layer on. The
site is composed as config/asgi.py composes it; each case also checks that
its switch took effect."""

import gzip
import os
import subprocess
import sys

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.asgi import ASGIHandler
from django.test import Client
from django.urls import reverse

from tests.support.edge import gets
from tests.support.results import confirm, enter
from tests.support.servers import ROOT
from tournament.core.handler import (
    EXECUTOR_KEY,
    OneThreadASGIHandler,
    get_asgi_application,
)
from tournament.core.limits import BodyLimits, Lanes, Visitors
from tournament.core.serving import SERVING_LAYERS, serving_layers_off
from tournament.live import pages
from tournament.live.edge import KeptPages
from tournament.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

GZIP = [(b"accept-encoding", b"gzip")]

# Each case: the layers named off (all of them last: Django's own means).
CASES = [(name,) for name in SERVING_LAYERS] + [SERVING_LAYERS]


class Django:
    """The Django application as config/asgi.py makes it, remembering the
    scopes that reach it."""

    def __init__(self):
        self.app = get_asgi_application()
        self.scopes = []

    async def __call__(self, scope, receive, send):
        self.scopes.append(scope)
        await self.app(scope, receive, send)


@pytest.fixture(params=CASES, ids=",".join)
def off(request, settings):
    settings.SERVING_LAYERS_OFF = serving_layers_off(list(request.param))
    return settings.SERVING_LAYERS_OFF


@pytest.fixture
def site(off):
    django = Django()
    # config/asgi.py's chain from the visitors on (Health answers /healthz).
    return Visitors(BodyLimits(KeptPages(Lanes(django)))), django


def _plain(response):
    status, headers, body = response
    if headers.get("content-encoding") == ["gzip"]:
        body = gzip.decompress(body)
    return status, headers, body.decode()


def _tag(etag_header):
    return etag_header.removeprefix("W/").strip('"')


def test_a_public_page_and_its_304_whatever_is_off(off, site, tournament, series):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    first, second, plain = gets(app, (url, None, GZIP), (url, None, GZIP), (url,))
    assert first[0] == second[0] == plain[0] == 200
    # The same bytes again (Django's cache keeps each encoding apart: the
    # plain page may be rendered once more, with its own render time).
    assert _plain(first)[2] == _plain(second)[2]
    assert tournament.name in _plain(first)[2] and tournament.name in _plain(plain)[2]
    assert plain[1]["etag"][0].strip('W/"') == second[1]["etag"][0].strip('W/"')
    etag = second[1]["etag"][0]
    assert "no-cache" in second[1]["cache-control"][0]
    asked = [(b"if-none-match", etag.encode()), *GZIP]
    ((status, headers, body),) = gets(app, (url, None, asked))
    assert status == 304 and body == b"" and headers["etag"] == [etag]
    # The switches took effect.
    through_django = len(django.scopes)
    assert (through_django == 4) == ("edge" in off)
    kept = cache.get(pages.page_key(_tag(etag)))
    assert (kept is None) == ("pages" in off)
    handler = type(django.app)
    assert handler is (ASGIHandler if "onethread" in off else OneThreadASGIHandler)
    in_lanes = [EXECUTOR_KEY in scope for scope in django.scopes]
    assert set(in_lanes) == {"lanes" not in off}


def test_a_polled_fragment_and_its_304_whatever_is_off(off, site, tournament, series):
    app, _ = site
    url = reverse(
        "tournament:live_fragment",
        kwargs={"slug": tournament.slug, "name": "standings"},
    )
    first, second = gets(app, (url,), (url,))
    assert first[0] == second[0] == 200 and first[2] == second[2]
    assert second[1]["etag"] == first[1]["etag"]
    tag = first[1]["etag"][0].encode()
    ((status, _, body),) = gets(app, (url, None, [(b"if-none-match", tag)]))
    assert status == 304 and body == b""


def test_a_referee_gets_his_own_page_whatever_is_off(
    off, site, tournament, series, referee
):
    app, _ = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    gets(app, (url,), (url,))  # the page everybody gets, kept
    client = Client()
    client.force_login(referee)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    mine, anonymous = gets(app, (url, None, [(b"cookie", cookie)]), (url,))
    assert mine[0] == 200 and referee.username in _plain(mine)[2]
    assert "private" in mine[1]["cache-control"][0]
    assert referee.username not in _plain(anonymous)[2]


def test_a_confirmed_result_is_on_the_standings_at_once_whatever_is_off(
    off,
    site,
    tournament,
    series,
    referee,
    referee2,
    django_capture_on_commit_callbacks,
):
    app, _ = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    before, _ = gets(app, (url, None, GZIP), (url, None, GZIP))
    table = Table.objects.get(series=series, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(enter(table, referee), referee2)
    asked = [(b"if-none-match", before[1]["etag"][0].encode()), *GZIP]
    after, plain = gets(app, (url, None, asked), (url,))
    assert after[0] == 200 and after[1]["etag"] != before[1]["etag"]
    assert '<td class="num points">26</td>' in _plain(after)[2]
    assert '<td class="num points">26</td>' in _plain(plain)[2]
    assert '<td class="num points">26</td>' not in _plain(before)[2]


def test_an_unknown_layer_stops_the_start_naming_the_layers():
    with pytest.raises(ImproperlyConfigured, match=r"edgy \(the layers: edge, lanes"):
        serving_layers_off(["edge", "edgy"])


def test_pages_off_takes_the_edge_along():
    assert serving_layers_off(["pages"]) == {"pages", "edge"}
    assert serving_layers_off([]) == set()


@pytest.mark.parametrize("off, interval", [("", 0.001), ("switchinterval", 0.005)])
def test_the_switch_interval_is_shortened_unless_switched_off(off, interval):
    script = "import sys, config.asgi; print(sys.getswitchinterval())"
    env = {"SERVING_LAYERS_OFF": off, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    assert float(run.stdout.strip().splitlines()[-1]) == interval
