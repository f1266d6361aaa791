"""Kept pages answered before Django (tournament/live/edge.py): the same
bytes and headers Django gave, 304 for a repeated GET, without Django, a
thread or a query; anything the edge cannot be sure of goes to Django."""

import asyncio
import gzip

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.support import edge
from tests.support.edge import Django, get, gets
from tests.support.factories import make_user
from tests.support.results import confirm, enter
from tests.support.threads import run_async
from tournament.live import invalidation, state
from tournament.live.edge import KeptPages
from tournament.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site():
    return edge.site()


GZIP = [(b"accept-encoding", b"gzip")]


def test_a_kept_page_is_served_with_djangos_bytes_and_headers_without_django(
    site, tournament, series
):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    first, second, plain = gets(app, (url, None, GZIP), (url, None, GZIP), (url,))
    assert django.calls == 1  # the first: Django rendered and marked it
    assert first[0] == second[0] == 200 and first[2] == second[2]
    for name in ("date", "x-kept-page"):
        first[1].pop(name, None), second[1].pop(name, None)
    assert second[1] == first[1]
    assert second[1]["content-encoding"] == ["gzip"]
    for header in ("content-security-policy", "x-frame-options", "content-language"):
        assert header in second[1], header
    assert plain[0] == 200 and gzip.decompress(second[2]) == plain[2]
    assert "content-encoding" not in plain[1] and django.calls == 1


def test_a_repeated_get_is_answered_304_by_the_edge(
    site, tournament, series, django_assert_num_queries
):
    app, django = site
    url = reverse(
        "tournament:series_results", kwargs={"slug": tournament.slug, "number": 1}
    )
    (status, headers, _), *_ = gets(app, (url,), (url,))
    tag = headers["etag"][0].encode()
    calls = django.calls
    with django_assert_num_queries(0):
        ((status, again, body),) = gets(app, (url, None, [(b"if-none-match", tag)]))
    assert status == 304 and body == b"" and django.calls == calls
    assert again["etag"] == headers["etag"] and "content-type" not in again


def test_a_polled_fragment_is_answered_by_the_edge(site, tournament, series):
    app, django = site
    url = reverse(
        "tournament:live_fragment",
        kwargs={"slug": tournament.slug, "name": "standings"},
    )
    first, second = gets(app, (url,), (url,))
    assert django.calls == 1 and first[2] == second[2]
    assert second[1]["etag"] == first[1]["etag"] and first[1]["etag"][0].startswith('"')
    tag = first[1]["etag"][0].encode()
    ((status, _, _),) = gets(app, (url, None, [(b"if-none-match", tag)]))
    assert status == 304 and django.calls == 1


def test_a_confirmed_result_goes_to_django_once_then_to_the_edge(
    site, tournament, series, referee, referee2, django_capture_on_commit_callbacks
):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    gets(app, (url,), (url,))
    table = Table.objects.get(series=series, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(enter(table, referee), referee2)
    calls = django.calls
    after, again = gets(app, (url,), (url,))
    assert django.calls == calls + 1  # the new state: Django first
    assert '<td class="num points">26</td>' in after[2].decode()
    assert again[2] == after[2]


def _session_cookie(signed_in):
    if signed_in:
        client = Client()
        client.force_login(make_user("schiri", "referee"))
        return f"sessionid={client.cookies['sessionid'].value}".encode()
    store = SessionStore()  # a visitor's who never signed in (a practice table)
    store["practice_token"] = "t"
    store.create()
    return f"sessionid={store.session_key}".encode()


@pytest.mark.parametrize(
    "headers",
    [
        lambda: [(b"cookie", _session_cookie(signed_in=True))],
        lambda: [(b"cookie", _session_cookie(signed_in=False))],
        lambda: [(b"cookie", b"messages=abc")],  # a message waiting
        lambda: [(b"host", b"evil.example")],  # not this site's
    ],
    ids=["signed in", "a session", "a message", "another host"],
)
def test_what_the_edge_cannot_be_sure_of_goes_to_django(
    site, tournament, series, headers
):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    gets(app, (url,), (url,))
    calls = django.calls
    gets(app, (url, None, headers()))
    assert django.calls == calls + 1


@pytest.mark.parametrize("made_up", [b"abc", b"k" * 32, b"0123456789abcdef" * 2])
def test_a_session_cookie_the_store_does_not_know_gets_the_kept_page(
    site, tournament, series, made_up
):
    """Anyone can send a session cookie: one the session store does not
    know is no session, and its request is a phone's like any other (300
    connections with made-up cookies sent every kept page into Django)."""
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    (first,) = gets(app, (url,))
    calls = django.calls
    (answer,) = gets(app, (url, None, [(b"cookie", b"sessionid=" + made_up)]))
    assert django.calls == calls
    assert answer[0] == 200 and answer[2] == first[2]


def test_languages_and_unknown_parameters_are_kept_apart(site, tournament, series):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    english = [(b"cookie", b"django_language=en")]
    de, en, en_again, _junk = gets(
        app, (url,), (url, None, english), (url, None, english), (url, {"utm": "x"})
    )
    assert 'lang="de"' in de[2].decode() and 'lang="en"' in en[2].decode()
    assert en_again[2] == en[2] and en_again[1]["content-language"] == ["en"]
    assert django.calls == 3  # German, English, and the junk parameter


def test_ports_and_values_not_allowed_are_the_kept_default_page(
    site, tournament, series
):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    (first,) = gets(app, (url,))
    hosts = [(url, None, [(b"host", f"127.0.0.1:{p}".encode())]) for p in (1, 2, 3)]
    sorts = [(url, {"sort": f"junk{n}"}) for n in range(3)]
    answers = gets(app, *hosts, *sorts)
    assert all(status == 200 for status, _, _ in answers)
    assert answers[0][2] == answers[1][2] == answers[2][2]
    assert all(body == first[2] for _, _, body in answers[3:])
    # Django once for the page, and once for the other host name (whose
    # page the edge had not seen), nothing for the rest.
    assert django.calls == 2


class VisitorHeader:
    """A middleware that puts something of its visitor in a header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response["X-Visitor"] = request.COOKIES.get("visitor", "")
        return response


def test_the_edge_replays_only_its_list_of_headers(
    settings, tournament, series, caplog
):
    """A header not on the list (`edge.REPLAYED`) is never replayed to
    everybody: the page is Django's each time, with its visitor's own."""
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.VisitorHeader"]
    django = Django()
    app = KeptPages(django)
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    answers = gets(
        app, *((url, None, [(b"cookie", f"visitor={n}".encode())]) for n in range(3))
    )
    assert [a[1]["x-visitor"] for a in answers] == [["0"], ["1"], ["2"]]
    assert django.calls == 3 and "x-visitor" in caplog.text


def test_a_post_is_always_djangos(site, tournament, series):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    gets(app, (url,), (url,))
    calls = django.calls
    gets(app, (url, None, [(b"content-length", b"3")]))
    assert django.calls == calls + 1


def test_phones_asking_at_once_for_a_page_not_kept_cost_django_one_request(
    site, tournament, series
):
    app, django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})

    async def at_once():
        return await asyncio.gather(*(get(app, url) for _ in range(6)))

    answers = run_async(at_once)
    # The first reads the state and renders; the others wait for it in the
    # loop and get the kept page.
    assert django.calls == 1
    assert {status for status, _, _ in answers} == {200}
    assert len({body for _, _, body in answers}) == 1


def test_after_a_change_the_new_state_is_read_before_anybody_asks(
    site, tournament, series, referee, referee2, django_capture_on_commit_callbacks
):
    app, _django = site
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    gets(app, (url,))
    before = state.remembered(cache, tournament.slug, state.STANDINGS)
    table = Table.objects.get(series=series, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(enter(table, referee), referee2)
    after = state.remembered(cache, tournament.slug, state.STANDINGS)
    assert before is not None and after is not None
    assert after.token != before.token
    assert after == state.known(tournament.slug, state.STANDINGS)


def test_the_state_read_together_is_the_state_read_scope_by_scope(
    tournament, series, referee, referee2, django_assert_max_num_queries
):
    table = Table.objects.get(series=series, number=1)
    for change in (lambda: enter(table, referee), lambda: None):
        change()
        with django_assert_max_num_queries(3):
            together = invalidation.state_tokens(tournament.pk)
        assert together == {
            scope: invalidation.state_token(tournament.pk, scope)
            for scope in invalidation.SCOPES
        }
    confirm(table.result_versions.get(), referee2)
    assert (
        invalidation.state_tokens(tournament.pk)[invalidation.CONFIRMED]
        != (together[invalidation.CONFIRMED])
    )
    with pytest.raises(ValueError):
        invalidation.state_tokens(tournament.pk, ["nonsense"])
