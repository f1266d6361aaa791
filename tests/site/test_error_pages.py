"""The error pages speak German to whoever meets them and say what to do
instead (issue 14.1, 14.8): a referee on the organizer's page is told it is
the organizer's and where his own work is; a referee of another tournament
that he is not listed for it; nobody sees Django's pages."""

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from tests.support.factories import make_user

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def test_a_referee_on_an_organizers_page_is_told_whose_page_it_is(
    client, referee, tournament
):
    client.force_login(referee)
    response = client.get(reverse("tournament:manage", args=[tournament.slug]))
    assert response.status_code == 403
    page = text(response)
    assert "nur für die Turnierleitung" in page
    assert "Als Schiedsrichter" in page
    assert "„Eingabe“" in page  # where his own work is
    # Not the old sentence that named the referees among those allowed.
    assert "bzw. den Schiedsrichtern" not in page


def test_a_referee_not_listed_for_a_tournament_is_told_so(
    client, referee, referee2, tournament
):
    tournament.referees.set([referee2])
    client.force_login(referee)
    response = client.get(reverse("tournament:results", args=[tournament.slug]))
    assert response.status_code == 403
    page = text(response)
    assert "nicht als Schiedsrichter eingetragen" in page
    assert "Turnierleitung" in page
    assert "nur für die Turnierleitung" not in page


def test_an_account_without_a_role_is_told_who_can_unlock_it(client, tournament):
    client.force_login(make_user("gast"))
    response = client.get(reverse("tournament:results", args=[tournament.slug]))
    assert response.status_code == 403
    assert "keine Rolle" in text(response)


def test_a_wrong_address_gets_the_german_404_with_the_way_home(client):
    response = client.get("/gibt-es-nicht/")
    assert response.status_code == 404
    page = text(response)
    assert '<html lang="de"' in page
    assert "Seite nicht gefunden" in page
    assert f'href="{reverse("tournament:home")}"' in page


def test_the_500_page_stands_alone_in_german():
    """Rendered without a request (Django's server_error): no static
    manifest, no context processor, and still the German page."""
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = text(response)
    assert '<html lang="de"' in page
    assert "Ein Fehler ist aufgetreten" in page
    assert "Turnierleitung" in page and 'href="/"' in page
