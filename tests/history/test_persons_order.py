"""/personen/ lists the persons as German readers look names up (DIN
5007-1, as the seating lists do): an umlaut with its vowel, ß as ss,
"Böhm, Brück, Bungert", not the umlauts after Z as the database sorts."""

import html
import re

import pytest
from django.urls import reverse

from tests.history.helpers import person, played
from tournament.core.text import sort_key
from tournament.history.selectors import persons_found

pytestmark = pytest.mark.django_db

NAMES = ["Anna Bungert", "Karl Böhm", "Maria Brück", "Jupp Zander", "Hans Öhler"]
ORDER = ["Böhm", "Brück", "Bungert", "Öhler", "Zander"]


@pytest.fixture
def persons():
    played([(person(name), 10) for name in NAMES], year=2025)


def test_the_persons_are_in_german_order(persons):
    assert [s.person.last_name for s in persons_found()] == ORDER


def test_the_page_lists_them_so(client, persons):
    page = html.unescape(client.get(reverse("tournament:persons")).content.decode())
    places = [page.index(name) for name in ORDER]
    assert places == sorted(places)
    assert re.search("Böhm.*Brück.*Bungert", page, flags=re.S)


def test_the_seating_lists_key_is_the_same():
    assert sorted(["Bungert", "Böhm", "Brück", "Weiß", "Weiss", "Weis"], key=sort_key)[
        :3
    ] == ["Böhm", "Brück", "Bungert"]
