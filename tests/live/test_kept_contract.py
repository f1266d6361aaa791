"""The kept pages' contract (tournament/live/pages.py, edge.py), over every
registered public page: a page kept for everybody is the same bytes
whoever made it be rendered first (no cookie or junk cookies, a CSRF
cookie, a message waiting, a referee, an organizer, another language), or
it is not kept; and what the edge replays of its headers is only its list
(`edge.REPLAYED`).

The pages come from the site's own registry: every URL whose view shares
its page (`pages.sharing_of`), every live fragment (`fragments.FRAGMENTS`)
under the poll address. A new public page is checked without being named
here; one whose URL or parameters this file cannot fill fails, asking for
a sample value."""

import datetime as real_datetime
import re
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from django.template import defaulttags
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.support import edge
from tests.support.edge import gets
from tests.support.results import confirm, enter
from tournament.live import pages, state
from tournament.live.edge import REPLAYED
from tournament.live.fragments import FRAGMENTS
from tournament.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

# What the edge sets per answer itself (beside the replayed list).
PER_ANSWER = {"content-type", "etag", "last-modified", "content-length"}
PER_ANSWER |= {"content-encoding", "date", "server"}


def _patterns(resolver: URLResolver, prefix: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            namespace = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            found += _patterns(entry, namespace)
        elif entry.name:
            found.append((f"{prefix}{entry.name}", entry))
    return found


def _shares(view: object) -> bool:
    return getattr(view, "sharing", None) is not None


def registered_pages() -> list[str]:
    """The URL names of every public page the site registers."""
    return sorted(
        name for name, pattern in _patterns(get_resolver()) if _shares(pattern.callback)
    )


# A value for each URL argument and query parameter a public page takes,
# for the `world` fixture's tournament. A new one belongs here.
def url_samples(world) -> dict[str, object]:
    return {"slug": world.tournament.slug, "number": 1}


def query_samples(world) -> dict[str, str]:
    return {
        "sort": "-points",
        "q": "1",
        "slide": "standings",
        "speed": "30",
        "schrift": "gross",
        "series": "1",
        "view": "ladies",
        "link": world.link,
        "wertung": "gibt-es-nicht",
        "category": "senioren",
    }


class Page:
    def __init__(self, label: str, path: str, query: dict[str, str]):
        self.label, self.path, self.query = label, path, query


def pages_of(world) -> list[Page]:
    """Every registered public page, with its declared parameters once
    without and once with sample values; every live fragment's poll."""
    samples, values = url_samples(world), query_samples(world)
    found = []
    for name, pattern in _patterns(get_resolver()):
        if not _shares(pattern.callback):
            continue
        wanted = set(pattern.pattern.converters) - {"name"}
        missing = wanted - set(samples)
        assert not missing, f"{name}: no sample for URL argument {missing}"
        kwargs = {k: samples[k] for k in wanted}
        if "name" in pattern.pattern.converters:  # the live fragments' poll
            for fragment in FRAGMENTS.values():
                params = {p: values[p] for p in fragment.required}
                path = reverse(name, kwargs={**kwargs, "name": fragment.name})
                found.append(Page(f"{name}:{fragment.name}", path, params))
            continue
        path = reverse(name, kwargs=kwargs)
        found.append(Page(name, path, {}))
        declared = pattern.callback.sharing.params
        if declared:
            missing = set(declared) - set(values)
            assert not missing, f"{name}: no sample for parameter {missing}"
            query = {p: values[p] for p in declared}
            found.append(Page(f"{name}?{urlencode(query)}", path, query))
    return found


class World:
    pass


@pytest.fixture
def world(tournament, series, referee, referee2, organizer, monkeypatch):
    """A tournament with a released series, one table confirmed; the
    template clock stands still (a page may show when it was rendered)."""
    if not isinstance(caches["default"], LocMemCache):
        pytest.skip("the contract forgets kept pages in the in-memory cache")
    confirm(enter(Table.objects.get(series=series, number=1), referee), referee2)

    class Frozen(real_datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2026, 5, 16, 14, 30, tzinfo=tz)

    monkeypatch.setattr(defaulttags, "datetime", Frozen)
    # The state read stays remembered through the test (it reads it anew
    # after 5 s; then the edge would send a kept page to Django once).
    monkeypatch.setattr(state, "REMEMBER_SECONDS", 3600)
    w = World()
    w.tournament = tournament
    w.link = tournament.entries.get(start_number=3).link_token
    w.cookies = {
        "none": "",
        "junk cookies": "large_print=1; theme=dark; x=1",
        "csrf": f"{settings.CSRF_COOKIE_NAME}={'a' * 32}",
        "message": f"{CookieStorage.cookie_name}={_message_cookie()}",
        "english": f"{settings.LANGUAGE_COOKIE_NAME}=en",
        "referee": _session(referee),
        "organizer": _session(organizer),
    }
    return w


def _message_cookie() -> str:
    storage = CookieStorage(HttpRequest())
    return storage._encode([Message(25, "Gespeichert: Nr. 7")])


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def forget_kept_pages() -> None:
    """Drop every kept page, its headers, fragments and counts, keeping the
    state tokens (a new generation would change every ETag in a page)."""
    kept = re.compile(r":live-(page|headers|frag|variants):")
    with cache._lock:
        for key in [k for k in cache._cache if kept.search(k)]:
            del cache._cache[key]
            cache._expire_info.pop(key, None)


def visit(app, page: Page, cookie: str = ""):
    headers = [(b"cookie", cookie.encode())] if cookie else []
    return gets(app, (page.path, page.query, headers))[0]


def test_the_registry_holds_the_public_pages():
    names = registered_pages()
    for name in ("tournament:standings", "tournament:projector", "tournament:detail"):
        assert name in names
    assert "tournament:live_fragment" in names and "tournament:mine" not in names


def test_every_declared_parameter_has_its_allowed_values():
    """A page's parameter named without its values is never kept (junk
    would fill the cache): declare them (`pages.public_page`)."""
    for name, pattern in _patterns(get_resolver()):
        sharing = getattr(pattern.callback, "sharing", None)
        if isinstance(sharing, pages.Sharing):
            unchecked = [p for p, check in sharing.params.items() if check is None]
            assert not unchecked, f"{name}: allowed values of {unchecked}?"


def test_every_public_page_is_the_same_bytes_whoever_came_first(world):
    """For each page: whoever asked first (each of the cookies above), the
    German and the English visitor without cookies then get the same bytes
    every time, and the page is kept exactly when its view shares it."""
    app, django = edge.site()
    for page in pages_of(world):
        seen = {}
        for who, cookie in world.cookies.items():
            forget_kept_pages()
            visit(app, page, cookie)
            german = visit(app, page)
            english = visit(app, page, world.cookies["english"])
            calls = django.calls
            again = visit(app, page)
            kept = django.calls == calls
            assert again[2] == german[2], page.label
            seen[who] = (german[0], english[0], german[2], english[2], kept)
        first = seen["none"]
        status, _, _, _, kept = first
        for who, answer in seen.items():
            assert answer == first, f"{page.label}: first asked by {who}"
        request = HttpRequest()
        request.GET.update(page.query)
        match = get_resolver().resolve(page.path)
        shared = pages.sharing_of(match.func, request, match.kwargs) is not None
        assert kept == (status == 200 and shared), page.label


def test_a_kept_page_replays_only_the_listed_headers(world):
    app, django = edge.site()
    for page in pages_of(world):
        visit(app, page)
        calls = django.calls
        status, headers, _ = visit(app, page)
        if django.calls != calls:
            continue  # Django's: not kept
        assert status == 200
        names = {n.encode() for n in headers} - {n.encode() for n in PER_ANSWER}
        assert names <= REPLAYED, (page.label, names - REPLAYED)
