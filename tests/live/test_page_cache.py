"""Public pages rendered once per state (tournament/live/pages.py): kept
gzipped in the cache, served to every anonymous visitor, never across a
change of what they show, a language, or to a signed-in user; a repeated
GET is answered 304 without rendering or a query."""

import gzip
import json
import re

import pytest
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse

from tests.support.results import confirm, enter
from tournament.live import fragments, state
from tournament.models import Table


@pytest.fixture
def renders():
    """Every template rendered from now on, by name."""
    seen = []

    def record(sender, template, context, **kwargs):
        seen.append(template.name)

    template_rendered.connect(record)
    yield seen
    template_rendered.disconnect(record)


def url(tournament, view, **kwargs):
    return reverse(f"tournament:{view}", kwargs={"slug": tournament.slug, **kwargs})


# Every kind of public page: (URL name, arguments, query).
PAGES = [
    ("standings", {}, {}),
    ("standings_ladies", {}, {}),
    ("standings_teams", {}, {}),
    ("standings", {}, {"sort": "-points", "q": "1"}),
    ("series_results", {"number": 1}, {}),
    ("series_detail", {"number": 1}, {}),
    ("where", {}, {"q": "Nr. 3"}),
    ("player", {"number": 1}, {}),
    ("projector", {}, {}),
    ("detail", {}, {}),
    ("live_fragment", {"name": "standings"}, {}),
    ("api_standings", {}, {}),
    ("api_series", {}, {}),
    ("api_series_tables", {"number": 1}, {}),
    ("api_players", {}, {}),
    ("api_player", {"number": 1}, {}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs", "query"), PAGES)
def test_every_public_page_is_rendered_once_and_then_served_without_a_query(
    client, tournament, series, renders, django_assert_num_queries, name, kwargs, query
):
    address = url(tournament, name, **kwargs)
    first = client.get(address, query)
    assert first.status_code == 200 and first["ETag"]
    other = Client()  # another phone, another browser
    renders.clear()
    with django_assert_num_queries(0):
        again = other.get(address, query)
    assert again.status_code == 200 and renders == []
    assert again.content == first.content and again["ETag"] == first["ETag"]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs", "query"), PAGES)
def test_a_304_renders_nothing_and_asks_no_query(
    client,
    tournament,
    series,
    renders,
    django_assert_num_queries,
    name,
    kwargs,
    query,
    monkeypatch,
):
    # On a loaded machine the first render may take longer than a state is
    # remembered without an announced change; that expiry is not this test's.
    monkeypatch.setattr(state, "REMEMBER_SECONDS", 3600)
    address = url(tournament, name, **kwargs)
    tag = client.get(address, query)["ETag"]
    renders.clear()
    with django_assert_num_queries(0):
        again = client.get(address, query, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag
    assert renders == [] and again.content == b""


@pytest.mark.django_db
def test_a_kept_page_is_never_served_across_a_confirmed_result(
    client, tournament, series, referee, referee2, django_capture_on_commit_callbacks
):
    table = Table.objects.get(series=series, number=1)
    version = enter(table, referee)
    addresses = {
        "standings": url(tournament, "standings"),
        "results": url(tournament, "series_results", number=1),
        "player": url(tournament, "player", number=1),
        "projector": url(tournament, "projector"),
        "api": url(tournament, "api_standings"),
        "api-series": url(tournament, "api_series_tables", number=1),
        "poll": url(tournament, "live_fragment", name="standings"),
    }
    before = {name: client.get(a) for name, a in addresses.items()}
    assert '<td class="num points">26</td>' not in before["standings"].content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        confirm(version, referee2)
    after = {
        name: client.get(a, HTTP_IF_NONE_MATCH=before[name]["ETag"])
        for name, a in addresses.items()
    }
    for name, response in after.items():
        assert response.status_code == 200, name
        assert response["ETag"] != before[name]["ETag"], name
    # Seat 1 of table 1 won games 1 and 3: 26 points.
    for name in ("standings", "projector", "poll"):
        assert '<td class="num points">26</td>' in after[name].content.decode(), name
    assert "<strong>26</strong>" in after["player"].content.decode()
    assert ">26<" in after["results"].content.decode()
    assert after["api"].json()["rows"][0]["points"] == 26
    assert after["api-series"].json()["tables"][0]["confirmed"]


@pytest.mark.django_db
def test_a_waiting_entry_keeps_the_public_pages(
    client, tournament, series, referee, django_capture_on_commit_callbacks
):
    """Nothing public shows a waiting entry (no provisional results): 1,000
    phones must not fetch their pages again for one."""
    standings, results = (
        url(tournament, "standings"),
        url(tournament, "series_results", number=1),
    )
    tags = [client.get(standings)["ETag"], client.get(results)["ETag"]]
    with django_capture_on_commit_callbacks(execute=True):
        enter(Table.objects.get(series=series, number=1), referee)
    assert client.get(standings, HTTP_IF_NONE_MATCH=tags[0]).status_code == 304
    assert client.get(results, HTTP_IF_NONE_MATCH=tags[1]).status_code == 304


@pytest.mark.django_db
def test_a_kept_page_is_never_served_in_another_language(client, tournament, series):
    address = url(tournament, "standings")
    german = client.get(address)
    assert 'lang="de"' in german.content.decode()
    english = Client()
    english.cookies["django_language"] = "en"
    page = english.get(address, HTTP_IF_NONE_MATCH=german["ETag"])
    assert page.status_code == 200 and page["ETag"] != german["ETag"]
    assert 'lang="en"' in page.content.decode() and page["Content-Language"] == "en"
    assert 'lang="de"' in client.get(address).content.decode()
    poll = url(tournament, "live_fragment", name="standings")
    german_poll = client.get(poll)
    english_poll = english.get(poll, HTTP_IF_NONE_MATCH=german_poll["ETag"])
    assert english_poll.status_code == 200
    assert english_poll.content != german_poll.content


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["referee", "organizer"])
def test_a_signed_in_referee_or_organizer_never_gets_a_kept_page(
    client, tournament, series, referee, organizer, who
):
    address = url(tournament, "standings")
    anonymous = client.get(address)
    user = {"referee": referee, "organizer": organizer}[who]
    signed_in = Client()
    signed_in.force_login(user)
    page = signed_in.get(address, HTTP_IF_NONE_MATCH=anonymous["ETag"])
    html = page.content.decode()
    assert page.status_code == 200 and "ETag" not in page
    assert f"Ausloggen ({user.username})" in html and "csrfmiddlewaretoken" in html
    assert url(tournament, "results") in html  # the referee's tab
    # ... and what was rendered for him is never kept for anybody else.
    assert client.get(address).content == anonymous.content
    assert "Ausloggen" not in anonymous.content.decode()


@pytest.mark.django_db
def test_a_page_rendered_for_a_signed_in_user_is_not_kept(
    client, tournament, series, referee
):
    address = url(tournament, "series_results", number=1)
    signed_in = Client()
    signed_in.force_login(referee)
    assert "Ausloggen" in signed_in.get(address).content.decode()
    assert "Ausloggen" not in client.get(address).content.decode()


@pytest.mark.django_db
def test_a_kept_page_holds_nothing_of_its_first_visitor(client, tournament, series):
    """No CSRF token, no cookie, no large print from the first visitor's
    cookies: the language switch is a link, large print a script's."""
    first = Client()
    first.cookies["large_print"] = "1"
    first.cookies["csrftoken"] = "x" * 32
    address = url(tournament, "standings")
    page = first.get(address, {"q": "1"})
    html = page.content.decode()
    assert "csrfmiddlewaretoken" not in html and not page.cookies
    assert "large-print" not in re.search(r"<html[^>]*>", html).group(0)
    assert 'href="?q=1&amp;lang=en"' in html
    assert client.get(address, {"q": "1"}).content == page.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "kwargs", "junk"),
    [
        ("standings", {}, {"utm_source": "poster"}),
        ("standings", {}, {"sort": "junk"}),
        ("standings", {}, {"sort": "x" * 500}),
        ("standings", {}, {"q": "   "}),
        ("projector", {}, {"slide": "junk", "speed": "fast"}),
        ("series_results", {"number": 1}, {"series": "2"}),
    ],
)
def test_junk_parameters_get_the_default_page_and_keep_nothing_new(
    client, tournament, series, renders, name, kwargs, junk
):
    """A parameter the page does not show, or a value it does not allow,
    is the default page: served as kept, never rendered and kept anew."""
    address = url(tournament, name, **kwargs)
    default = client.get(address)
    renders.clear()
    for _ in range(2):
        page = Client().get(address, junk)
        assert page.status_code == 200 and page.content == default.content
        assert page["ETag"] == default["ETag"]
    assert renders == []


@pytest.mark.django_db
def test_the_hosts_port_is_not_a_page_of_its_own(client, tournament, series, renders):
    address = url(tournament, "standings")
    first = client.get(address, HTTP_HOST="127.0.0.1:8000")
    renders.clear()
    for port in (1, 2, 65000):
        page = Client().get(address, HTTP_HOST=f"127.0.0.1:{port}")
        assert page.content == first.content and page["ETag"] == first["ETag"]
    assert renders == []
    assert client.get(address, HTTP_HOST="evil.example:80").status_code == 400


@pytest.mark.django_db
def test_another_spelling_of_a_pages_address_is_sent_to_the_page(
    client, tournament, series
):
    address = url(tournament, "series_results", number=1)
    other = address.replace("/1/", "/0001/")
    page = client.get(other, {"sort": "x"})
    assert page.status_code == 301 and page["Location"] == f"{address}?sort=x"


@pytest.mark.django_db
def test_searches_kept_per_page_are_bounded_and_the_default_page_stays(
    client, tournament, series, renders, monkeypatch
):
    monkeypatch.setattr(fragments, "MAX_VARIANTS", 3)
    address = url(tournament, "standings")
    searches = [str(n) for n in range(1, 6)]
    for q in searches:
        client.get(address, {"q": q})
    renders.clear()
    again = {}
    for q in searches:
        before = len(renders)
        page = Client().get(address, {"q": q})
        assert page.status_code == 200
        again[q] = len(renders) > before
    assert again == {"1": False, "2": False, "3": False, "4": True, "5": True}
    client.get(address)
    renders.clear()
    Client().get(address)
    assert renders == []  # the default page is kept all the same


@pytest.mark.django_db
def test_kept_pages_go_gzipped_to_browsers_that_take_them(client, tournament, series):
    address = url(tournament, "standings")
    plain = client.get(address)
    packed = client.get(address, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) * 3 < len(plain.content)
    assert "Accept-Encoding" in packed["Vary"] and "Cookie" in packed["Vary"]
    assert int(packed["Content-Length"]) == len(packed.content)
    # The same state, so the same page: a phone's ETag fits either.
    assert (
        client.get(
            address, HTTP_IF_NONE_MATCH=plain["ETag"], HTTP_ACCEPT_ENCODING="gzip"
        ).status_code
        == 304
    )


@pytest.mark.django_db
def test_a_polled_fragment_keeps_the_etag_its_page_shows(client, tournament, series):
    page = client.get(url(tournament, "standings")).content.decode()
    poll, tag = re.search(
        r'data-live-url="([^"]+)" data-live-etag="([^"]+)"', page
    ).groups()
    plain = client.get(poll)
    assert plain["ETag"] == f'"{tag}"'
    packed = client.get(poll, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["ETag"] == f'W/"{tag}"'
    assert gzip.decompress(packed.content) == plain.content
    assert client.get(poll, HTTP_IF_NONE_MATCH=f'"{tag}"').status_code == 304


@pytest.mark.django_db
def test_the_api_is_kept_as_json(client, tournament, series):
    address = url(tournament, "api_standings")
    first = client.get(address)
    again = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert again["Content-Type"] == first["Content-Type"] == "application/json"
    assert json.loads(gzip.decompress(again.content)) == first.json()


@pytest.mark.django_db
def test_an_unknown_tournament_or_series_is_still_a_404(client, tournament, series):
    assert client.get("/t/gibt-es-nicht/tabelle/").status_code == 404
    assert client.get(url(tournament, "series_results", number=2)).status_code == 404
    assert client.get(url(tournament, "series_results", number=2)).status_code == 404


def test_a_page_another_process_renders_is_waited_for_not_rendered_again(db):
    """With several workers (Redis), the first to find a page missing marks
    it as being made; the others wait for it instead of rendering it too."""
    import threading

    from django.core.cache import cache

    from tournament.live import flight, pages

    key = pages.page_key("abc")
    assert flight.made_elsewhere(key) is None  # nobody makes it: this one does
    page = pages.Kept(b"...", "text/html")
    threading.Timer(0.05, cache.set, (key, page)).start()  # the other process
    assert flight.made_elsewhere(key) == page
