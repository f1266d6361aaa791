"""Result entry with double entry, corrections, conflicts; standings."""

import pytest
from django.urls import reverse

from tests.support.factories import make_series, make_user
from tests.support.results import (
    FIVE,
    confirm,
    enter,
    quick_form,
    results_written,
)
from tournament.core.errors import ConflictError, UserError
from tournament.models import AuditEvent, GameScore, ResultVersion, Table
from tournament.results.services import (
    GameInput,
    result_confirm,
    result_enter,
    result_reject,
)
from tournament.standings.selectors import standings_rows
from tournament.standings.tiebreaks import tiebreak_draw_lot, tiebreak_record_playoff
from tournament.tournaments.services import tournament_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def series_with_three(tournament):
    """Series 1, released: a table of four (start numbers 1-4) and one of
    three (5-7)."""
    return make_series(tournament, sizes=(4, 3))


@pytest.fixture
def table(series_with_three):
    return Table.objects.get(series=series_with_three, number=1)


def test_entry_counts_only_after_a_second_person_confirms(table, referee, referee2):
    version = enter(table, referee)
    assert version.status == "pending"
    assert not GameScore.objects.exists()
    table.refresh_from_db()
    result_confirm(actor=referee2, version=version, revision=table.result_revision)
    version.refresh_from_db()
    assert version.status == "confirmed" and version.decided_by == referee2
    points = {(s.game, s.seat): s.points for s in GameScore.objects.filter(table=table)}
    assert points[(1, 1)] == 12 and points[(1, 2)] == 0
    assert points[(4, 4)] == 8
    assert sum(points.values()) == 12 + 10 + 14 + 8 + 9


def test_nobody_confirms_their_own_entry(table, referee):
    version = enter(table, referee)
    table.refresh_from_db()
    before = results_written()
    with pytest.raises(UserError, match="eigene Eingabe"):
        result_confirm(actor=referee, version=version, revision=table.result_revision)
    assert results_written() == before
    version.refresh_from_db()
    assert version.status == "pending"


def test_without_double_entry_the_entry_counts_at_once(tournament, table, referee):
    tournament.double_entry = False
    tournament.save()
    version = enter(table, referee)
    assert version.status == "confirmed"
    assert GameScore.objects.filter(table=table).count() == 20


@pytest.mark.parametrize(
    ("games", "message"),
    [
        (
            [GameInput(winner=5, marks=3), *FIVE[1:]],
            "Sitz 5 gibt es an diesem Tisch nicht",
        ),
        ([GameInput(winner=1, marks=8), *FIVE[1:]], "höchstens 7 Schräm"),
        ([GameInput(winner=1, marks=0), *FIVE[1:]], "mindestens 1 Schräm"),
        ([GameInput(winner=None, marks=3), *FIVE[1:]], "bitte den Gewinner wählen"),
        (FIVE[:4], "Bitte alle 5 Spiele eingeben"),
    ],
    ids=[
        "unknown-seat",
        "marks-above-7",
        "winner-without-marks",
        "no-winner",
        "four-games",
    ],
)
def test_bad_quick_entry_is_refused_and_nothing_saved(table, referee, games, message):
    before = results_written()
    with pytest.raises(UserError, match=message):
        enter(table, referee, games)
    assert results_written() == before


def test_table_of_three_has_no_seat_four(series_with_three, referee):
    three = Table.objects.get(series=series_with_three, number=2)
    games = [GameInput(winner=4, marks=2)] + [GameInput(winner=1, marks=1)] * 4
    with pytest.raises(UserError, match="Sitz 4"):
        enter(three, referee, games)


def test_a_series_not_yet_released_takes_no_result(tournament, referee):
    seated = make_series(tournament, sizes=(4,), number=2, status="seated")
    before = results_written()
    with pytest.raises(UserError, match="noch nicht veröffentlicht"):
        enter(Table.objects.get(series=seated), referee)
    assert results_written() == before


def test_sheet_entry_replays_the_hands(table, referee):
    # Game 1: seat 1 wins every hand; six hands without a knock leave the
    # others on the hammer, so the seventh is worth 2 (the hammer knocks).
    seven = tuple({"sheet": {"value": 1, "folded": {}, "winner": 1}} for _ in range(6))
    seven += ({"sheet": {"value": 2, "folded": {}, "winner": 1}},)
    games = [GameInput(hands=seven), *FIVE[1:]]
    table.refresh_from_db()
    version = result_enter(
        actor=referee, table=table, games=games, mode="sheet", revision=0
    )
    assert version.data["games"][0]["winner"] == 1
    assert version.data["games"][0]["marks"] == 7
    assert len(version.data["games"][0]["hands"]) == 7


def test_impossible_sheet_names_game_hand_and_rule(table, referee):
    hands = (
        {"sheet": {"value": 1, "folded": {}, "winner": 1}},
        {"sheet": {"value": 2, "folded": {"2": 1}, "winner": 2}},
    )
    before = results_written()
    with pytest.raises(UserError) as error:
        result_enter(
            actor=referee,
            table=table,
            games=[GameInput(hands=hands), *FIVE[1:]],
            mode="sheet",
            revision=0,
        )
    assert "Spiel 1, Einzelspiel 2" in error.value.message
    assert "Gewinner kann nicht gepasst haben" in error.value.message
    # The rule in words, never the file or paragraph it is kept in.
    assert ".md" not in error.value.message and "§" not in error.value.message
    assert results_written() == before


def test_unfinished_sheet_is_refused(table, referee):
    hands = ({"sheet": {"value": 1, "folded": {}, "winner": 1}},)
    with pytest.raises(UserError, match="noch nicht entschieden"):
        result_enter(
            actor=referee,
            table=table,
            games=[GameInput(hands=hands), *FIVE[1:]],
            mode="sheet",
            revision=0,
        )


def test_stale_revision_is_a_conflict_and_loses_nothing(table, referee, referee2):
    first = enter(table, referee)
    before = results_written()
    with pytest.raises(ConflictError, match="inzwischen"):
        result_enter(actor=referee2, table=table, games=FIVE, mode="quick", revision=0)
    assert results_written() == before
    first.refresh_from_db()
    assert first.status == "pending"


def test_correction_keeps_every_version_with_who_and_why(
    table, referee, referee2, organizer
):
    first = enter(table, referee)
    table.refresh_from_db()
    result_confirm(actor=referee2, version=first, revision=table.result_revision)
    with pytest.raises(UserError, match="Grund"):
        enter(table, referee, [GameInput(winner=2, marks=4), *FIVE[1:]])
    # A referee's correction waits for confirmation; the old result still counts.
    fix = enter(
        table, referee, [GameInput(winner=2, marks=4), *FIVE[1:]], reason="Tippfehler"
    )
    assert fix.status == "pending"
    assert GameScore.objects.get(table=table, game=1, seat=1).points == 12
    table.refresh_from_db()
    result_confirm(actor=organizer, version=fix, revision=table.result_revision)
    assert GameScore.objects.get(table=table, game=1, seat=2).points == 11
    # The organizer's own correction counts at once.
    final = enter(
        table, organizer, [GameInput(winner=3, marks=6), *FIVE[1:]], reason="Schiri"
    )
    assert final.status == "confirmed"
    statuses = list(
        table.result_versions.order_by("number").values_list("status", "reason")
    )
    assert statuses == [
        ("superseded", ""),
        ("superseded", "Tippfehler"),
        ("confirmed", "Schiri"),
    ]
    assert AuditEvent.objects.filter(action="result.correct").count() == 2


def test_reject_sets_the_entry_aside(table, referee, referee2):
    version = enter(table, referee)
    table.refresh_from_db()
    with pytest.raises(UserError):
        result_reject(
            actor=referee2, version=version, revision=table.result_revision, reason=" "
        )
    result_reject(
        actor=referee2,
        version=version,
        revision=table.result_revision,
        reason="Spiel 3 falsch",
    )
    version.refresh_from_db()
    assert version.status == "rejected"
    assert not GameScore.objects.exists()


def confirm_all(table, games, referee, referee2):
    confirm(enter(table, referee, games), referee2)


def test_standings_hand_computed(tournament, series_with_three, referee, referee2):
    t1, t2 = Table.objects.filter(series=series_with_three).order_by("number")
    # Table 1: seat 1 wins 12+14 = 26, seat 2 10, seat 3 9, seat 4 8.
    confirm_all(t1, FIVE, referee, referee2)
    # Table 2 (three players, start numbers 5-7): seat 1 wins all with 1 mark:
    # 5 × 8 = 40.
    confirm_all(t2, [GameInput(winner=1, marks=1)] * 5, referee, referee2)
    rows = standings_rows(tournament)
    table = sorted((r.rank, r.start_number, r.points) for r in rows)
    assert table == [
        (1, 5, 40),
        (2, 1, 26),
        (3, 2, 10),
        (4, 3, 9),
        (5, 4, 8),
        (6, 6, 0),
        (6, 7, 0),
    ]
    five = rows[0]
    assert five.games_won == 5 and five.best_game == 8 and five.three_table_games == 5
    assert rows[1].series_points == [26, 0, 0, 0, 0]


def test_equal_totals_share_a_rank_unless_keys_or_a_decision(
    tournament,
    series_with_three,
    referee,
    referee2,
    organizer,
    django_capture_on_commit_callbacks,
):
    t1 = Table.objects.get(series=series_with_three, number=1)
    # Seats 1 and 2 both end with 16: seat 1 wins 8+8 (two games),
    # seat 2 wins one game of 7 marks (14)... plus 2? Use exact values:
    games = [
        GameInput(winner=1, marks=1),
        GameInput(winner=1, marks=1),
        GameInput(winner=2, marks=2),
        GameInput(winner=3, marks=1),
        GameInput(winner=4, marks=1),
    ]
    # seat 1: 16, seat 2: 9, seat 3: 8, seat 4: 8 → seats 3 and 4 tie on 8
    confirm_all(t1, games, referee, referee2)
    rows = [r for r in standings_rows(tournament) if r.points]
    assert {r.start_number: r.rank for r in rows} == {1: 1, 2: 2, 3: 3, 4: 3}
    with django_capture_on_commit_callbacks(execute=True):
        tiebreak_record_playoff(actor=organizer, tournament=tournament, order=[4, 3])
    rows = [r for r in standings_rows(tournament) if r.points]
    assert [(r.rank, r.start_number) for r in rows][2:] == [(3, 4), (4, 3)]


def test_ladies_keep_their_overall_place_and_teams_sum(
    tournament, series_with_three, referee, referee2
):
    from tournament.models import Entry, Team
    from tournament.standings.selectors import ladies_rows, team_rows

    t1 = Table.objects.get(series=series_with_three, number=1)
    confirm_all(t1, FIVE, referee, referee2)
    lady = Entry.objects.get(tournament=tournament, start_number=2)
    lady.player.category = "ladies"
    lady.player.save()
    team = Team.objects.create(tournament=tournament, name="Asse")
    Entry.objects.filter(start_number__in=[1, 3]).update(team=team)
    from django.core.cache import cache

    cache.clear()
    rows = standings_rows(tournament)
    assert [(r.rank, r.start_number) for r in ladies_rows(rows)] == [(2, 2)]
    assert [(t.rank, t.name, t.points) for t in team_rows(tournament, rows)] == [
        (1, "Asse", 26 + 9)
    ]


def test_two_winners_in_the_form_are_refused(client, tournament, table, referee):
    client.force_login(referee)
    url = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    data = quick_form(FIVE, revision=0)
    data["g1_winner"] = ["1", "2"]
    response = client.post(url, data)
    assert "zwei gewinner" in response.content.decode().lower()
    assert not ResultVersion.objects.exists()


def test_referee_screen_enters_and_another_confirms(
    client, tournament, table, referee, referee2
):
    client.force_login(referee)
    url = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    page = client.get(url).content.decode()
    assert "Spiel 5" in page
    data = quick_form(FIVE, revision=0)
    response = client.post(url, data, follow=True)
    assert "zweite Person" in response.content.decode()
    page = client.get(url).content.decode()
    assert "muss eine zweite Person bestätigen" in page
    client.force_login(referee2)
    page = client.get(url).content.decode()
    assert "bestätigen" in page
    table.refresh_from_db()
    confirm = reverse(
        "tournament:result_confirm",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    client.post(confirm, {"version": 1, "revision": table.result_revision})
    assert ResultVersion.objects.get().status == "confirmed"
    standings = client.get(
        reverse("tournament:standings", kwargs={"slug": tournament.slug})
    )
    assert "26" in standings.content.decode()


def test_result_pages_are_for_referees_only(client, tournament, table):
    url = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    assert client.get(url).status_code == 302
    client.force_login(make_user("zuschauer"))
    assert client.get(url).status_code == 403


def test_public_pages_show_only_confirmed_unless_provisional(
    client, tournament, table, referee, organizer, django_capture_on_commit_callbacks
):
    enter(table, referee)
    url = reverse(
        "tournament:series_results", kwargs={"slug": tournament.slug, "number": 1}
    )
    assert "vorläufig" not in client.get(url).content.decode()
    tournament.show_provisional = True
    with django_capture_on_commit_callbacks(execute=True):
        tournament_save(actor=organizer, tournament=tournament, created=False)
    assert "vorläufig" in client.get(url).content.decode()


def test_standings_json_and_api(client, tournament, table, referee, referee2):
    confirm_all(table, FIVE, referee, referee2)
    data = client.get(f"/api/t/{tournament.slug}/standings/").json()
    first = data["rows"][0]
    assert first == {
        "rank": 1,
        "start_number": 1,
        "name": first["name"],
        "category": "open",
        "points": 26,
        "games_won": 2,
        "series_points": [26, None, None, None, None],
        "withdrawn": False,
        "withdrawn_after": None,
    }
    player = client.get(f"/api/t/{tournament.slug}/players/1/").json()
    assert player["series"][0]["opponents"] == [2, 3, 4]
    assert client.get(f"/api/t/{tournament.slug}/series/1/").json()["tables"][0][
        "confirmed"
    ]


@pytest.mark.parametrize("players", [40, 2000])
def test_standings_queries_do_not_grow_with_the_field(
    client, django_assert_max_num_queries, tournament, players
):
    from tournament.models import Entry, Person, Player

    persons = Person.objects.bulk_create(
        Person(first_name="P", last_name=f"N{i}") for i in range(players)
    )
    Player.objects.bulk_create(
        Player(first_name="P", last_name=f"N{i}", person=persons[i])
        for i in range(players)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=i + 1)
        for i, p in enumerate(Player.objects.all())
    )
    from django.core.cache import cache

    cache.clear()
    with django_assert_max_num_queries(10):
        response = client.get(
            reverse("tournament:standings", kwargs={"slug": tournament.slug})
        )
    assert response.status_code == 200
    cache.clear()
    with django_assert_max_num_queries(10):
        client.get(f"/api/t/{tournament.slug}/standings/")


def test_games_won_key_orders_equal_totals_when_switched_on(
    tournament, series_with_three, referee, referee2
):
    t1 = Table.objects.get(series=series_with_three, number=1)
    # Seat 1: 8 + 8 + 8 = 24 from three wins; seat 2: 10 + 14 = 24 from two.
    wins = [(1, 1), (1, 1), (1, 1), (2, 3), (2, 7)]
    confirm_all(t1, [GameInput(winner=w, marks=m) for w, m in wins], referee, referee2)
    rows = {r.start_number: r.rank for r in standings_rows(tournament)}
    assert rows[1] == rows[2] == 1
    tournament.tiebreak_games_won = True
    tournament.save()
    rows = {r.start_number: r.rank for r in standings_rows(tournament)}
    assert (rows[1], rows[2]) == (1, 2)


def test_lot_is_seeded_and_reproducible(tournament, entries, organizer):
    import random

    tiebreak = tiebreak_draw_lot(
        actor=organizer, tournament=tournament, start_numbers=[3, 1, 2]
    )
    expected = [1, 2, 3]
    random.Random(tiebreak.seed).shuffle(expected)
    assert tiebreak.order == expected
    with pytest.raises(UserError, match="gibt es in diesem Turnier nicht"):
        tiebreak_draw_lot(actor=organizer, tournament=tournament, start_numbers=[1, 99])


def test_a_lots_seed_reads_as_a_code_on_the_tiebreak_page(
    tournament, entries, organizer, organizer_client
):
    tiebreak = tiebreak_draw_lot(
        actor=organizer, tournament=tournament, start_numbers=[3, 1, 2]
    )
    page = organizer_client.get(
        reverse("tournament:tiebreaks", args=[tournament.slug])
    ).content.decode()
    grouped = " ".join(tiebreak.seed[i : i + 4] for i in range(0, 16, 4))
    assert "Kennung des Loses" in page and "Startwert" not in page
    assert grouped in page


def test_standings_page_sorts_and_searches(
    client, tournament, series_with_three, referee, referee2
):
    t1 = Table.objects.get(series=series_with_three, number=1)
    confirm_all(t1, FIVE, referee, referee2)
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    html = client.get(url).content.decode()
    assert html.index('id="p1"') < html.index('id="p4"')  # 26 points before 8
    html = client.get(url, {"sort": "points"}).content.decode()
    assert html.index('id="p4"') < html.index('id="p1"')  # ascending
    html = client.get(url, {"q": "2"}).content.decode()
    assert 'id="p2"' in html and 'id="p1"' not in html
