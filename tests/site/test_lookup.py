"""Every address of a tournament that does not exist is 404 (or refused
by its permission or method check first, as before the database is asked):
`core.lookup.with_tournament` and the views that load it themselves."""

import uuid

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.support.factories import make_user

UNKNOWN = "gibt-es-nicht"
# A plausible value for each other part of an address.
VALUES = {"int": 1, "str": "x", "slug": "x", "uuid": uuid.uuid4(), "path": "x"}


def _patterns(resolver: URLResolver, prefix: str = ""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            namespace = f"{entry.namespace}:" if entry.namespace else ""
            yield from _patterns(entry, prefix + namespace)
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + entry.name, entry.pattern


def _tournament_routes() -> list[tuple[str, dict[str, object]]]:
    routes = []
    for name, pattern in _patterns(get_resolver()):
        converters = getattr(pattern, "converters", {})
        if "slug" not in converters or not str(pattern).startswith("t/<slug:slug>"):
            continue
        kwargs: dict[str, object] = {
            key: VALUES.get(type(conv).__name__.removesuffix("Converter").lower(), 1)
            for key, conv in converters.items()
        }
        kwargs["slug"] = UNKNOWN
        routes.append((name, kwargs))
    return routes


ROUTES = _tournament_routes()


def test_routes_found():
    assert len(ROUTES) > 30


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=[n for n, _ in ROUTES])
def test_unknown_tournament(client, name, kwargs):
    url = reverse(name, kwargs=kwargs)
    # Anonymous: a public page is 404, a staff page asks to sign in first.
    anonymous = client.get(url)
    assert anonymous.status_code in (302, 404, 405), url
    if anonymous.status_code == 302:
        assert anonymous["Location"].startswith(resolve_url(settings.LOGIN_URL)), url
    client.force_login(make_user("chef", "organizer"))
    assert client.get(url).status_code in (404, 405), url
