"""The Protokoll names the player who acted at his table (issue 16.2):
his name and number where a user would stand, the action in words."""

import pytest
from django.urls import reverse

from tests.support.results import FIVE
from tournament.tableentry.services import (
    result_confirm_by_player,
    result_enter_by_player,
    result_reject_by_player,
)

pytestmark = pytest.mark.django_db


def test_the_log_names_the_players(at_table, organizer_client):
    version = result_enter_by_player(
        player=at_table.p[1], table=at_table.t1, games=FIVE, mode="quick", revision=0
    )
    result_reject_by_player(player=at_table.p[2], version=version, reason="Spiel 4")
    second = result_enter_by_player(
        player=at_table.p[2], table=at_table.t1, games=FIVE, mode="quick", revision=2
    )
    result_confirm_by_player(player=at_table.p[3], version=second)
    page = organizer_client.get(
        reverse("tournament:audit_log", kwargs={"slug": "rm-test"})
    ).content.decode()
    for number in (1, 2, 3):
        entry = at_table.p[number]
        assert f"{entry.player.full_name} (Spieler {number})" in page
    for label in (
        "Ergebnis am Tisch eingegeben (Spieler)",
        "Spieler sagt: Stimmt nicht",
        "Ergebnis am Tisch bestätigt (Spieler)",
    ):
        assert label in page
    assert "Einspruch am Tisch" in page
    rows = page.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    assert "System" not in rows
