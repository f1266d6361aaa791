"""The site's seating flow: draft → seated → released, swaps, re-seating."""

import itertools
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.support.factories import EntryFactory
from tournament.core.errors import ConflictError, UserError
from tournament.models import Entry, Seat, Series, Tournament
from tournament.registration import services as registration_services
from tournament.seating import services as seating_services

pytestmark = pytest.mark.django_db


def meetings(tournament):
    pairs = {}
    for series in Series.objects.filter(tournament=tournament).exclude(status="draft"):
        for table in series.tables.all():
            ids = sorted(table.seats.values_list("entry_id", flat=True))
            for pair in itertools.combinations(ids, 2):
                pairs[pair] = pairs.get(pair, 0) + 1
    return pairs


@pytest.fixture
def field(tournament):
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__club="",
        )
        for n in range(1, 23)
    ]
    seating_services.series_ensure(tournament=tournament)
    return entries


def series(tournament, number):
    return Series.objects.get(tournament=tournament, number=number)


def test_seat_release_and_seat_all_five_without_a_repeat(tournament, field, organizer):
    for number in range(1, 6):
        s = seating_services.series_seat(
            actor=organizer, series=series(tournament, number)
        )
        assert s.status == "seated"
        sizes = sorted(s.tables.values_list("size", flat=True))
        assert sizes == [3, 3] + [4] * 4  # 22 = 4·4 + 2·3
        assert Seat.objects.filter(series=s).count() == 22
        seating_services.series_release(actor=organizer, series=s)
    assert max(meetings(tournament).values()) == 1
    quality = series(tournament, 5).quality
    assert quality["repeated_meetings"] == 0


def test_series_must_be_seated_in_order(tournament, field, organizer):
    with pytest.raises(UserError, match="vorherigen Serien"):
        seating_services.series_seat(actor=organizer, series=series(tournament, 2))


def test_released_series_cannot_be_reseated(tournament, field, organizer):
    s = seating_services.series_seat(actor=organizer, series=series(tournament, 1))
    seating_services.series_release(actor=organizer, series=s)
    with pytest.raises(UserError, match="schon veröffentlicht"):
        seating_services.series_seat(actor=organizer, series=s, new_lot=True)


def test_new_lot_changes_the_seating_and_the_seed(tournament, field, organizer):
    s = seating_services.series_seat(actor=organizer, series=series(tournament, 1))
    first = (
        s.seed,
        sorted(
            Seat.objects.filter(series=s).values_list(
                "table__number", "number", "entry_id"
            )
        ),
    )
    s = seating_services.series_seat(actor=organizer, series=s, new_lot=True)
    second = (
        s.seed,
        sorted(
            Seat.objects.filter(series=s).values_list(
                "table__number", "number", "entry_id"
            )
        ),
    )
    assert first[0] != second[0] and first[1] != second[1]


def test_swap_reports_a_repeat_and_a_stale_version_is_refused(
    tournament, field, organizer
):
    s1 = seating_services.series_seat(actor=organizer, series=series(tournament, 1))
    seating_services.series_release(actor=organizer, series=s1)
    s2 = seating_services.series_seat(actor=organizer, series=series(tournament, 2))
    # Put two players who met in series 1 together in series 2.
    t1 = s1.tables.get(number=1)
    a, b = [seat.entry for seat in t1.seats.order_by("number")[:2]]
    b_table = Seat.objects.get(series=s2, entry=b).table
    partner = Seat.objects.filter(table=b_table).exclude(entry=b).first().entry
    s2 = seating_services.series_swap(
        actor=organizer, series=s2, entry_a=a, entry_b=partner, version=s2.version
    )
    assert s2.quality["repeated_meetings"] >= 1
    with pytest.raises(ConflictError):
        seating_services.series_swap(
            actor=organizer, series=s2, entry_a=a, entry_b=partner, version=0
        )


def test_withdrawal_reseats_later_series_without_repeats(tournament, field, organizer):
    # 40 players: re-seating a field this size always reaches no repeat (in
    # tight fields of 15-24 it cannot always; see tournament/seating).
    for n in range(23, 41):
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    s1 = seating_services.series_seat(actor=organizer, series=series(tournament, 1))
    seating_services.series_release(actor=organizer, series=s1)
    s2 = seating_services.series_seat(actor=organizer, series=series(tournament, 2))
    seating_services.series_release(actor=organizer, series=s2)
    registration_services.entry_withdraw(
        actor=organizer, entry=field[0], reason="krank"
    )
    registration_services.entry_withdraw(
        actor=organizer, entry=field[1], reason="krank"
    )
    late = registration_services.entry_register(
        actor=organizer,
        tournament=tournament,
        data=registration_services.PlayerData(first_name="Spät", last_name="Kommer"),
    )
    registration_services.entry_set_checked_in(
        actor=organizer, entry=late, checked_in=True
    )
    for number in (3, 4, 5):
        s = seating_services.series_seat(
            actor=organizer, series=series(tournament, number)
        )
        seating_services.series_release(actor=organizer, series=s)
        seated = set(Seat.objects.filter(series=s).values_list("entry_id", flat=True))
        assert field[0].pk not in seated and late.pk in seated
        assert len(seated) == 39
    assert max(meetings(tournament).values()) == 1


def test_too_few_players_is_a_clear_message(tournament, organizer):
    for n in range(1, 6):
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    seating_services.series_ensure(tournament=tournament)
    with pytest.raises(UserError, match="5 Spieler"):
        seating_services.series_seat(actor=organizer, series=series(tournament, 1))


def test_demo_championship_is_seated_and_series_one_released(client, organizer):
    call_command("demo", stdout=StringIO())
    tournament = Tournament.objects.get(slug="rm-2026")
    client.force_login(organizer)
    seating_services.series_ensure(tournament=tournament)
    url = reverse("tournament:series_seat", kwargs={"slug": "rm-2026", "number": 1})
    response = client.post(url, {"version": 0}, follow=True)
    assert "ist ausgelost" in response.content.decode()
    assert "Wiederholte Begegnungen" in response.content.decode()
    s1 = Series.objects.get(tournament=tournament, number=1)
    url = reverse("tournament:series_release", kwargs={"slug": "rm-2026", "number": 1})
    client.post(url, {"version": s1.version})
    s1.refresh_from_db()
    assert s1.status == "released"
    client.logout()
    public = client.get(
        reverse("tournament:series_detail", kwargs={"slug": "rm-2026", "number": 1})
    ).content.decode()
    assert "Tisch 10" in public
    entry = Entry.objects.filter(tournament=tournament, checked_in=True).first()
    where = client.get(
        reverse("tournament:where", kwargs={"slug": "rm-2026"}),
        {"q": str(entry.start_number)},
    ).content.decode()
    assert "Serie 1:" in where and "Tisch" in where


def test_unreleased_seating_is_not_public(client, tournament, field, organizer):
    seating_services.series_seat(actor=organizer, series=series(tournament, 1))
    url = reverse(
        "tournament:series_detail", kwargs={"slug": tournament.slug, "number": 1}
    )
    assert client.get(url).status_code == 404
    where = client.get(
        reverse("tournament:where", kwargs={"slug": tournament.slug}), {"q": "1"}
    ).content.decode()
    assert "Noch keine veröffentlichte Setzung" in where


def test_demo_plays_three_series_and_half_the_fourth(db):
    call_command("demo", "--complete", "3", stdout=StringIO())
    tournament = Tournament.objects.get(slug="rm-2026")
    statuses = list(
        Series.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("status", flat=True)
    )
    assert statuses == ["complete", "complete", "complete", "playing", "draft"]
    assert max(meetings(tournament).values()) == 1
    from tournament.standings.selectors import standings_rows

    rows = standings_rows(tournament)
    assert rows[0].points >= rows[-1].points
    assert sum(r.games_won for r in rows) > 3 * 10 * 5 - 1


def test_later_series_come_from_the_tournament_plan(
    tournament, field, organizer, monkeypatch
):
    # The plan alone: which of the draws offered beside it is best depends
    # on how far each search got in its time (tests/seating/test_best_draw.py).
    monkeypatch.setattr("tournament.seating.services.draws.DRAW_OPTIONS", 0)
    first = seating_services.series_seat(actor=organizer, series=series(tournament, 1))
    seating_services.series_release(actor=organizer, series=first)
    plan = Tournament.objects.get(pk=tournament.pk).seating_plan
    second = seating_services.series_seat(actor=organizer, series=series(tournament, 2))
    assert second.seed == first.seed  # no new lot was drawn
    stored = sorted(
        tuple(
            second.tables.get(number=t)
            .seats.order_by("number")
            .values_list("entry_id", flat=True)
        )
        for t in range(1, 7)
    )
    assert stored == sorted(tuple(t) for t in plan["series"][1])


def test_the_report_says_why_a_small_field_meets_again(
    tournament, organizer, organizer_client
):
    # 13 players: no five series avoid every repeat; the report says so
    # once repeats show, and not before.
    for n in range(1, 14):
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    seating_services.series_ensure(tournament=tournament)
    why = "Bei 13 Spielern lässt sich über alle Serien nicht jede Wiederholung"
    pages = []
    for number in range(1, 6):
        s = seating_services.series_seat(
            actor=organizer, series=series(tournament, number)
        )
        assert s.quality["repeats_note"] == "field"
        seating_services.series_release(actor=organizer, series=s)
        pages.append(
            organizer_client.get(
                reverse("tournament:series_manage", args=[tournament.slug, number])
            ).content.decode()
        )
    assert series(tournament, 5).quality["repeated_meetings"] == 3
    assert why in pages[-1]
    assert why not in pages[0]
