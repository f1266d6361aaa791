"""A redraw after a change: the series page says what its draw had to
trade (repeats, club mates at a table, tables of three) and why (who came
late, which two were swapped, who left), offers other draws of the same
series, and the organizer takes one; nothing changes without his click, and
a choice that no longer fits is refused."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory
from tests.support.worlds import first_series_swapped, redraw_day
from tournament.core.errors import ConflictError
from tournament.models import AuditEvent, Entry, Seat, Series
from tournament.seating import adapter, selectors
from tournament.seating import services as seating_services

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def seating(series):
    return sorted(map(tuple, adapter.stored_series(series)))


def manage_url(tournament, number=2):
    return reverse(
        "tournament:series_manage", kwargs={"slug": tournament.slug, "number": number}
    )


def choose_url(tournament, number=2):
    return reverse(
        "tournament:series_choose", kwargs={"slug": tournament.slug, "number": number}
    )


@pytest.fixture
def day(tournament, organizer):
    return redraw_day(tournament, organizer)


def test_the_reasons_name_the_late_arrival_the_swap_and_who_left(day):
    series, (a, b) = day
    reasons = selectors.redraw_reasons(series)
    assert [(x["entry"].start_number, x["missed"]) for x in reasons["late"]] == [
        (16, [1])
    ]
    assert [
        (s["series"], s["a"].start_number, s["b"].start_number)
        for s in reasons["swaps"]
    ] == [(1, a, b)]
    assert [e.start_number for e in reasons["gone"]] == [14]


def test_a_swap_undone_by_drawing_the_series_again_is_no_reason(tournament, organizer):
    for n in range(1, 13):
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    first, _swapped = first_series_swapped(tournament, organizer)
    first = seating_services.series_seat(actor=organizer, series=first, new_lot=True)
    second = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=2)
    )
    assert selectors.redraw_reasons(second)["swaps"] == []


def test_a_late_arrival_seated_at_a_table_of_three_is_named_with_it(
    tournament, organizer
):
    series, _ = redraw_day(tournament, organizer)
    first = tournament.series.get(number=1)
    # Series 1 seated 15 players: three tables of four and one of three.
    table = first.tables.get(size=3)
    # Nr. 16 joins series 1 at its table of three instead of sitting it out.
    seating_services.series_seat_late(
        actor=organizer,
        series=first,
        entry=Entry.objects.get(tournament=tournament, start_number=16),
        table_number=table.number,
        version=first.version,
    )
    late = selectors.redraw_reasons(series)["late"]
    assert [(x["entry"].start_number, x["missed"], x["joined"]) for x in late] == [
        (16, [], [(1, table.number)])
    ]


def test_other_draws_are_offered_and_nothing_changes_without_a_choice(day, tournament):
    series, _ = day
    before = seating(series)
    events = AuditEvent.objects.count()
    tournament.refresh_from_db()
    plan = tournament.seating_plan
    current, options = seating_services.draw_options(series=series)
    assert current.seed == ""
    assert current.club_tables >= 1  # six of Club A at four tables
    assert 1 <= len(options) <= seating_services.DRAW_OPTIONS
    digests = {current.digest, *(o.digest for o in options)}
    assert len(digests) == len(options) + 1
    # The same draws on a reload.
    assert seating_services.draw_options(series=series)[1] == options
    series.refresh_from_db()
    assert seating(series) == before
    assert AuditEvent.objects.count() == events
    tournament.refresh_from_db()
    assert tournament.seating_plan == plan


def test_the_time_bound_stops_further_draws(day, organizer, monkeypatch):
    series, _ = day
    # At the draw: the draws it is chosen among.
    monkeypatch.setattr("tournament.seating.services.draws.DRAW_OPTIONS_SECONDS", 0)
    series = seating_services.series_seat(actor=organizer, series=series, new_lot=True)
    assert len(series.quality["options"]) <= 1
    # A series drawn without them (a draw chosen by hand): drawn on asking.
    del series.quality["options"]
    _, options = seating_services.draw_options(series=series, seconds=0)
    assert len(options) <= 1


def test_a_chosen_draw_is_seated_and_recorded_like_a_redraw(day, organizer):
    series, _ = day
    _, options = seating_services.draw_options(series=series)
    chosen = options[-1]
    version = series.version
    seating_services.series_seat(
        actor=organizer,
        series=series,
        version=version,
        seed=chosen.seed,
        digest=chosen.digest,
    )
    series.refresh_from_db()
    assert series.version == version + 1
    assert series.seed == chosen.seed
    assert (
        seating_services.draw_options(series=series, count=0)[0].digest == chosen.digest
    )
    assert series.quality["repeated_meetings"] == chosen.repeats
    event = AuditEvent.objects.filter(action="series.seat").latest("pk")
    assert event.note == "Unter den angebotenen Auslosungen gewählt."
    # The Protokoll keeps start numbers by table, as the page shows them.
    assert event.after["seating"] == selectors.start_number_tables(series)
    assert sorted(n for t in event.after["seating"] for n in t) == [
        *range(1, 14),
        15,
        16,
    ]


def test_a_choice_after_another_redraw_is_refused(day, organizer):
    series, _ = day
    _, options = seating_services.draw_options(series=series)
    shown = series.version
    series = seating_services.series_seat(
        actor=organizer, series=series, new_lot=True, version=shown
    )
    now = seating(series)
    with pytest.raises(ConflictError, match="inzwischen von jemand anderem"):
        seating_services.series_seat(
            actor=organizer,
            series=series,
            version=shown,
            seed=options[0].seed,
            digest=options[0].digest,
        )
    series.refresh_from_db()
    assert seating(series) == now


def test_a_choice_after_the_field_changed_is_refused(day, organizer, tournament):
    series, _ = day
    _, options = seating_services.draw_options(series=series)
    before = seating(series)
    events = AuditEvent.objects.count()
    tournament.refresh_from_db()
    plan = tournament.seating_plan
    # Nr. 14 comes back: the same seed no longer gives the draw shown.
    Entry.objects.filter(tournament=tournament, start_number=14).update(
        withdrawn_at=None, withdrawn_after_series=None
    )
    with pytest.raises(ConflictError, match="gibt es so nicht mehr"):
        seating_services.series_seat(
            actor=organizer,
            series=series,
            version=series.version,
            seed=options[0].seed,
            digest=options[0].digest,
        )
    series.refresh_from_db()
    assert seating(series) == before
    assert AuditEvent.objects.count() == events
    tournament.refresh_from_db()
    assert tournament.seating_plan == plan


def test_the_series_page_says_why_and_offers_the_draws(
    day, organizer_client, tournament
):
    _, (a, b) = day
    page = text_of(organizer_client.get(manage_url(tournament)))
    assert "Warum diese Auslosung abwägen musste" in page
    assert (
        "Karl Klein (Nr. 16) kam nach der Auslosung von Serie 1 und hat sie ausgesetzt."
        in page
    )
    assert "In Serie 1 getauscht: " in page
    assert f"(Nr. {a}) und " in page and f"(Nr. {b})." in page
    assert "(Nr. 14) ist abgemeldet" in page
    assert "Andere Auslosungen vergleichen" in page
    # Offered, not computed, until he asks.
    assert "Jetzige Setzung" not in page
    page = text_of(organizer_client.get(manage_url(tournament) + "?vergleichen=1"))
    assert "Jetzige Setzung" in page
    assert "Bleibt, wenn Sie keine andere nehmen." in page
    assert "Andere Auslosung 1" in page
    assert re.search(r"Vereinskameraden am selben Tisch an \d Tisch", page)
    assert "Auslosung 1 nehmen" in page


def test_taking_a_draw_on_the_page(day, organizer_client, tournament):
    series, _ = day
    chosen = seating_services.draw_options(series=series, count=1)[1][0]
    response = organizer_client.post(
        choose_url(tournament),
        {
            "version": series.version,
            "seed": chosen.seed,
            "digest": chosen.digest,
        },
        follow=True,
    )
    assert "Serie 2 ist neu gesetzt: die gewählte Auslosung gilt." in text_of(response)
    series.refresh_from_db()
    assert series.seed == chosen.seed
    # The same form again is stale now.
    response = organizer_client.post(
        choose_url(tournament),
        {
            "version": series.version - 1,
            "seed": chosen.seed,
            "digest": chosen.digest,
        },
        follow=True,
    )
    assert "wurde inzwischen von jemand anderem geändert" in text_of(response)


def test_a_released_series_offers_no_draws(
    day, organizer_client, organizer, tournament
):
    series, _ = day
    seating_services.series_release(actor=organizer, series=series)
    page = text_of(organizer_client.get(manage_url(tournament) + "?vergleichen=1"))
    assert "Warum diese Auslosung abwägen musste" in page
    assert "Andere Auslosungen vergleichen" not in page
    assert "Jetzige Setzung" not in page
    response = organizer_client.post(
        choose_url(tournament),
        {"version": series.version + 1, "seed": "abc", "digest": "abc"},
        follow=True,
    )
    assert "schon veröffentlicht" in text_of(response)
    assert Series.objects.get(pk=series.pk).status == Series.Status.RELEASED


def test_a_draw_is_summed_up_in_the_reports_words(tournament):
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            player__first_name=f"V{n}",
            player__last_name="N",
            player__club="Club A" if n in (1, 5) else f"Club {n}",
        )
        for n in range(1, 9)
    ]
    e = [x.pk for x in entries]
    played = [[e[0], e[1], e[2], e[3]], [e[4], e[5], e[6], e[7]]]
    # 1-2 meet again at a table of three with 5, a club mate of 1; 6, 7
    # and 8 meet again with 3.
    option = seating_services._draw_option(
        "s", [[e[0], e[1], e[4]], [e[2], e[5], e[6], e[7]]], [played], entries
    )
    assert option.repeats == 4
    assert option.pairs == [
        ("V1 N", "V2 N"),
        ("V6 N", "V7 N"),
        ("V6 N", "V8 N"),
        ("V7 N", "V8 N"),
    ]
    assert (option.club_tables, option.three_again, option.tables_of_three) == (
        1,
        0,
        1,
    )


def test_no_draws_are_offered_while_a_swap_waits_or_the_field_changed(
    day, organizer_client, tournament
):
    series, _ = day
    a = Seat.objects.get(series=series, table__number=1, number=1).entry.start_number
    b = Seat.objects.get(series=series, table__number=2, number=1).entry.start_number
    page = text_of(
        organizer_client.get(manage_url(tournament) + f"?a={a}&b={b}&vergleichen=1")
    )
    assert "Diese beiden tauschen die Sitze:" in page
    assert "Andere Auslosungen vergleichen" not in page
    assert "Jetzige Setzung" not in page
    Entry.objects.filter(tournament=tournament, start_number=14).update(
        withdrawn_at=None, withdrawn_after_series=None
    )
    page = text_of(organizer_client.get(manage_url(tournament) + "?vergleichen=1"))
    assert "Seit der Auslosung hat sich das Feld geändert" in page
    assert "Andere Auslosungen vergleichen" not in page
    assert "Jetzige Setzung" not in page


def test_without_changes_the_page_says_the_field_is_why(
    organizer, organizer_client, tournament
):
    for n in range(1, 17):
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player__club="Club A" if n <= 6 else f"Club {n}",
        )
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    first = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=1)
    )
    seating_services.series_release(actor=organizer, series=first)
    seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=2)
    )
    page = text_of(organizer_client.get(manage_url(tournament)))
    assert "Warum diese Auslosung abwägen musste" in page
    assert "hat sich nichts geändert: was bleibt, liegt an der Zahl der Spieler" in page
    assert "Andere Auslosungen vergleichen" in page
