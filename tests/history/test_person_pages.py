"""A person's page and JSON: every tournament with date, place, points and
series points, the best result and the titles; the persons' search; the
organizer's review, merge and split pages; constant queries."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.history.helpers import person, played
from tournament.models import AuditEvent, PastChampion, Person
from tournament.registration import services as registration_services
from tournament.registration.services import PlayerData

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    return person("Anna Jöbges")


@pytest.fixture
def years(anna):
    bernd = person("Bernd Thelen", "KSC Mayen")
    return [
        played(
            [(anna, 130), (bernd, 121)],
            year=2024,
            series=[[30, 25, 25, 25, 25], [21, 25, 25, 25, 25]],
        ),
        played([(bernd, 140), (anna, 110)], year=2025),
        played([(anna, None), (bernd, 90)], year=2026, finished=False),
    ]


def test_the_person_page_shows_every_year(client, anna, years):
    PastChampion.objects.create(year=1999, name="Anna Jöbges", person=anna)
    response = client.get(reverse("tournament:person", kwargs={"pk": anna.pk}))
    history = response.context["history"]
    assert [(r.tournament.date.year, r.rank, r.points) for r in history.results] == [
        (2026, 0, 0),
        (2025, 2, 110),
        (2024, 1, 130),
    ]
    assert history.best.tournament == years[0]
    assert [t.year for t in history.titles] == [2024, 1999]
    assert history.results[2].title
    text = response.content.decode()
    assert "Anna Jöbges" in text and "Meister" in text
    assert "abtrennen" not in text  # the organizer's only


def test_the_person_api(client, anna, years):
    data = client.get(reverse("tournament:api_person", kwargs={"pk": anna.pk})).json()
    assert data["id"] == anna.pk
    assert data["name"] == "Anna Jöbges"
    assert data["tournaments"][1] == {
        "slug": years[1].slug,
        "name": years[1].name,
        "date": "2025-12-05",
        "rank": 2,
        "points": 110,
        "finished": True,
    }
    assert data["tournaments"][0]["finished"] is False  # 2026 is running
    assert (
        client.get(reverse("tournament:api_person", kwargs={"pk": 999999})).status_code
        == 404
    )


def test_the_persons_search_folds_like_every_player_search(client, anna, years):
    url = reverse("tournament:api_persons")
    everybody = client.get(url).json()["persons"]
    # Anna has no result in 2026 yet: two tournaments played.
    assert {p["name"]: p["tournaments"] for p in everybody} == {
        "Anna Jöbges": 2,
        "Bernd Thelen": 3,
    }
    for query in ("joebges", "JOBGES anna", "Daun"):
        found = client.get(url, {"q": query}).json()["persons"]
        assert [p["name"] for p in found] == ["Anna Jöbges"], query
    assert client.get(url, {"q": "!!"}).json() == {"persons": []}
    page = client.get(reverse("tournament:persons"), {"q": "mayen"})
    assert "Bernd Thelen" in page.content.decode()


def test_the_persons_api_lists_only_persons_who_played(client, anna, years):
    """Registered without a confirmed result anywhere is not playing: not
    in the API's list ("every person who played"), nor on its page."""
    waiting = person("Carla Weiß")
    played([(waiting, None), (anna, 80)], year=2027, finished=False)
    names = [
        p["name"]
        for p in client.get(reverse("tournament:api_persons")).json()["persons"]
    ]
    assert names == ["Anna Jöbges", "Bernd Thelen"]
    assert client.get(reverse("tournament:api_persons"), {"q": "Carla"}).json() == {
        "persons": []
    }
    page = client.get(reverse("tournament:persons")).content.decode()
    assert "Carla Weiß" not in page and "Anna Jöbges" in page


def _queries(client, url):
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_queries_do_not_grow_with_persons_and_tournaments(client, anna, years):
    urls = [
        reverse("tournament:person", kwargs={"pk": anna.pk}),
        reverse("tournament:api_person", kwargs={"pk": anna.pk}),
        reverse("tournament:api_persons"),
        reverse("tournament:persons"),
    ]
    few = [_queries(client, url) for url in urls]
    for year in range(2000, 2010):
        guests = [(person(f"Gast Nr{year}x{i}"), 40 + i) for i in range(10)]
        played([(anna, 100 + year % 5), *guests], year=year)
    assert [_queries(client, url) for url in urls] == few


# --- The organizer's pages -------------------------------------------------------


def register(tournament, first, last, club):
    return registration_services.entry_register(
        actor=None,
        tournament=tournament,
        data=PlayerData(first_name=first, last_name=last, club=club),
    )


def test_review_page_decides_an_uncertain_match(organizer_client, anna, years):
    from tests.support.factories import TournamentFactory

    later = TournamentFactory(slug="rm-2027")
    entry = register(later, "Anna", "Jöbges", "KSC Mayen")
    assert entry.player.person_review
    url = reverse("tournament:person_review")
    page = organizer_client.get(url).content.decode()
    assert "Ja, dieselbe Person" in page and "KSC Mayen" in page
    response = organizer_client.post(
        url, {"player": entry.player.pk, "same_as": anna.pk}, follow=True
    )
    assert "dieselbe Person" in response.content.decode()
    entry.player.refresh_from_db()
    assert entry.player.person_id == anna.pk
    assert "Nichts zu prüfen" in organizer_client.get(url).content.decode()


def test_merge_and_split_pages(organizer_client, anna, years):
    twin = person("Anna Joebges")
    played([(twin, 99)], year=2023)
    url = reverse("tournament:person_merge", kwargs={"pk": anna.pk})
    response = organizer_client.post(url, {"other": 999999})
    assert "Eine Person Nr. 999999 gibt es nicht." in response.content.decode()
    response = organizer_client.post(url, {"other": twin.pk}, follow=True)
    assert "sind jetzt eine Person" in response.content.decode()
    assert not Person.objects.filter(pk=twin.pk).exists()
    page = organizer_client.get(reverse("tournament:person", kwargs={"pk": anna.pk}))
    assert len(page.context["history"].results) == 4
    assert "abtrennen" in page.content.decode()
    player = anna.players.get(entries__tournament__date__year=2023)
    response = organizer_client.post(
        reverse("tournament:person_split", kwargs={"player_id": player.pk}),
        follow=True,
    )
    assert "eine eigene Person" in response.content.decode()
    assert anna.players.count() == 3
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"person.merge", "person.split"} <= actions


def test_a_merge_of_two_who_played_together_says_where(organizer_client, anna, years):
    bernd = Person.objects.get(last_name="Thelen")
    url = reverse("tournament:person_merge", kwargs={"pk": anna.pk})
    response = organizer_client.post(url, {"other": bernd.pk})
    text = response.content.decode()
    assert "haben beide bei" in text and "zwei Personen" in text
    assert Person.objects.filter(pk=bernd.pk).exists()
