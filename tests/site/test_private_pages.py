"""`Cache-Control: private, no-store` on every signed-in and personal page
(`core.middleware.PrivatePagesMiddleware`); the public pages the edge
keeps for anonymous visitors stay as they were, and a signed-in user's
answer is never kept for them."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.live.test_edge import Django, gets
from tournament.live.edge import KeptPages

pytestmark = pytest.mark.django_db


def directives(response):
    return {d.strip() for d in response.get("Cache-Control", "").split(",")}


def private(response):
    return {"private", "no-store"} <= directives(response)


def public_urls(slug):
    return [
        "/",
        reverse("tournament:detail", kwargs={"slug": slug}),
        reverse("tournament:standings", kwargs={"slug": slug}),
        reverse("tournament:series_results", kwargs={"slug": slug, "number": 1}),
        "/personen/",
    ]


@pytest.mark.parametrize("who", ["organizer", "referee"])
def test_every_page_of_a_signed_in_user_is_kept_by_nobody(
    who, request, tournament, series
):
    client = Client()
    client.force_login(request.getfixturevalue(who))
    slug = tournament.slug
    urls = [
        *public_urls(slug),
        reverse("tournament:results", kwargs={"slug": slug}),
        reverse(
            "tournament:table_result", kwargs={"slug": slug, "series": 1, "table": 1}
        ),
        f"/api/t/{slug}/standings/",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert private(response), (url, response["Cache-Control"])


@pytest.fixture
def table_entry(tournament, series):
    tournament.table_entry = "one"
    tournament.save()
    return series.tournament.entries.get(start_number=1)


def test_every_personal_page_is_kept_by_nobody(table_entry):
    entry, slug = table_entry, table_entry.tournament.slug
    phone = Client()
    link = {"slug": slug, "token": entry.link_token}
    at_table = {**link, "series": 1, "table": 1}
    urls = [
        reverse("tournament:mine", kwargs=link),
        reverse("tournament:mine_enter", kwargs=at_table),
        reverse("tournament:live_fragment", kwargs={"slug": slug, "name": "mein"})
        + f"?link={entry.link_token}",
        # The table card, on the phone that opened the link (it offers it).
        reverse("tournament:table_card", kwargs={"slug": slug, "table": 1}),
    ]
    for url in urls:
        response = phone.get(url)
        assert response.status_code == 200, url
        assert private(response), (url, response["Cache-Control"])
    typed = phone.get(
        reverse("tournament:mine_start", kwargs={"slug": slug}),
        {"link": entry.link_token},
    )
    assert typed.status_code == 302 and private(typed)


def test_public_pages_stay_as_they_were_for_anonymous_visitors(tournament, series):
    for url in public_urls(tournament.slug):
        response = Client().get(url)
        assert response.status_code == 200, url
        assert "no-store" not in directives(response), url


@pytest.mark.django_db(transaction=True)
def test_a_signed_in_users_page_is_never_kept_for_anybody(
    tournament, series, organizer
):
    signed_in = Client()
    signed_in.force_login(organizer)
    session = f"sessionid={signed_in.cookies['sessionid'].value}".encode()
    django = Django()
    app = KeptPages(django)
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    own, first, kept = gets(app, (url, None, [(b"cookie", session)]), (url,), (url,))
    assert own[0] == first[0] == kept[0] == 200
    assert "no-store" in own[1]["cache-control"][0]
    assert b"orga" in own[2] and b"orga" not in first[2]
    # The signed-in render was not kept: the first anonymous visitor went to
    # Django, the second was answered by the edge; both without no-store.
    assert django.calls == 2
    for answer in (first, kept):
        assert "no-store" not in answer[1]["cache-control"][0]
        assert "private" in answer[1]["cache-control"][0]
