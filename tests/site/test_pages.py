import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, make_series
from tournament.models import Entry

pytestmark = pytest.mark.django_db


def test_home_is_public_and_german(client, tournament):
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    assert 'lang="de"' in text and "Turniere im 7-Schräm" in text
    assert "RM Test" in text


def test_english_can_be_chosen(client, tournament):
    response = client.post(
        reverse("set_language"), {"language": "en", "next": "/"}, follow=True
    )
    assert 'lang="en"' in response.content.decode()


ORGANIZER_PAGES = [
    ("tournament:manage", {}),
    ("tournament:tournament_edit", {}),
    ("tournament:entry_list", {}),
    ("tournament:entry_create", {}),
    ("tournament:import_upload", {}),
    ("tournament:entry_export", {}),
    ("tournament:team_list", {}),
    ("tournament:team_create", {}),
]


@pytest.mark.parametrize(("name", "kwargs"), ORGANIZER_PAGES)
def test_organizer_pages_by_role(client, tournament, organizer, referee, name, kwargs):
    url = reverse(name, kwargs={"slug": tournament.slug, **kwargs})
    response = client.get(url)
    assert response.status_code == 302 and "/konto/anmelden/" in response["Location"]
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.force_login(organizer)
    assert client.get(url).status_code == 200


def test_login_page_is_german(client):
    response = client.get(reverse("login"))
    assert "Anmelden" in response.content.decode()


def test_register_form_warns_of_a_duplicate_name_before_saving(
    organizer_client, tournament
):
    EntryFactory(
        tournament=tournament,
        start_number=1,
        player__first_name="Anna",
        player__last_name="Thelen",
    )
    url = reverse("tournament:entry_create", kwargs={"slug": tournament.slug})
    data = {"first_name": "Anna", "last_name": "Thelen", "category": "ladies"}
    response = organizer_client.post(url, data)
    assert "gleichnamiger Spieler schon gemeldet" in response.content.decode()
    assert Entry.objects.count() == 1
    response = organizer_client.post(url, {**data, "confirm_duplicate": "on"})
    assert response.status_code == 302
    assert Entry.objects.count() == 2


def test_register_form_reports_bad_input_in_german(organizer_client, tournament):
    url = reverse("tournament:entry_create", kwargs={"slug": tournament.slug})
    response = organizer_client.post(url, {"start_number": "-3", "category": "x"})
    text = response.content.decode()
    assert "Dieses Feld ist zwingend erforderlich." in text
    assert Entry.objects.count() == 0


def test_player_list_search_and_one_click_check_in(organizer_client, tournament):
    EntryFactory(
        tournament=tournament,
        start_number=1,
        player__first_name="Anna",
        player__last_name="Thelen",
    )
    EntryFactory(
        tournament=tournament,
        start_number=2,
        player__first_name="Hubert",
        player__last_name="Mertes",
    )
    url = reverse("tournament:entry_list", kwargs={"slug": tournament.slug})
    text = organizer_client.get(url, {"q": "thel"}).content.decode()
    assert "Thelen" in text and "Mertes" not in text
    text = organizer_client.get(url, {"q": "2"}).content.decode()
    assert "Mertes" in text
    check_in = reverse(
        "tournament:entry_check_in", kwargs={"slug": tournament.slug, "number": 2}
    )
    response = organizer_client.post(
        check_in, {"checked_in": "1", "next": f"{url}?q=2"}
    )
    assert response.status_code == 302 and response["Location"] == f"{url}?q=2"
    assert Entry.objects.get(start_number=2).checked_in
    # an open redirect is refused
    response = organizer_client.post(
        check_in, {"checked_in": "0", "next": "https://evil.example/"}
    )
    assert response["Location"].startswith(url)


def test_withdraw_asks_for_confirmation(organizer_client, tournament):
    EntryFactory(tournament=tournament, start_number=4)
    url = reverse(
        "tournament:entry_withdraw", kwargs={"slug": tournament.slug, "number": 4}
    )
    response = organizer_client.get(url)
    assert "abmelden?" in response.content.decode()
    assert Entry.objects.get().withdrawn_at is None
    organizer_client.post(url, {"reason": "krank"})
    assert Entry.objects.get().withdrawal_reason == "krank"


def test_check_in_needs_post(organizer_client, tournament):
    EntryFactory(tournament=tournament, start_number=4)
    url = reverse(
        "tournament:entry_check_in", kwargs={"slug": tournament.slug, "number": 4}
    )
    assert organizer_client.get(url).status_code == 405


def test_create_tournament(organizer_client):
    response = organizer_client.post(
        reverse("tournament:tournament_create"),
        {
            "name": "Vereinsmeisterschaft",
            "slug": "vm-2026",
            "date": "2026-12-12",
            "venue": "Daun",
            "rule_preset": "championship",
            "series_count": 5,
            "games_per_series": 5,
            "start_marks": 7,
            "win_bonus": 7,
            "status": "planned",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/t/vm-2026/verwaltung/"


def test_unknown_tournament_is_a_404(client):
    assert client.get("/t/gibt-es-nicht/").status_code == 404


def test_german_even_for_an_english_browser_until_english_is_chosen(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert 'lang="de"' in response.content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert 'lang="en"' in response.content.decode()
    assert "Tournaments" in response.content.decode()


def test_admin_lists_every_model_and_results_are_read_only(client, db):
    from django.apps import apps
    from django.contrib import admin
    from django.contrib.auth import get_user_model

    for model in apps.get_app_config("tournament").get_models():
        assert admin.site.is_registered(model), model
    superuser = get_user_model().objects.create_superuser("root", "r@x.de", "pw")
    client.force_login(superuser)
    for name in ["resultversion", "gamescore", "series", "seat", "auditevent"]:
        assert client.get(f"/admin/tournament/{name}/").status_code == 200
        assert client.get(f"/admin/tournament/{name}/add/").status_code == 403


def test_the_language_switch_is_a_link_back_to_the_same_page(client, tournament):
    """No form (whose CSRF token would make every page personal): any
    address with ?lang=en keeps the choice and goes back without it."""
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    response = client.get(url, {"q": "Anna", "lang": "en"})
    assert response.status_code == 302 and response["Location"] == f"{url}?q=Anna"
    assert response.cookies["django_language"].value == "en"
    page = client.get(response["Location"]).content.decode()
    assert 'lang="en"' in page and "csrfmiddlewaretoken" not in page
    assert 'href="?q=Anna&amp;lang=de"' in page
    assert client.get(url, {"lang": "xx"}).status_code == 200  # no switch


def test_the_language_switch_stays_on_this_site(rf):
    from django.http import HttpResponse

    from tournament.core.middleware import LanguageMiddleware

    request = rf.get("/", {"lang": "en", "q": "x"})
    request.path = "//evil.example/"
    response = LanguageMiddleware(lambda r: HttpResponse())(request)
    assert response["Location"] == "/evil.example/?q=x"


@pytest.mark.parametrize(
    "url_name", ["home", "detail", "standings", "series_results", "series_detail"]
)
def test_a_narrow_phone_never_ends_a_line_of_the_tournaments_name_in_7_dash(
    client, tournament, url_name
):
    # "Rheinland-Meisterschaft im 7-" over "Schräm 2026" on a 360 px phone:
    # the hyphen after a number is one that never ends a line.
    make_series(tournament, sizes=(4,), status="released")
    tournament.name = "Rheinland-Meisterschaft im 7-Schräm 2026"
    tournament.save()
    kwargs = {} if url_name == "home" else {"slug": tournament.slug}
    if url_name.startswith("series"):
        kwargs["number"] = 1
    html = client.get(reverse(f"tournament:{url_name}", kwargs=kwargs)).content
    # The window's title is not wrapped (and is what a bookmark keeps).
    text = re.sub(r"<title>.*?</title>", "", html.decode(), flags=re.S)
    assert "im 7\u2011Schräm 2026" in text
    assert "7-Schräm 2026" not in text
