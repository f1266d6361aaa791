"""A player withdrew after game 2: the players' form at the table offers
only those still at it for games 3–5, and the server refuses a result that
gives him one of them, beside the game."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.results import games, quick_form
from tournament.models import ResultVersion
from tournament.registration.services import entry_withdraw

pytestmark = pytest.mark.django_db


def enter_url(entry):
    return reverse(
        "tournament:mine_enter",
        kwargs={
            "slug": entry.tournament.slug,
            "token": entry.link_token,
            "series": 1,
            "table": 1,
        },
    )


@pytest.fixture
def gone(at_table, organizer):
    entry_withdraw(
        actor=organizer,
        entry=at_table.p[3],
        reason="krank",
        after_series=1,
        after_game=2,
    )
    return at_table


def test_the_players_form_offers_only_the_players_left(gone):
    page = Client().get(enter_url(gone.p[1])).content.decode()
    assert 'name="g2_winner" value="3"' in page
    for g in (3, 4, 5):
        assert f'name="g{g}_winner" value="3"' not in page
        assert f'name="g{g}_winner" value="4"' in page
    assert "ohne Sitz 3" in page
    assert '<small class="withdrawn-mark">abgemeldet (nach Serie 1, Spiel 2)' in page


def test_a_result_giving_him_a_later_game_is_refused_beside_it(gone):
    posted = quick_form(games([(1, 5), (3, 3), (3, 7), (4, 1), (2, 2)]), revision=0)
    answer = Client().post(enter_url(gone.p[1]), posted, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert list(errors) == ["g3_winner"]
    assert "Sitz 3 ist abgemeldet" in errors["g3_winner"][0]
    assert not ResultVersion.objects.exists()
    posted = quick_form(games([(1, 5), (3, 3), (1, 7), (4, 1), (2, 2)]), revision=0)
    assert Client().post(enter_url(gone.p[1]), posted).status_code == 302


def test_the_table_card_page_tells_him_the_others_enter(gone):
    phone = Client()
    mine = reverse(
        "tournament:mine",
        kwargs={"slug": gone.tournament.slug, "token": gone.p[3].link_token},
    )
    phone.get(mine)  # the phone remembers his link
    page = phone.get(f"/t/{gone.tournament.slug}/tisch/1/").content.decode()
    assert (
        "Sie sind abgemeldet (nach Serie 1, Spiel 2): die anderen Spieler des "
        "Tisches geben das Ergebnis ohne Sie ein." in page
    )
