"""The seating in the hall: late arrivals are never left out silently, the
quality report says where, the swap names both players, and "Wo sitze
ich?" finds players however their names are typed."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, make_series
from tournament.core.errors import UserError
from tournament.models import AuditEvent, Entry, Seat, Series
from tournament.registration import services as registration_services
from tournament.seating import adapter, selectors
from tournament.seating import services as seating_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(tournament):
    """16 players present at the desk, series rows created."""
    entries = [
        EntryFactory(
            tournament=tournament, start_number=n, checked_in=True, player__club=""
        )
        for n in range(1, 17)
    ]
    seating_services.series_ensure(tournament=tournament)
    return entries


def first_series(tournament):
    return Series.objects.get(tournament=tournament, number=1)


def manage_url(tournament, number=1):
    return reverse(
        "tournament:series_manage", kwargs={"slug": tournament.slug, "number": number}
    )


def text_of(response):
    return text_of_html(response.content.decode())


def text_of_html(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def late_arrival(tournament, organizer, first="Spät", last="Kommer"):
    entry = registration_services.entry_register(
        actor=organizer,
        tournament=tournament,
        data=registration_services.PlayerData(first_name=first, last_name=last),
    )
    return registration_services.entry_set_checked_in(
        actor=organizer, entry=entry, checked_in=True
    )


# --- Item 12: a late arrival or a withdrawal after the draw ----------------


def test_a_late_arrival_is_named_and_the_release_refused(
    organizer_client, organizer, tournament, field
):
    series = seating_services.series_seat(
        actor=organizer, series=first_series(tournament)
    )
    late = late_arrival(tournament, organizer)
    page = text_of(organizer_client.get(manage_url(tournament)))
    assert "Seit der Auslosung hat sich das Feld geändert" in page
    assert "Spät Kommer (Nr. 17)" in page
    assert "würde in dieser Serie nicht spielen" in page

    with pytest.raises(UserError, match=r"Spät Kommer \(Nr\. 17\)") as refused:
        seating_services.series_release(actor=organizer, series=series)
    assert refused.value.code == "field_changed"
    release = reverse(
        "tournament:series_release", kwargs={"slug": tournament.slug, "number": 1}
    )
    response = organizer_client.post(release, {"version": series.version}, follow=True)
    assert "Anwesend, aber nicht gesetzt: Spät Kommer (Nr. 17)" in text_of(response)
    assert first_series(tournament).status == "seated"
    assert late.pk not in Seat.objects.filter(series=series).values_list(
        "entry", flat=True
    )


def test_drawing_again_seats_the_late_arrival_and_releases(
    organizer, tournament, field
):
    seating_services.series_seat(actor=organizer, series=first_series(tournament))
    late = late_arrival(tournament, organizer)
    series = seating_services.series_seat(
        actor=organizer, series=first_series(tournament), new_lot=True
    )
    assert Seat.objects.filter(series=series, entry=late).exists()
    assert selectors.field_changes(series) == {"late": [], "gone": []}
    series = seating_services.series_release(actor=organizer, series=series)
    assert series.status == "released"


def test_releasing_anyway_needs_a_reason_and_the_audit_keeps_it(
    organizer_client, organizer, tournament, field
):
    series = seating_services.series_seat(
        actor=organizer, series=first_series(tournament)
    )
    late_arrival(tournament, organizer)
    release = reverse(
        "tournament:series_release", kwargs={"slug": tournament.slug, "number": 1}
    )
    organizer_client.post(release, {"version": series.version, "reason": "   "})
    assert first_series(tournament).status == "seated"
    organizer_client.post(
        release, {"version": series.version, "reason": "Spielt ab Serie 2"}
    )
    assert first_series(tournament).status == "released"
    event = AuditEvent.objects.get(action="series.release")
    assert event.note == "Spielt ab Serie 2"
    assert event.actor == organizer
    assert event.after["released_anyway"] == {
        "not_seated": [17],
        "seated_but_gone": [],
    }


def test_a_withdrawal_after_the_draw_is_named_too(
    organizer_client, organizer, tournament, field
):
    series = seating_services.series_seat(
        actor=organizer, series=first_series(tournament)
    )
    registration_services.entry_withdraw(
        actor=organizer, entry=field[4], reason="krank"
    )
    registration_services.entry_set_checked_in(
        actor=organizer, entry=field[6], checked_in=False
    )
    changes = selectors.field_changes(series)
    assert changes["late"] == []
    assert [e.start_number for e in changes["gone"]] == [5, 7]
    page = text_of(organizer_client.get(manage_url(tournament)))
    name5, name7 = (field[i].player.full_name for i in (4, 6))
    assert f"{name5} (Nr. 5, abgemeldet)" in page
    assert f"{name7} (Nr. 7, nicht mehr anwesend)" in page
    with pytest.raises(UserError, match="Gesetzt, aber abgemeldet"):
        seating_services.series_release(actor=organizer, series=series)


def test_an_unchanged_field_releases_without_a_word(
    organizer_client, organizer, tournament, field
):
    seating_services.series_seat(actor=organizer, series=first_series(tournament))
    page = organizer_client.get(manage_url(tournament)).content.decode()
    assert "Feld geändert" not in page and ">Veröffentlichen</button>" in page
    event_count = AuditEvent.objects.count()
    series = seating_services.series_release(
        actor=organizer, series=first_series(tournament)
    )
    event = AuditEvent.objects.order_by("id")[event_count]
    assert series.status == "released" and "released_anyway" not in event.after


def test_a_late_arrival_in_a_released_series_waits_for_the_next_draw(
    organizer_client, organizer, tournament, field
):
    series = seating_services.series_seat(
        actor=organizer, series=first_series(tournament)
    )
    seating_services.series_release(actor=organizer, series=series)
    late_arrival(tournament, organizer)
    page = text_of(organizer_client.get(manage_url(tournament)))
    assert "Nach der Veröffentlichung eingecheckt" in page
    assert "Spät Kommer (Nr. 17) – an einem Dreiertisch mitspielen oder aussetzen" in (
        page
    )
    assert "Wer diese Serie aussetzt, wird von der nächsten Auslosung gesetzt" in page
    second = seating_services.series_seat(
        actor=organizer, series=Series.objects.get(tournament=tournament, number=2)
    )
    assert Seat.objects.filter(series=second).count() == 17


# --- Item 13: the quality report says where ---------------------------------


@pytest.fixture
def twice_the_same(tournament):
    """Seven players seated the same way in series 1 and 2: table 2 (of
    three) holds start numbers 5-7 both times; 1 and 2 are club mates."""
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=f"Vorname{n}",
            player__last_name=f"Name{n}",
            player__club="KSC Mayen" if n in (1, 2) else f"Club {n}",
        )
        for n in range(1, 8)
    ]
    first = make_series(tournament, sizes=(4, 3), entries=entries)
    second = make_series(
        tournament, sizes=(4, 3), number=2, status="seated", entries=entries
    )
    second.seed = "c0ffee"
    second.quality = adapter.seating_quality(
        [adapter.stored_series(first), adapter.stored_series(second)], entries
    )
    second.save()
    return second


def test_the_report_names_tables_club_mates_and_third_tables_of_three(
    tournament, twice_the_same
):
    tables = selectors.series_tables(twice_the_same)
    report = selectors.seating_report(twice_the_same, tables)
    assert report["club_tables"] == [
        {
            "table": 1,
            "clubs": [
                {"club": "KSC Mayen", "names": ["Vorname1 Name1", "Vorname2 Name2"]}
            ],
        }
    ]
    # 6 seats at tables of three among 7 players: once each is possible.
    assert [(p["table"], p["name"], p["times"]) for p in report["three_again"]] == [
        (2, "Vorname5 Name5", 2),
        (2, "Vorname6 Name6", 2),
        (2, "Vorname7 Name7", 2),
    ]
    assert len(report["repeats"]) == 6 + 3  # every pair of both tables again
    assert {"table": 2, "names": ["Vorname5 Name5", "Vorname6 Name6"], "times": 2} in (
        report["repeats"]
    )


def test_the_page_says_where_and_leaves_the_seed_to_the_protokoll(
    organizer_client, tournament, twice_the_same
):
    html = organizer_client.get(manage_url(tournament, 2)).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert "Wiederholte Begegnungen 9" in text
    assert "Vereinskameraden am selben Tisch an 1 Tisch" in text
    assert "Tisch 1: Vorname1 Name1, Vorname2 Name2 (KSC Mayen)" in text
    assert "Tisch 2: Vorname7 Name7 (2. Mal am Dreiertisch)" in text
    assert "Tisch 2: Vorname5 Name5 und Vorname6 Name6 (2. Begegnung)" in text
    details = html[html.index('<details class="quality-details">') :]
    details = details[: details.index("</details>")]
    # The seed is a code for the record, no figure a volunteer acts on.
    assert "c0ffee" not in html and "Startwert" not in html
    assert "steht mit ihrer Kennung im Protokoll" in details
    assert "Grenze" not in text  # the engine's word, not the hall's


# --- Item 13: the swap names both players, never within one table ---------


def test_the_swap_names_both_players_before_anything_changes(
    organizer_client, tournament, twice_the_same
):
    page = text_of(organizer_client.get(manage_url(tournament, 2), {"a": 1, "b": 5}))
    assert "Diese beiden tauschen die Sitze" in page
    assert "Vorname1 Name1 (Nr. 1): Tisch 1, Sitz 1 → Tisch 2, Sitz 1" in page
    assert "Vorname5 Name5 (Nr. 5): Tisch 2, Sitz 1 → Tisch 1, Sitz 1" in page
    assert "Vorname1 Name1 und Vorname5 Name5 tauschen" in page
    assert (
        Seat.objects.get(series=twice_the_same, entry__start_number=1).table.number == 1
    )
    swap = reverse(
        "tournament:series_swap", kwargs={"slug": tournament.slug, "number": 2}
    )
    response = organizer_client.post(
        swap, {"version": twice_the_same.version, "a": 1, "b": 5}, follow=True
    )
    assert "Vorname1 Name1 und Vorname5 Name5 haben die Sitze getauscht" in (
        text_of(response)
    )
    assert (
        Seat.objects.get(series=twice_the_same, entry__start_number=1).table.number == 2
    )


def test_a_previewed_swap_holds_back_release_and_redraw_until_decided(
    organizer_client, organizer, tournament
):
    """While a swap waits for its yes or no, the page offers nothing else to
    do to the series: no "Veröffentlichen", no redraw, not even the field
    change's "Trotzdem veröffentlichen" (it would drop the swap unsaid)."""
    for n in range(1, 9):
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    seating_services.series_ensure(tournament=tournament)
    series = seating_services.series_seat(
        actor=organizer, series=first_series(tournament)
    )
    first, second = series.tables.order_by("number")
    a, b = first.seats.first().entry, second.seats.first().entry
    release = reverse(
        "tournament:series_release", kwargs={"slug": tournament.slug, "number": 1}
    )
    seat = reverse(
        "tournament:series_seat", kwargs={"slug": tournament.slug, "number": 1}
    )
    plain = organizer_client.get(manage_url(tournament)).content.decode()
    assert f'action="{release}"' in plain and f'action="{seat}"' in plain
    query = {"a": a.start_number, "b": b.start_number}
    html = organizer_client.get(manage_url(tournament), query).content.decode()
    assert "Diese beiden tauschen die Sitze" in html
    assert f'action="{release}"' not in html and f'action="{seat}"' not in html
    name_a, name_b = a.player.full_name, b.player.full_name
    assert (
        f"Erst den Tausch von {name_a} und {name_b} bestätigen oder abbrechen"
        in text_of_html(html)
    )
    # The same with a late arrival's notice above it.
    late_arrival(tournament, organizer)
    html = organizer_client.get(manage_url(tournament), query).content.decode()
    assert "Seit der Auslosung hat sich das Feld geändert" in html
    assert f'action="{release}"' not in html and f'action="{seat}"' not in html


def test_a_swap_within_one_table_is_refused(
    organizer_client, organizer, tournament, twice_the_same
):
    page = text_of(organizer_client.get(manage_url(tournament, 2), {"a": 1, "b": 3}))
    assert "Vorname1 Name1 und Vorname3 Name3 sitzen beide an Tisch 1" in page
    assert "tauschen die Sitze" not in page
    a, b = (Entry.objects.get(start_number=n) for n in (1, 3))
    with pytest.raises(UserError, match="sitzen beide an Tisch 1") as refused:
        seating_services.series_swap(
            actor=organizer,
            series=twice_the_same,
            entry_a=a,
            entry_b=b,
            version=twice_the_same.version,
        )
    assert refused.value.code == "same_table"
    assert not AuditEvent.objects.filter(action="series.swap").exists()


def test_the_swap_preview_explains_numbers_it_cannot_swap(
    organizer_client, tournament, twice_the_same
):
    page = text_of(organizer_client.get(manage_url(tournament, 2), {"a": 1, "b": 99}))
    assert "Startnummer 99 sitzt nicht in Serie 2" in page
    page = text_of(organizer_client.get(manage_url(tournament, 2), {"a": 1, "b": 1}))
    assert "Bitte zwei verschiedene Spieler wählen" in page


# --- Item 14: "Wo sitze ich?" -----------------------------------------------


@pytest.fixture
def hall(tournament):
    """Series 1 released: table 1 of four (Jöbges at seat 4), table 2 of
    three (Weißgerber at seat 3)."""
    names = ["Anna Thelen", "Hubert Mertes", "Gerda Lenz", "Karl Jöbges"]
    names += ["Maria Schmitz", "Paul Klein", "Bernd Weißgerber"]
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__first_name=name.split()[0],
            player__last_name=name.split()[1],
        )
        for n, name in enumerate(names, 1)
    ]
    return make_series(tournament, sizes=(4, 3), entries=entries)


def where(client, tournament, query=None):
    url = reverse("tournament:where", kwargs={"slug": tournament.slug})
    return text_of(client.get(url, {} if query is None else {"q": query}))


@pytest.mark.parametrize("query", ["joebges", "jobges", "JÖBGES", "Karl Jöbges", "4"])
def test_where_finds_a_player_however_the_name_is_typed(client, hall, query):
    page = where(client, hall.tournament, query)
    assert "4 · Karl Jöbges" in page
    assert "Serie 1: Tisch 1 , Sitz 4" in page


def test_the_highest_seat_is_told_to_deal_first_and_keep_the_sheet(client, hall):
    tournament = hall.tournament
    dealer = "Sie geben zuerst und führen die Spielliste."
    assert dealer in where(client, tournament, "Jöbges")  # seat 4 of 4
    assert dealer in where(client, tournament, "Weissgerber")  # seat 3 of 3
    assert dealer not in where(client, tournament, "Thelen")  # seat 1
    assert dealer not in where(client, tournament, "Schmitz")  # seat 1 of 3


def test_an_empty_search_explains_itself(client, hall):
    for page in (where(client, hall.tournament), where(client, hall.tournament, " ")):
        assert "Namen (oder einen Teil davon) oder die Startnummer eingeben" in page
    page = where(client, hall.tournament, "Xaver")
    assert "Niemand gefunden für „Xaver“" in page
    assert "die Startnummer" in page


def test_where_reads_in_a_constant_number_of_queries(hall, django_assert_num_queries):
    for n in range(8, 60):
        EntryFactory(
            tournament=hall.tournament, start_number=n, player__last_name=f"Gast{n}"
        )
    with django_assert_num_queries(3):  # names, entries, seats
        found = selectors.seat_search(hall.tournament, "weissgerber")
    assert [r["entry"].start_number for r in found["results"]] == [7]


def test_a_player_left_out_of_a_released_series_is_sent_to_the_desk(client, hall):
    late = EntryFactory(
        tournament=hall.tournament,
        start_number=8,
        checked_in=True,
        player__last_name="Spätkommer",
    )
    page = where(client, hall.tournament, late.player.last_name)
    assert "In keiner veröffentlichten Serie gesetzt" in page
    assert "bei der Turnierleitung melden" in page
