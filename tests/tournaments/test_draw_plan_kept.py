"""A tournament is read without the draw's plan (only the seating reads
it): a settings change saved from such a read never writes back an older
plan over the one a draw stored meanwhile."""

import pytest

from tests.support.factories import TournamentFactory
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_tournament_saved_after_a_draw_keeps_the_draws_plan():
    created = TournamentFactory(seating_plan={"seed": "alt"})
    page = Tournament.objects.get(pk=created.pk)  # a settings page's read
    Tournament.objects.filter(pk=created.pk).update(seating_plan={"seed": "neu"})
    page.name = "Umbenannt"
    page.save()
    stored = Tournament.objects.get(pk=created.pk)
    assert stored.name == "Umbenannt"
    assert stored.seating_plan == {"seed": "neu"}


def test_the_plan_is_read_when_asked_for(django_assert_num_queries):
    created = TournamentFactory(seating_plan={"seed": "s"})
    with django_assert_num_queries(1):
        tournament = Tournament.objects.get(pk=created.pk)
    with django_assert_num_queries(1):
        assert tournament.seating_plan == {"seed": "s"}
