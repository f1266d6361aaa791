"""Where signing in leads: a referee to the entry page and the organizer to
the desk of the one running tournament; elsewhere (none or several, or a
tournament that names other referees) the home page; `next` always wins."""

import pytest
from django.urls import reverse

from tests.support.factories import TournamentFactory, make_user

pytestmark = pytest.mark.django_db

LOGIN = "/konto/anmelden/"


def _lands(client, username, next_path=None):
    path = f"{LOGIN}?next={next_path}" if next_path else LOGIN
    response = client.post(path, {"username": username, "password": "pw"})
    assert response.status_code == 302, response.content[:200]
    return response["Location"]


def test_referee_and_organizer_land_on_the_one_running_tournament(client):
    make_user("schiri", "referee")
    make_user("orga", "organizer")
    TournamentFactory(status="finished")
    TournamentFactory(status="planned")
    running = TournamentFactory(status="running")
    slug = running.slug
    assert _lands(client, "schiri") == reverse("tournament:results", args=[slug])
    client.logout()
    assert _lands(client, "orga") == reverse("tournament:manage", args=[slug])
    client.logout()
    assert _lands(client, "schiri", "/meister/") == "/meister/"


def test_elsewhere_the_home_page(client):
    referee = make_user("schiri", "referee")
    other = make_user("andere", "referee")
    make_user("orga", "organizer")
    make_user("gast")
    assert _lands(client, "schiri") == reverse("tournament:home")
    client.logout()
    named = TournamentFactory(status="running")
    named.referees.set([other])
    # Not his: the only running tournament names another referee.
    assert _lands(client, "schiri") == reverse("tournament:home")
    client.logout()
    assert _lands(client, "gast") == reverse("tournament:home")
    client.logout()
    named.referees.add(referee)
    assert _lands(client, "schiri") == reverse("tournament:results", args=[named.slug])
    client.logout()
    TournamentFactory(status="running")
    assert _lands(client, "schiri") == reverse("tournament:home")
    client.logout()
    assert _lands(client, "orga") == reverse("tournament:home")
