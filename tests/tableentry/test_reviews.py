"""What the referees see of entry at the table (issue 16.2): a table whose
player said *Stimmt nicht* is on the progress page with its versions; a
referee's entry that differs from the table's own is flagged, game by game,
there and on the table's page; one that agrees is not."""

import re

import pytest
from django.urls import reverse

from tests.support.results import FIVE, enter, games, player_enters
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.results.selectors import table_reviews
from tournament.tableentry.services import (
    result_confirm_by_player,
    result_reject_by_player,
)

pytestmark = pytest.mark.django_db


def progress_text(tournament):
    html = region(tournament, FragmentKey(FRAGMENTS["progress"], {}), "de").html
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_dispute_puts_the_table_on_the_progress_page(at_table):
    version = player_enters(at_table, 1)
    assert table_reviews(at_table.tournament) == []
    result_reject_by_player(
        player=at_table.p[2], version=version, reason="Spiel 3 hat Sitz 2 gewonnen"
    )
    [review] = table_reviews(at_table.tournament)
    assert review.kind == "disputed"
    assert review.first == version and review.second is None
    text = progress_text(at_table.tournament)
    assert "Am Tisch zu klären: 1 Tisch" in text
    assert "Einspruch am Tisch" in text
    assert "Spiel 3 hat Sitz 2 gewonnen" in text


def test_a_dispute_and_the_players_new_entry_show_both_versions(at_table):
    first = player_enters(at_table, 1)
    result_reject_by_player(player=at_table.p[2], version=first, reason="Spiel 1")
    second = player_enters(at_table, 2, games([(2, 4), (2, 3), (1, 7), (4, 1), (3, 2)]))
    result_reject_by_player(player=at_table.p[1], version=second, reason="nein")
    [review] = table_reviews(at_table.tournament)
    assert (review.first, review.second) == (second, first)
    assert review.differing == [1]


def test_a_referees_entry_that_differs_from_the_tables_is_flagged(
    at_table, referee, client
):
    version = player_enters(at_table, 1)
    result_confirm_by_player(player=at_table.p[2], version=version)
    other = games([(1, 5), (2, 3), (1, 7), (4, 1), (2, 2)])  # game 5 differs
    enter(at_table.t1, referee, other, reason="Spielliste")
    [review] = table_reviews(at_table.tournament)
    assert review.kind == "differs"
    assert review.differing == [5]
    client.force_login(referee)
    page = client.get(
        reverse(
            "tournament:table_result",
            kwargs={"slug": "rm-test", "series": 1, "table": 1},
        )
    ).content.decode()
    assert "Abweichung: Schiedsrichter und Tisch" in page
    assert page.count('class="differs"') == 1


def test_a_referees_entry_that_agrees_is_no_review(at_table, referee):
    player_enters(at_table, 1)
    enter(at_table.t1, referee, FIVE)
    assert table_reviews(at_table.tournament) == []


def test_the_reviews_cost_three_queries(at_table, django_assert_num_queries):
    for number, table in ((1, at_table.t1), (5, at_table.t2)):
        version = player_enters(at_table, number, table=table)
        result_reject_by_player(
            player=at_table.p[number + 1], version=version, reason="falsch"
        )
    with django_assert_num_queries(3):
        assert len(table_reviews(at_table.tournament)) == 2
