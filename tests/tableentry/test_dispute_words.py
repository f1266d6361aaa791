"""Every state of *Stimmt* / *Stimmt nicht* in words a player reads once:
on "Mein Turnier" (the one who entered, the one who objected, one who has
not answered), on the table page, and in the referees' box of a table to
look at; who entered a result is named as a person, not by his login."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.results import enter, player_enters
from tournament.tableentry.services import (
    result_confirm_by_player,
    result_reject_by_player,
)

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def mine(entry) -> str:
    page = reverse(
        "tournament:mine",
        kwargs={"slug": entry.tournament.slug, "token": entry.link_token},
    )
    return text(Client().get(page))


def table_page(entry, table=1) -> str:
    """The table page, on the phone that opened `entry`'s link before."""
    phone = Client()
    phone.get(
        reverse(
            "tournament:mine",
            kwargs={"slug": entry.tournament.slug, "token": entry.link_token},
        )
    )
    return text(
        phone.get(
            reverse(
                "tournament:table_card",
                kwargs={"slug": entry.tournament.slug, "table": table},
            )
        )
    )


def name(world, n) -> str:
    return world.p[n].player.full_name


def test_a_dispute_is_said_once_and_nobody_is_waited_for(at_table):
    version = player_enters(at_table, 1)
    result_reject_by_player(
        player=at_table.p[2], version=version, reason="Spiel 3 hat Sitz 2 gewonnen"
    )
    objector = name(at_table, 2)

    entered = mine(at_table.p[1])
    assert f"{objector} hat „Stimmt nicht“ gesagt." in entered
    assert "Jetzt entscheiden die Schiedsrichter" in entered
    # No "Stimmt" counts any more: nobody is waited for, the one who
    # objected least of all.
    assert "Wartet noch auf" not in entered and "Es fehlen noch" not in entered
    assert "sobald einer von ihnen" not in entered
    assert "Einspruch:" not in entered

    objected = mine(at_table.p[2])
    assert "Sie haben „Stimmt nicht“ gesagt." in objected
    assert f"{objector} hat" not in objected
    assert "Sehen Sie auch einen Fehler?" not in objected

    silent = mine(at_table.p[3])
    assert f"{objector} hat „Stimmt nicht“ gesagt." in silent
    assert "Stimmt das Ergebnis?" not in silent
    # He never agreed: no "doch".
    assert "Doch" not in silent
    assert "Sehen Sie auch einen Fehler? Ebenfalls „Stimmt nicht“ sagen" in silent
    assert "Wer das richtige Ergebnis kennt, gibt es neu ein" in silent

    card = table_page(at_table.p[3])
    assert f"Eingegeben von {name(at_table, 1)}" in card
    assert f"{objector} hat „Stimmt nicht“ gesagt." in card
    assert "Jetzt entscheiden die Schiedsrichter" in card


def test_waiting_for_stimmt_says_when_it_counts(at_table):
    player_enters(at_table, 1)
    entered = mine(at_table.p[1])
    others = ", ".join(name(at_table, n) for n in (2, 3, 4))
    assert f"Es zählt, sobald einer von ihnen „Stimmt“ sagt: {others}" in entered
    assert "einer genügt" not in entered
    card = table_page(at_table.p[2])
    assert "Es zählt, sobald ein anderer Spieler des Tisches „Stimmt“ sagt." in card


def test_with_every_player_to_confirm_the_missing_ones_are_named(at_table):
    at_table.tournament.table_entry = "all"
    at_table.tournament.save()
    version = player_enters(at_table, 1)
    result_confirm_by_player(player=at_table.p[2], version=version)
    agreed = mine(at_table.p[2])
    missing = f"{name(at_table, 3)}, {name(at_table, 4)}"
    assert (
        f"Es zählt, sobald alle „Stimmt“ gesagt haben. Es fehlen noch: {missing}"
        in agreed
    )
    card = table_page(at_table.p[2])
    assert "sobald alle anderen Spieler des Tisches „Stimmt“ gesagt haben" in card


def test_the_table_page_says_where_the_result_stands(at_table, referee):
    assert "Noch kein Ergebnis eingegeben." in table_page(at_table.p[1])
    version = player_enters(at_table, 1)
    result_confirm_by_player(player=at_table.p[2], version=version)
    assert "Das Ergebnis ist bestätigt und zählt." in table_page(at_table.p[1])
    enter(at_table.t2, referee)
    assert "Die Schiedsrichter haben das Ergebnis eingegeben" in table_page(
        at_table.p[5], table=2
    )


def test_the_referees_box_names_seat_and_marks_in_words(at_table, referee, client):
    version = player_enters(at_table, 1)
    result_reject_by_player(player=at_table.p[2], version=version, reason="Spiel 1")
    client.force_login(referee)
    page = text(
        client.get(
            reverse(
                "tournament:table_result",
                kwargs={"slug": "rm-test", "series": 1, "table": 1},
            )
        )
    )
    objector = name(at_table, 2)
    assert f"{objector} (Nr. 2) sagt „Stimmt nicht“: Spiel 1" in page
    assert f"Eingabe am Tisch von {name(at_table, 1)} wartet" in page
    # Game 1 of FIVE: seat 1 won, 5 marks left.
    assert "Sitz 1, 5 Schräm" in page
    assert "1 / 5" not in page and "Tisch (" not in page


def test_a_referees_entry_is_named_by_his_name_not_his_login(at_table, referee, client):
    referee.first_name, referee.last_name = "Hildegard", "Schäfer"
    referee.save()
    enter(at_table.t1, referee)
    client.force_login(referee)
    page = text(
        client.get(
            reverse(
                "tournament:table_result",
                kwargs={"slug": "rm-test", "series": 1, "table": 1},
            )
        )
    )
    assert "Eingabe von Hildegard Schäfer um" in page
    assert "Eingabe von schiri" not in page
