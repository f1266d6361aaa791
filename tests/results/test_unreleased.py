"""Until a series is released its seating is the organizer's alone: no
referee reaches its tables through result entry, and the referees'
progress does not link to them."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import make_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(tournament):
    make_series(tournament, sizes=(4, 4), number=1, status="released")
    return make_series(tournament, sizes=(4, 4), number=2, status="seated")


def table_page(tournament, series, table=1):
    return reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": series, "table": table},
    )


def test_a_referee_finds_no_table_of_an_unreleased_series(
    client, seated, tournament, referee
):
    client.force_login(referee)
    page = client.get(table_page(tournament, 2))
    assert page.status_code == 404
    name = seated.seats.first().entry.player.last_name
    assert name not in page.content.decode()
    assert client.get(table_page(tournament, 1)).status_code == 200


def test_the_organizer_still_sees_the_table(client, seated, tournament, organizer):
    client.force_login(organizer)
    page = client.get(table_page(tournament, 2))
    assert page.status_code == 200
    assert seated.seats.first().entry.player.last_name in page.content.decode()


def test_confirming_or_rejecting_there_is_not_found_either(
    client, seated, tournament, referee
):
    client.force_login(referee)
    for name in ("tournament:result_confirm", "tournament:result_reject"):
        url = reverse(name, kwargs={"slug": tournament.slug, "series": 2, "table": 1})
        assert client.post(url, {"version": 1, "revision": 0}).status_code == 404


def test_the_progress_links_released_series_only(client, seated, tournament, referee):
    client.force_login(referee)
    page = client.get(reverse("tournament:results", kwargs={"slug": tournament.slug}))
    links = re.findall(
        r'href="([^"]*/eingabe/serie/\d+/tisch/\d+/)"', page.content.decode()
    )
    assert links, "released tables link to their entry"
    assert all("/serie/1/" in link for link in links)
