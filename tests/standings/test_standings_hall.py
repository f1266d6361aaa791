"""The standings a hall reads: who has played is ranked, who is present
without a result stands apart, shared places follow start numbers (never
names), the ladies get their own places, and the page says where the day
stands."""

import json
import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, TeamFactory, make_series
from tests.support.results import games
from tournament.models import Entry, Table
from tournament.results.services import result_enter
from tournament.standings.selectors import (
    ladies_rows,
    ladies_standings,
    standings,
    standings_rows,
)

pytestmark = pytest.mark.django_db

# Seat 1 wins every game with 7 marks (5 × 14 = 70), the others score 0.
SEAT_ONE = [(1, 7)] * 5
# Seats 1 and 2 win two games each with 1 mark (16 each), seat 3 one (8).
TIE = [(1, 1), (2, 1), (1, 1), (2, 1), (3, 1)]


@pytest.fixture
def play(organizer, django_capture_on_commit_callbacks):
    """Confirm a table's games, as the organizer's quick entry does; the
    standings hear of it once it commits."""

    def confirmed(series, number, pairs):
        table = Table.objects.get(series=series, number=number)
        with django_capture_on_commit_callbacks(execute=True):
            result_enter(
                actor=organizer,
                table=table,
                games=games(pairs),
                mode="quick",
                revision=table.result_revision,
                auto_confirm=True,
            )

    return confirmed


def names_by_start_number(tournament, names):
    """Entries 1.. with these last names (checked in, one club each)."""
    return [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name="Vorname",
            player__last_name=name,
            player__club=f"Club {n}",
        )
        for n, name in enumerate(names, 1)
    ]


def page_text(client, url, **params):
    html = client.get(url, params).content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def day(tournament, play):
    """Series 1 released: tables 1 (start numbers 1-4) and 2 (5-8), all
    present; table 1 confirmed (tied totals, names against the numbers).
    9 is present but not seated (came late), 10 never checked in, 11 was
    withdrawn before playing."""
    entries = names_by_start_number(
        tournament, ["Zander", "Young", "Xaver", "Weber", "Vogt", "Ulm", "Thiel"]
    )
    entries.append(EntryFactory(tournament=tournament, start_number=8, checked_in=True))
    series = make_series(tournament, sizes=(4, 4), entries=entries)
    play(series, 1, TIE)
    EntryFactory(tournament=tournament, start_number=9, checked_in=True)
    EntryFactory(tournament=tournament, start_number=10, checked_in=False)
    EntryFactory(
        tournament=tournament,
        start_number=11,
        checked_in=True,
        withdrawn_at="2026-12-05T09:00:00+01:00",
        withdrawal_reason="krank",
    )
    return series


def test_only_players_with_a_confirmed_result_are_ranked(tournament, day):
    current = standings(tournament)
    assert [(r.rank, r.start_number, r.points) for r in current.rows] == [
        (1, 1, 16),
        (1, 2, 16),
        (3, 3, 8),
        (4, 4, 0),  # played and scored nothing: ranked
    ]
    # Present without a result: seated at an open table, or not seated.
    assert [r.start_number for r in current.waiting] == [5, 6, 7, 8, 9]
    # Neither here nor played (a no-show, a withdrawal): left out.
    shown = {r.start_number for r in current.rows + current.waiting}
    assert not shown & {10, 11}


def test_shared_places_follow_start_numbers_never_names(tournament, play):
    entries = names_by_start_number(tournament, ["Zander", "Anders", "Mertes", "Bach"])
    series = make_series(tournament, sizes=(4,), entries=entries)
    # Seats 1 and 2 (Zander, Anders) tie on 16: Zander (1) before Anders (2),
    # although "Anders" comes first A–Z.
    play(series, 1, TIE)
    assert [(r.rank, r.name) for r in standings_rows(tournament)][:2] == [
        (1, "Vorname Zander"),
        (1, "Vorname Anders"),
    ]


def test_tie_keys_still_decide_when_switched_on(tournament, play):
    entries = names_by_start_number(tournament, ["Anders", "Bach", "Clemens", "Dorn"])
    series = make_series(tournament, sizes=(4,), entries=entries)
    # 24 points each: seat 2 from three wins (8 + 8 + 8), seat 1 from two
    # (10 + 14).
    play(series, 1, [(2, 1), (2, 1), (2, 1), (1, 3), (1, 7)])
    ranks = [(r.rank, r.start_number) for r in standings_rows(tournament)]
    assert ranks[:2] == [(1, 1), (1, 2)]  # shared, by start number
    tournament.tiebreak_games_won = True
    tournament.save()
    ranks = [(r.rank, r.start_number) for r in standings_rows(tournament)]
    assert ranks[:2] == [(1, 2), (2, 1)]  # more games won


def test_the_page_shows_who_waits_for_a_result_apart(client, tournament, day):
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    html = client.get(url).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert "Noch ohne Ergebnis (5)" in text
    assert '<tr id="p9" class="waiting"><td class="num">–</td>' in html
    assert 'id="p10"' not in html and 'id="p11"' not in html
    assert "Gleiche Punktzahl = gleicher Platz." in text
    assert "Innerhalb eines Platzes nach Startnummer." in text
    # Found by the search, umlauts and all; and explained when nobody is.
    assert "Vorname Xaver" in page_text(client, url, q="xaver")
    nobody = page_text(client, url, q="Jöbges")
    assert "Niemand gefunden für „Jöbges“" in nobody


def test_the_state_of_the_day_stands_above_the_standings(client, tournament, day, play):
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    assert "Stand nach Serie 1 · 1 von 2 Tischen bestätigt" in page_text(client, url)
    entries = list(Entry.objects.filter(start_number__lte=8).order_by("-start_number"))
    second = make_series(tournament, sizes=(4, 4), number=2, entries=entries)
    play(second, 1, SEAT_ONE)
    text = page_text(client, url)
    assert "Stand nach Serie 2 · 1 von 2 Tischen bestätigt" in text
    assert "in Serie 1 fehlt noch 1 Tisch" in text
    projector = reverse("tournament:projector", kwargs={"slug": tournament.slug})
    assert "Stand nach Serie 2" in page_text(client, projector)


def test_the_last_table_makes_the_final_standings(client, tournament, play):
    tournament.series_count = 1
    tournament.save()
    entries = names_by_start_number(tournament, ["A", "B", "C", "D", "E", "F", "G"])
    series = make_series(tournament, sizes=(4, 3), entries=entries)
    play(series, 1, SEAT_ONE)
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    assert "1 von 2 Tischen bestätigt" in page_text(client, url)
    play(series, 2, SEAT_ONE)
    text = page_text(client, url)
    assert "Endstand nach 1 Serie · alle Tische bestätigt" in text
    assert standings(tournament).state.final


def test_the_ladies_get_their_own_places_with_the_overall_one_beside(
    client, tournament, play
):
    entries = names_by_start_number(tournament, ["A", "B", "C", "D"])
    for entry in entries[1:]:
        entry.player.category = "ladies"
        entry.player.save()
    series = make_series(tournament, sizes=(4,), entries=entries)
    # Overall: 1 (A) 16, 2 (B) 16, 3 (C) 8, 4 (D) 0.
    play(series, 1, TIE)
    rows = standings_rows(tournament)
    ladies = ladies_standings(rows)
    assert [(r.rank, r.overall_rank, r.start_number) for r in ladies] == [
        (1, 1, 2),
        (2, 3, 3),
        (3, 4, 4),
    ]
    # The overall rows are not touched (they are cached), and the filter
    # that keeps the overall place is still there for documents.
    assert [r.rank for r in ladies_rows(rows)] == [1, 3, 4]
    url = reverse("tournament:standings_ladies", kwargs={"slug": tournament.slug})
    html = client.get(url).content.decode()
    assert '<tr id="p3"><td class="num">2</td><td class="num muted">3</td>' in html
    assert re.search(r"<th[^>]*>\s*Gesamt\s*</th>", html)


def test_ladies_sharing_an_overall_place_share_their_own(tournament, play):
    entries = names_by_start_number(tournament, ["A", "B", "C", "D"])
    for entry in entries[:2]:
        entry.player.category = "ladies"
        entry.player.save()
    series = make_series(tournament, sizes=(4,), entries=entries)
    play(series, 1, TIE)
    ladies = ladies_standings(standings_rows(tournament))
    assert [(r.rank, r.overall_rank) for r in ladies] == [(1, 1), (1, 1)]


def test_teams_name_every_member_with_or_without_a_result(client, tournament, day):
    team = TeamFactory(tournament=tournament, name="Asse")
    Entry.objects.filter(start_number__in=[1, 9]).update(team=team)
    url = reverse("tournament:standings_teams", kwargs={"slug": tournament.slug})
    text = page_text(client, url)
    nine = Entry.objects.get(start_number=9).player.full_name
    assert f"Vorname Zander, {nine}" in text and "16" in text


def test_the_json_api_keeps_its_rows_and_adds_the_state(client, tournament, day):
    url = reverse("tournament:api_standings", kwargs={"slug": tournament.slug})
    body = json.loads(client.get(url).content)
    assert list(body) == ["rows", "state"]
    fields = ["rank", "start_number", "name", "points", "games_won", "series_points"]
    fields += ["withdrawn", "withdrawn_after"]
    fields.append("category")  # added: the registration's category
    assert all(sorted(r) == sorted(fields) for r in body["rows"])
    # The ranked players only: one without a confirmed result has no place
    # (tests/standings/test_api_played.py).
    assert [(r["rank"], r["start_number"]) for r in body["rows"]] == [
        (1, 1),
        (1, 2),
        (3, 3),
        (4, 4),
    ]
    assert body["state"] == {
        "after_series": 1,
        "tables_confirmed": 1,
        "tables": 2,
        "series": 5,
        "final": False,
    }
    waiting = reverse(
        "tournament:api_player", kwargs={"slug": tournament.slug, "number": 9}
    )
    assert json.loads(client.get(waiting).content)["standing"]["rank"] == 0


def test_a_player_without_a_result_is_told_so_on_his_page(client, tournament, day):
    url = reverse("tournament:player", kwargs={"slug": tournament.slug, "number": 5})
    assert "Noch nicht in der Tabelle: noch kein bestätigtes Ergebnis" in page_text(
        client, url
    )


def test_a_cold_standings_page_reads_in_a_constant_number_of_queries(
    client, tournament, day, django_assert_max_num_queries
):
    for n in range(12, 80):
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    with django_assert_max_num_queries(6):
        assert client.get(url).status_code == 200


def test_a_check_in_reaches_the_standings_at_once(
    client, organizer, tournament, day, django_capture_on_commit_callbacks
):
    from tournament.registration.services import entry_set_checked_in

    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    assert "Noch ohne Ergebnis (5)" in page_text(client, url)  # cached now
    late = Entry.objects.get(tournament=tournament, start_number=10)
    with django_capture_on_commit_callbacks(execute=True):
        entry_set_checked_in(actor=organizer, entry=late, checked_in=True)
    assert "Noch ohne Ergebnis (6)" in page_text(client, url)


def test_a_cold_public_page_reads_its_tournament_once(client, tournament, day):
    """The live state reads the tournament's row when nothing is known of
    it; the view takes that row instead of reading it again."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for name in ("tournament:standings", "tournament:api_standings"):
        cache.clear()
        url = reverse(name, kwargs={"slug": tournament.slug})
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        reads = [
            q["sql"]
            for q in ctx.captured_queries
            if q["sql"].startswith('SELECT "tournament_tournament"."id"')
        ]
        assert len(reads) == 1, (name, reads)
