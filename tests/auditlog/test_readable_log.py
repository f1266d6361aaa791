"""The log reads as German sentences (issue 14.9): who did what
("Ergebnis bestätigt") to what ("Serie 1, Tisch 1"), and what changed game
by game, field by field, never as recorded keys or JSON."""

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, TournamentFactory, make_series
from tests.support.results import FIVE, FIVE_PAIRS, confirm, enter, games
from tournament.auditlog.readable import number_ranges, readable_changes
from tournament.auditlog.selectors import audit_events, audit_object_labels
from tournament.core.audit import action_label, action_prefixes, audit_record
from tournament.models import AuditEvent, Table, Team
from tournament.registration import services as registration_services
from tournament.registration.services import PlayerData
from tournament.seating import services as seating_services

pytestmark = pytest.mark.django_db


def page(client, tournament=None, query=""):
    url = (
        reverse("tournament:audit_log", args=[tournament.slug])
        if tournament
        else reverse("tournament:audit_log_all")
    )
    response = client.get(url + query)
    assert response.status_code == 200
    return response.content.decode()


def rows(text):
    """The log's table alone (the filter above lists every action code)."""
    return text[text.index("<table") :]


@pytest.fixture
def corrected(tournament, organizer, referee, referee2):
    """Table 1 of series 1: entered by a referee, confirmed by another,
    corrected by the organizer (game 1 now won by seat 2)."""
    make_series(tournament, sizes=(4, 4))
    table = Table.objects.get(series__tournament=tournament, number=1)
    confirm(enter(table, referee), referee2)
    enter(
        table,
        organizer,
        games([(2, 5), *FIVE_PAIRS[1:]]),
        reason="Tippfehler",
    )
    return table


def test_results_read_as_what_happened_to_which_table(
    organizer_client, tournament, corrected
):
    text = page(organizer_client, tournament)
    for said in ("Ergebnis eingegeben", "Ergebnis bestätigt", "Ergebnis korrigiert"):
        assert said in text, said
    assert "Serie 1, Tisch 1" in text
    assert "Ergebnisversion" not in rows(text) and "result.enter<" not in text
    # The correction, game by game: only game 1 changed.
    assert (
        "<dt>Spiel 1</dt><dd><del>Sitz 1 gewinnt, 5 Schräm übrig · 12 Punkte</del>"
        " → <ins>Sitz 2 gewinnt, 5 Schräm übrig · 12 Punkte</ins></dd>"
    ) in text
    assert "<dt>Spiel 2</dt><dd><del>" not in text
    assert "games." not in text and '"winner"' not in text
    assert "<dd><del>wartet auf Bestätigung</del> → <ins>bestätigt</ins></dd>" in text
    assert "Tippfehler" in text


def test_a_new_result_lists_its_games(tournament, referee):
    make_series(tournament, sizes=(4, 4))
    table = Table.objects.get(series__tournament=tournament, number=2)
    enter(table, referee, FIVE)
    event = AuditEvent.objects.get(action="result.enter")
    lines = readable_changes(
        object_type=event.object_type, before=event.before, after=event.after
    )
    assert [(line.label, line.old, line.new) for line in lines[:2]] == [
        ("Spiel 1", None, "Sitz 1 gewinnt, 5 Schräm übrig · 12 Punkte"),
        ("Spiel 2", None, "Sitz 2 gewinnt, 3 Schräm übrig · 10 Punkte"),
    ]
    assert lines[-1].label == "Status"
    assert audit_object_labels([event]) == {event.pk: "Serie 1, Tisch 2"}


def test_the_subtitle_of_a_tournaments_own_log_names_the_tournament(
    organizer_client, tournament
):
    EntryFactory(tournament=tournament)
    own = page(organizer_client, tournament)
    assert "Jede Änderung an RM Test" in own
    assert "· alle Turniere" not in own
    assert "Protokoll aller Turniere ansehen" in own
    everything = page(organizer_client)
    assert "Jede Änderung in allen Turnieren" in everything


def test_players_seatings_and_teams_read_as_people_name_them(
    organizer_client, organizer, tournament
):
    entries = registration_services.entries_import(
        actor=organizer,
        tournament=tournament,
        rows=[PlayerData(first_name=f"P{n}", last_name="Import") for n in range(8)],
    )
    for entry in entries:
        registration_services.entry_set_checked_in(
            actor=organizer, entry=entry, checked_in=True
        )
    team = registration_services.team_save(
        actor=organizer,
        tournament=tournament,
        team=None,
        name="Daun I",
        members=entries[:3],
    )
    registration_services.team_delete(
        actor=organizer, team=Team.objects.get(pk=team.pk)
    )
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    series = tournament.series.get(number=1)
    series = seating_services.series_seat(actor=organizer, series=series)
    first, second = Table.objects.filter(series=series).order_by("number")
    a, b = first.seats.first().entry, second.seats.first().entry
    seating_services.series_swap(
        actor=organizer, series=series, entry_a=a, entry_b=b, version=series.version
    )
    text = page(organizer_client, tournament)
    assert "Spieler importiert" in text
    assert "<dt>Startnummern</dt><dd><ins>1–8</ins></dd>" in text
    assert "Spieler ist anwesend" in text and "Nr. 1 P0 Import" in text
    assert "Mannschaft gelöscht" in text and "Mannschaft Daun I" in text  # gone
    assert "Serie ausgelost" in text and "<dt>Tisch 2</dt>" in text
    assert "Zwei Spieler getauscht" in text
    assert (
        f"<dt>Nr. {a.start_number}</dt><dd><del>Tisch 1, Sitz 1</del>"
        " → <ins>Tisch 2, Sitz 1</ins></dd>"
    ) in text
    assert "Serie 1" in text
    assert "entry.import" not in rows(text).replace('title="entry.import"', "")


def test_the_actor_is_shown_by_name_and_login(organizer_client, organizer, tournament):
    organizer.first_name, organizer.last_name = "Gisela", "Brück"
    organizer.save()
    EntryFactory(tournament=tournament)
    audit_record(
        actor=organizer,
        action="entry.check_in",
        obj=tournament,
        tournament=tournament,
        after={"checked_in": True},
    )
    assert "Gisela Brück (orga)" in page(organizer_client, tournament)


def test_the_object_names_cost_one_query_per_kind_not_per_row(
    tournament, organizer, referee, referee2, django_assert_num_queries
):
    make_series(tournament, sizes=(4, 4))
    for table in Table.objects.filter(series__tournament=tournament):
        confirm(enter(table, referee), referee2)
    for _ in range(5):
        EntryFactory(tournament=tournament)
    entry = EntryFactory(tournament=tournament)
    for _ in range(10):
        audit_record(
            actor=organizer,
            action="entry.update",
            obj=entry,
            tournament=tournament,
            after={"club": "x"},
        )
    events = list(audit_events(tournament=tournament))
    with django_assert_num_queries(2):  # result versions, players
        labels = audit_object_labels(events)
    assert len(labels) == len(events)


def test_a_series_released_anyway_names_who_was_left_out():
    lines = readable_changes(
        object_type="series",
        before={"status": "seated"},
        after={
            "status": "released",
            "released_anyway": {"not_seated": [41, 42, 43], "seated_but_gone": [7]},
        },
    )
    assert [(line.label, line.new) for line in lines] == [
        ("Status", "veröffentlicht"),
        ("trotzdem veröffentlicht, nicht gesetzt (Startnummern)", "41–43"),
        ("trotzdem veröffentlicht, gesetzt, aber nicht mehr da (Startnummern)", "7"),
    ]


def test_unknown_actions_and_keys_still_show():
    assert action_label("result.confirm") == "Ergebnis bestätigt"
    assert action_label("neu.etwas") == "neu.etwas"
    lines = readable_changes(object_type="job", before=None, after={"zzz": [1, 2]})
    assert [(line.label, line.new) for line in lines] == [("zzz", "1, 2")]


def test_the_action_filter_takes_what_the_log_calls_an_action(
    organizer_client, tournament, corrected
):
    assert action_prefixes("Ergebnis bestätigt") == ("result.confirm",)
    text = page(organizer_client, tournament, "?action=Ergebnis+bestätigt")
    assert "Ergebnis bestätigt" in text and "Ergebnis korrigiert</span>" not in text


def test_start_numbers_read_as_ranges():
    assert number_ranges([1, 2, 3, 4, 7, 9, 10, 11]) == "1–4, 7, 9–11"
    assert number_ranges([5, 6]) == "5, 6"
    assert number_ranges([]) == ""


def test_a_draw_lists_start_numbers_by_the_seatings_table_numbers(
    organizer_client, organizer, tournament
):
    """A draw's entry lists each table as the seating page numbers it, with
    start numbers, never the site's internal ids: other tournaments' players
    come first, so ids and start numbers differ."""
    EntryFactory.create_batch(30, tournament=TournamentFactory())
    for n in range(1, 15):  # 14 players: two tables of four, two of three
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    series = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=1)
    )
    event = AuditEvent.objects.get(action="series.seat")
    lines = readable_changes(
        object_type="series", before=event.before, after=event.after
    )
    tables = [line for line in lines if line.label.startswith("Tisch")]
    expected = [
        (
            f"Tisch {table.number}",
            "Nr. "
            + ", ".join(
                str(seat.entry.start_number) for seat in table.seats.order_by("number")
            ),
        )
        for table in Table.objects.filter(series=series).order_by("number")
    ]
    assert [(line.label, line.new) for line in tables] == expected
    assert [line.new.count(",") for line in tables] == [3, 3, 2, 2]
    text = page(organizer_client, tournament)
    for label, numbers in expected:
        assert f"<dt>{label}</dt><dd><ins>{numbers}</ins></dd>" in text
    # Every number is a start number of this tournament (1-14).
    for line in tables:
        assert all(1 <= int(n) <= 14 for n in line.new[4:].split(", "))
    # Drawn again: the seating it replaced is kept the same way.
    drawn = [line.new for line in tables]
    seating_services.series_seat(actor=organizer, series=series, new_lot=True)
    again = AuditEvent.objects.filter(action="series.seat").latest("id")
    assert [
        "Nr. " + ", ".join(map(str, numbers)) for numbers in again.before["seating"]
    ] == drawn


def test_an_older_draws_record_names_its_numbers_internal_in_table_order():
    """Recorded before start numbers were: the plan's tables of entry ids in
    the plan's order. Shown in the order they were numbered (fours first),
    and not passed off as start numbers."""
    lines = readable_changes(
        object_type="series",
        before={"status": "draft", "tables": []},
        after={"status": "seated", "tables": [[82, 92, 93], [87, 94, 83, 81]]},
    )
    assert [(line.label, line.new) for line in lines[:2]] == [
        ("Tisch 1", "interne Nr. 87, 94, 83, 81"),
        ("Tisch 2", "interne Nr. 82, 92, 93"),
    ]


def test_the_draws_seed_reads_as_a_code_in_groups_of_four():
    lines = readable_changes(
        object_type="series",
        before={"status": "draft"},
        after={"status": "seated", "seed": "2b88342a85aea902"},
    )
    assert ("Kennung der Auslosung", "2b88 342a 85ae a902") in [
        (line.label, line.new) for line in lines
    ]
