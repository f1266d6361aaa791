"""A withdrawal in mid-series: the organizer says after which game of the
running series the player left; his table's later games are entered
without him, a table left with two does not play its later games, and he
carries "abgemeldet (nach Serie 2, Spiel 2)" wherever he is listed."""

import pytest

from tests.support.factories import make_series
from tests.support.results import confirm, enter, games, quick_form
from tournament.core.errors import UserError
from tournament.models import AuditEvent, Entry, GameScore, ResultVersion
from tournament.registration.services import entry_reinstate, entry_withdraw
from tournament.results.adapter import GameErrors
from tournament.results.services import GameInput, result_enter


@pytest.fixture
def running(tournament):
    """Series 1 done, series 2 released: tables of 4, 4 and 3 (start
    numbers 1-11 in order)."""
    make_series(tournament, sizes=(4, 4, 3), number=1, status="complete")
    entries = list(tournament.entries.order_by("start_number"))
    return make_series(tournament, sizes=(4, 4, 3), number=2, entries=entries)


def _entry(tournament, number):
    return Entry.objects.select_related("player").get(
        tournament=tournament, start_number=number
    )


def withdraw(tournament, organizer, number, after_game, after_series=2):
    return entry_withdraw(
        actor=organizer,
        entry=_entry(tournament, number),
        reason="krank",
        after_series=after_series,
        after_game=after_game,
    )


def test_withdrawal_stores_series_and_game_and_audits_it(
    tournament, organizer, running
):
    entry = withdraw(tournament, organizer, 3, 2)
    entry.refresh_from_db()
    assert (entry.withdrawn_after_series, entry.withdrawn_after_game) == (2, 2)
    assert entry.withdrawal_text == "abgemeldet (nach Serie 2, Spiel 2)"
    event = AuditEvent.objects.get(action="entry.withdraw")
    assert event.after["withdrawn_after_series"] == 2
    assert event.after["withdrawn_after_game"] == 2
    assert event.note == "abgemeldet (nach Serie 2, Spiel 2)"


def test_after_the_last_game_is_after_the_series(tournament, organizer, running):
    entry = withdraw(tournament, organizer, 3, 5)
    assert (entry.withdrawn_after_series, entry.withdrawn_after_game) == (2, None)
    assert entry.withdrawal_text == "abgemeldet (nach Serie 2)"
    entry = withdraw(tournament, organizer, 4, 0)
    assert entry.withdrawal_text == "abgemeldet (vor Serie 2)"


def test_a_stale_page_or_a_game_out_of_range_changes_nothing(
    tournament, organizer, running
):
    with pytest.raises(UserError) as stale:
        withdraw(tournament, organizer, 3, 2, after_series=1)
    assert "Serie 2" in stale.value.message
    with pytest.raises(UserError):
        withdraw(tournament, organizer, 3, 9)
    assert not Entry.objects.filter(withdrawn_at__isnull=False).exists()


def test_a_table_with_a_result_entered_only_lets_him_leave_after_the_series(
    tournament, organizer, running
):
    enter(running.tables.get(number=1), organizer)
    with pytest.raises(UserError) as refused:
        withdraw(tournament, organizer, 3, 2)
    assert refused.value.code == "result_entered"
    assert "nach der Serie" in refused.value.message
    assert withdraw(tournament, organizer, 3, 5).withdrawn_after_game is None


def test_reinstating_clears_the_moment(tournament, organizer, running):
    entry = entry_reinstate(
        actor=organizer, entry=withdraw(tournament, organizer, 3, 2)
    )
    assert entry.withdrawn_after_series is None and entry.withdrawal_text == ""


def test_the_later_games_cannot_be_won_by_him(tournament, organizer, running):
    withdraw(tournament, organizer, 3, 2)
    table = running.tables.get(number=1)
    with pytest.raises(GameErrors) as refused:
        enter(table, organizer, games([(1, 5), (2, 3), (3, 7), (4, 1), (3, 2)]))
    assert [(e.game, e.field, e.code) for e in refused.value.errors] == [
        (3, "winner", "withdrawn_seat"),
        (5, "winner", "withdrawn_seat"),
    ]
    assert "Sitz 3 ist abgemeldet" in refused.value.errors[0].text
    assert not ResultVersion.objects.exists()
    # Games 1 and 2 he played (and may have won).
    enter(table, organizer, games([(1, 5), (3, 3), (1, 7), (4, 1), (2, 2)]))


def test_his_table_plays_on_with_three_and_he_scores_only_his_games(
    tournament, organizer, referee, running
):
    withdraw(tournament, organizer, 3, 2)
    table = running.tables.get(number=1)
    confirm(
        enter(table, referee, games([(3, 5), (2, 3), (1, 7), (4, 1), (2, 2)])),
        organizer,
    )
    his = GameScore.objects.filter(table=table, entry__start_number=3)
    assert sorted(his.values_list("game", "points")) == [(1, 12), (2, 0)]
    three = GameScore.objects.filter(table=table, game=3)
    assert sorted(three.values_list("seat", "three_table")) == [
        (1, True),
        (2, True),
        (4, True),
    ]


def test_a_table_of_three_left_with_two_plays_no_more_games(
    tournament, organizer, running
):
    withdraw(tournament, organizer, 10, 2)
    table = running.tables.get(number=3)
    with pytest.raises(UserError) as refused:
        enter(table, organizer, games([(1, 5), (2, 3), (1, 7), (2, 1), (1, 2)]))
    assert refused.value.code == "game_count"
    enter(table, organizer, games([(1, 5), (2, 3)]))
    assert table.result_versions.get().data["games"][1]["winner"] == 2


def test_sheet_games_are_played_by_the_three_left(tournament, organizer, running):
    """Seat 2 left after game 1: game 2 is seats 1, 3, 4. Seat 4 deals (the
    first game's winner, seat 2, is gone: the deal passes clockwise to 3)."""
    withdraw(tournament, organizer, 2, 1)
    table = running.tables.get(number=1)
    hand = {"sheet": {"value": 7, "winner": 1, "folded": {}}}
    quick = GameInput(winner=2, marks=7)
    table.refresh_from_db()
    version = result_enter(
        actor=organizer,
        table=table,
        games=[quick, GameInput(hands=(hand,)), *games([(1, 7), (3, 7), (4, 7)])],
        mode="sheet",
        revision=table.result_revision,
    )
    assert version.data["games"][1]["winner"] == 1
    assert version.data["games"][1]["hands"] == [hand]
    table.refresh_from_db()
    with pytest.raises(GameErrors) as refused:
        result_enter(
            actor=organizer,
            table=table,
            games=[
                quick,
                GameInput(hands=({"sheet": {"value": 7, "winner": 2, "folded": {}}},)),
                *games([(1, 7), (3, 7), (4, 7)]),
            ],
            mode="sheet",
            revision=table.result_revision,
        )
    assert refused.value.errors[0].code == "withdrawn_seat"
    assert refused.value.errors[0].hand == 1


def test_the_referees_form_offers_only_the_players_left(
    tournament, organizer, running, client
):
    withdraw(tournament, organizer, 3, 2)
    client.force_login(organizer)
    url = f"/t/{tournament.slug}/eingabe/serie/2/tisch/1/"
    page = client.get(url).content.decode()
    assert page.count('name="g2_winner" value="3"') == 1
    assert 'name="g3_winner" value="3"' not in page
    assert "ohne Sitz 3" in page
    table = running.tables.get(number=1)
    posted = quick_form(
        games([(1, 5), (2, 3), (3, 7), (4, 1), (1, 2)]), revision=table.result_revision
    )
    answer = client.post(url, posted).content.decode()
    assert "Sitz 3 ist abgemeldet und spielt dieses Spiel nicht mehr mit" in answer
    assert not ResultVersion.objects.exists()


def test_the_withdrawal_page_says_what_follows_and_takes_the_game(
    tournament, organizer_client, running
):
    url = f"/t/{tournament.slug}/verwaltung/spieler/3/abmelden/"
    page = organizer_client.get(url).content.decode()
    assert "Er sitzt in Serie 2 an Tisch 1, und die Serie läuft" in page
    assert "Tisch 1 spielt die übrigen Spiele der Serie mit 3 Spielern weiter." in page
    assert "Ab der nächsten Serie wird er nicht mehr ausgelost." in page
    # Without a game chosen nothing happens.
    answer = organizer_client.post(url, {"reason": "krank", "series": 2})
    assert "Bitte wählen, nach welchem Spiel." in answer.content.decode()
    assert _entry(tournament, 3).withdrawn_at is None
    answer = organizer_client.post(
        url, {"reason": "krank", "series": 2, "after_game": 2}, follow=True
    )
    assert "ist abgemeldet (nach Serie 2, Spiel 2)." in answer.content.decode()
    assert _entry(tournament, 3).withdrawn_after_game == 2


def test_the_withdrawal_page_of_a_table_of_three(tournament, organizer_client, running):
    page = organizer_client.get(f"/t/{tournament.slug}/verwaltung/spieler/10/abmelden/")
    text = page.content.decode()
    assert "An Tisch 3 bleiben nur 2 Spieler: zu wenige für ein Spiel." in text
    assert "werden dort nicht gespielt und zählen für niemanden" in text


def test_a_stale_withdrawal_page_is_refused_beside_the_form(
    tournament, organizer_client, running
):
    answer = organizer_client.post(
        f"/t/{tournament.slug}/verwaltung/spieler/3/abmelden/",
        {"reason": "krank", "series": 1, "after_game": 2},
    )
    assert "Inzwischen läuft Serie 2" in answer.content.decode()
    assert _entry(tournament, 3).withdrawn_at is None


def test_a_backup_keeps_the_moment_and_the_scores_without_him(
    tournament, organizer, running
):
    from tournament.backup.services import tournament_backup, tournament_restore

    withdraw(tournament, organizer, 3, 2)
    table = running.tables.get(number=1)
    confirm(
        enter(table, organizer, games([(3, 5), (2, 3), (1, 7), (4, 1), (2, 2)])), None
    )
    doc = tournament_backup(tournament=tournament)
    copy = tournament_restore(doc=doc, slug="copy")
    entry = copy.entries.get(start_number=3)
    assert (entry.withdrawn_after_series, entry.withdrawn_after_game) == (2, 2)
    scores = GameScore.objects.filter(series__tournament=copy, entry=entry)
    assert sorted(scores.values_list("game", "points")) == [(1, 12), (2, 0)]


def test_with_his_tables_result_entered_the_page_offers_only_after_the_series(
    tournament, organizer, organizer_client, running
):
    enter(running.tables.get(number=1), organizer)
    url = f"/t/{tournament.slug}/verwaltung/spieler/3/abmelden/"
    page = organizer_client.get(url).content.decode()
    assert "nach der Serie – alle 5 Spiele zählen" in page
    assert "nach Spiel 2" not in page and "vor Spiel 1" not in page
    assert "sie erst ablehnen (Eingabe, Tisch 1), dann hier abmelden" in page


def test_in_a_series_drawn_but_not_released_he_leaves_before_it(tournament, organizer):
    make_series(tournament, sizes=(4, 4), number=1, status="complete")
    entries = list(tournament.entries.order_by("start_number"))
    make_series(tournament, sizes=(4, 4), number=2, status="seated", entries=entries)
    with pytest.raises(UserError) as refused:
        withdraw(tournament, organizer, 3, 2)
    assert refused.value.code == "not_started"
    entry = entry_withdraw(actor=organizer, entry=_entry(tournament, 3), reason="x")
    assert entry.withdrawal_text == "abgemeldet (vor Serie 2)"


def test_between_series_he_leaves_after_the_last_one_he_sat_in(tournament, organizer):
    make_series(tournament, sizes=(4, 4), number=1, status="complete")
    with pytest.raises(UserError) as stale:
        withdraw(tournament, organizer, 3, 2, after_series=1)
    assert stale.value.code == "stale_moment"
    entry = entry_withdraw(actor=organizer, entry=_entry(tournament, 3), reason="x")
    assert entry.withdrawal_text == "abgemeldet (nach Serie 1)"


def test_a_sheet_naming_a_seat_the_table_does_not_have_is_refused_as_before(
    tournament, organizer, running
):
    table = running.tables.get(number=3)  # a table of three, nobody gone
    table.refresh_from_db()
    bad = {"sheet": {"value": 2, "winner": 1, "folded": {"4": 1}}}
    with pytest.raises(GameErrors) as refused:
        result_enter(
            actor=organizer,
            table=table,
            games=[GameInput(hands=(bad,)), *games([(1, 7)] * 4)],
            mode="sheet",
            revision=table.result_revision,
        )
    assert refused.value.errors[0].code == "sheet_unknown_seat"


def test_taking_it_back_is_refused_while_his_table_has_a_result_without_him(
    tournament, organizer, organizer_client, running
):
    entry = withdraw(tournament, organizer, 3, 2)
    enter(running.tables.get(number=1), organizer, games([(1, 5)] * 5))
    answer = organizer_client.post(
        f"/t/{tournament.slug}/verwaltung/spieler/3/zurueck/", follow=True
    )
    assert "Für Tisch 1 ist schon ein Ergebnis ohne ihn eingegeben." in (
        answer.content.decode()
    )
    entry.refresh_from_db()
    assert entry.withdrawn_after_game == 2
    assert not AuditEvent.objects.filter(action="entry.reinstate").exists()
