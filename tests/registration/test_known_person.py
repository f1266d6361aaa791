"""A player typed in at the desk who is a known person is told so, as the
player import tells it ("Bekannt: 2 Turniere bisher"); a new one is not."""

import pytest
from django.urls import reverse

from tests.history.helpers import person, played

pytestmark = pytest.mark.django_db


def register(client, tournament, **fields):
    url = reverse("tournament:entry_create", kwargs={"slug": tournament.slug})
    data = {"category": "open", **fields}
    return client.post(url, data, follow=True).content.decode()


def test_a_known_person_typed_in_by_hand_is_named_known(organizer_client, tournament):
    anna = person("Anna Jöbges", "Schrämclub Daun")
    played([(anna, 120)], year=2024)
    played([(anna, 110)], year=2025)
    text = register(
        organizer_client,
        tournament,
        first_name="Anna",
        last_name="Jöbges",
        club="Schrämclub Daun",
    )
    assert "Anna Jöbges ist mit Startnummer 1 gemeldet" in text
    assert "Anna Jöbges ist bekannt: 2 Turniere bisher." in text


def test_a_new_person_is_not_called_known(organizer_client, tournament):
    text = register(organizer_client, tournament, first_name="Neu", last_name="Ling")
    assert "Neu Ling ist mit Startnummer 1 gemeldet" in text
    assert "ist bekannt" not in text
