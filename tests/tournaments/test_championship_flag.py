"""The championship flag says where it is set what it does (the list of
champions, only once ticked), and a second championship in one year is
asked about before it is saved."""

import datetime
import re

import pytest
from django.urls import reverse

from tests.support.factories import TournamentFactory
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def new_tournament(**extra):
    return {
        "name": "Rheinland-Meisterschaft 2026",
        "slug": "rm-2026-b",
        "date": "2026-11-14",
        "venue": "Daun",
        "rule_preset": "championship",
        "series_count": "5",
        "games_per_series": "5",
        "start_marks": "7",
        "win_bonus": "7",
        "status": "planned",
        "table_entry": "off",
        "double_entry": "on",
        **extra,
    }


def test_the_form_says_what_the_flag_does(organizer_client):
    page = text_of(organizer_client.get(reverse("tournament:tournament_create")))
    assert "steht sein Sieger in der Liste der Meister" in page
    assert "Ohne Haken erscheint das Turnier dort nicht" in page
    # The question about a second one is not there while nothing asks it.
    assert "Ja, eine weitere Meisterschaft in diesem Jahr" not in page


def test_a_second_championship_in_one_year_is_asked_about(organizer_client):
    TournamentFactory(
        name="Rheinland-Meisterschaft 2026",
        slug="rm-2026",
        date=datetime.date(2026, 3, 7),
        is_championship=True,
    )
    url = reverse("tournament:tournament_create")
    response = organizer_client.post(url, new_tournament(is_championship="on"))
    assert response.status_code == 200
    assert not Tournament.objects.filter(slug="rm-2026-b").exists()
    assert response.context["form"].errors["is_championship"] == [
        "2026 hat schon eine Meisterschaft: „Rheinland-Meisterschaft 2026“. Soll "
        "dies eine weitere sein, bitte darunter „Ja, eine weitere Meisterschaft in "
        "diesem Jahr“ ankreuzen; sonst den Haken bei „Meisterschaft“ entfernen."
    ]
    assert "Ja, eine weitere Meisterschaft in diesem Jahr" in text_of(response)
    response = organizer_client.post(
        url, new_tournament(is_championship="on", second_championship="on")
    )
    assert response.status_code == 302
    assert Tournament.objects.get(slug="rm-2026-b").is_championship


def test_one_championship_a_year_and_its_own_edit_are_not_asked_about(
    organizer_client,
):
    TournamentFactory(
        slug="rm-2025", date=datetime.date(2025, 3, 7), is_championship=True
    )
    url = reverse("tournament:tournament_create")
    response = organizer_client.post(url, new_tournament(is_championship="on"))
    assert response.status_code == 302
    # Saving the same tournament again asks nothing.
    response = organizer_client.post(
        reverse("tournament:tournament_edit", args=["rm-2026-b"]),
        new_tournament(is_championship="on"),
    )
    assert response.status_code == 302
