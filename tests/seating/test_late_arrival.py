"""A player who checks in after a series was released: the desk is told at
once what follows and chooses: the free seat of a table of three whose games
have not begun (he plays all of them; the table counts as a table of four),
or sitting the series out (the next draw seats him)."""

import html
import re

import pytest
from django.urls import reverse

from tests.support import worlds
from tests.support.factories import EntryFactory
from tests.support.pdf import needs_pdftotext, pdf_page_count, pdf_pages_text
from tests.support.results import FIVE, confirm, enter, games
from tournament.auditlog.readable import readable_changes
from tournament.core.errors import ConflictError, UserError
from tournament.models import (
    AuditEvent,
    DigitalTable,
    Entry,
    EntryTotal,
    GameScore,
    Seat,
    Series,
)
from tournament.seating import services as seating_services
from tournament.seating.selectors import late_choices

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.fixture
def released(tournament, organizer):
    """14 players present, series 1 drawn and released: tables 1-2 of four,
    3-4 of three. Nr. 15 is registered but not here yet."""
    return worlds.late_arrival(tournament, organizer)


def check_in(client, tournament, number=15, follow=False):
    url = reverse(
        "tournament:entry_check_in",
        kwargs={"slug": tournament.slug, "number": number},
    )
    back = reverse("tournament:entry_list", kwargs={"slug": tournament.slug})
    return client.post(
        url, {"checked_in": "1", "next": f"{back}?q=Klein"}, follow=follow
    )


def late_url(tournament, series=1, number=15):
    return reverse(
        "tournament:series_late",
        kwargs={"slug": tournament.slug, "number": series, "start_number": number},
    )


def test_checking_in_after_the_release_says_what_follows_and_offers_both_choices(
    organizer_client, tournament, released
):
    response = check_in(organizer_client, tournament)
    assert response.status_code == 302
    assert response["Location"].startswith(late_url(tournament) + "?next=")
    page = text_of(organizer_client.get(response["Location"]))
    assert (
        "Karl Klein ist jetzt anwesend, aber Serie 1 ist schon ausgelost und "
        "veröffentlicht: er hat dort keinen Sitz." in page
    )
    assert "An einem Dreiertisch mitspielen" in page
    assert "nur solange dort noch nicht gespielt wird" in page
    assert "An Tisch 3 setzen" in page and "An Tisch 4 setzen" in page
    assert "An Tisch 1 setzen" not in page  # a table of four has no free seat
    assert "Setzt Serie 1 aus" in page
    assert "Die nächste Auslosung setzt ihn." in page
    assert Entry.objects.get(start_number=15).checked_in


def test_checking_in_before_any_release_stays_at_the_desk(organizer_client, tournament):
    EntryFactory(tournament=tournament, start_number=15)
    response = check_in(organizer_client, tournament)
    assert response["Location"].endswith("?q=Klein")


def test_checking_in_after_a_draw_before_its_release_asks_for_a_new_draw(
    organizer_client, organizer, tournament
):
    for n in range(1, 9):
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
    EntryFactory(
        tournament=tournament,
        start_number=15,
        player__first_name="Karl",
        player__last_name="Klein",
    )
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=1)
    )
    response = check_in(organizer_client, tournament, follow=True)
    assert (
        "Serie 1 ist schon ausgelost, aber noch nicht veröffentlicht: Nr. 15 hat "
        "dort keinen Sitz. Bitte Serie 1 neu auslosen, dann spielt er mit."
        in text_of(response)
    )
    assert response.redirect_chain[-1][0].endswith("?q=Klein")


def test_the_late_page_also_names_a_later_series_drawn_without_him(
    organizer_client, organizer, tournament, released
):
    seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=2)
    )
    response = check_in(organizer_client, tournament, follow=True)
    page = text_of(response)
    assert "Karl Klein ist jetzt anwesend, aber Serie 1 ist schon ausgelost" in page
    assert (
        "Serie 2 ist auch schon ausgelost, aber noch nicht veröffentlicht – ohne "
        "ihn. Bitte Serie 2 neu auslosen, dann spielt er dort mit." in page
    )


def test_taking_the_free_seat_makes_a_table_of_four_and_is_audited(
    organizer_client, tournament, released
):
    check_in(organizer_client, tournament)
    players = list(
        Seat.objects.filter(series=released, table__number=3)
        .order_by("number")
        .values_list("entry__start_number", flat=True)
    )
    back = reverse("tournament:entry_list", kwargs={"slug": tournament.slug})
    response = organizer_client.post(
        late_url(tournament),
        {"table": 3, "version": released.version, "next": back},
        follow=True,
    )
    page = text_of(response)
    assert (
        "Karl Klein spielt in Serie 1 an Tisch 3 mit, auf Sitz 4: er gibt zuerst "
        "und führt die Spielliste." in page
    )
    assert response.redirect_chain[-1][0] == back
    seat = Seat.objects.get(series=released, entry__start_number=15)
    assert (seat.table.number, seat.number, seat.table.size) == (3, 4, 4)
    released.refresh_from_db()
    assert released.status == Series.Status.RELEASED
    event = AuditEvent.objects.get(action="series.seat_late")
    lines = readable_changes(
        object_type="series", before=event.before, after=event.after
    )
    numbers = ", ".join(map(str, players))
    assert [(line.label, line.old, line.new) for line in lines] == [
        ("Tisch 3", f"Nr. {numbers}", f"Nr. {numbers}, 15")
    ]
    log = text_of(
        organizer_client.get(reverse("tournament:audit_log", args=[tournament.slug]))
    )
    assert "Nachzügler an einen Dreiertisch gesetzt" in log
    # Seated now: he can be swapped like anyone else.
    other = Seat.objects.get(series=released, table__number=1, number=1).entry
    seating_services.series_swap(
        actor=None,
        series=released,
        entry_a=Entry.objects.get(start_number=15),
        entry_b=other,
        version=released.version,
    )


def test_his_table_plays_all_games_as_a_table_of_four(
    organizer, referee, referee2, tournament, released
):
    late = Entry.objects.get(start_number=15)
    late.checked_in = True
    late.save()
    table = seating_services.series_seat_late(
        actor=organizer,
        series=released,
        entry=late,
        table_number=4,
        version=released.version,
    )
    confirm(enter(table, referee, FIVE), referee2)  # seat 4 wins game 4
    scores = GameScore.objects.filter(table=table)
    assert scores.count() == 4 * 5
    assert not scores.filter(three_table=True).exists()
    assert scores.get(entry=late, game=4).won
    total = EntryTotal.objects.get(entry=late)
    assert total.points == 8 and total.three_table_games == 0


def test_a_table_whose_result_is_in_has_no_free_seat_any_more(
    organizer_client, organizer, referee, tournament, released
):
    table = released.tables.get(number=3)
    enter(table, referee, games([(1, 5), (2, 3), (1, 7), (3, 1), (3, 2)]))
    check_in(organizer_client, tournament)
    page = text_of(organizer_client.get(late_url(tournament)))
    assert (
        "Hier wird schon gespielt: ein Ergebnis ist eingegeben oder der Tisch "
        "spielt digital." in page
    )
    assert "An Tisch 3 setzen" not in page and "An Tisch 4 setzen" in page
    with pytest.raises(UserError, match="An Tisch 3 wird schon gespielt") as refused:
        seating_services.series_seat_late(
            actor=organizer,
            series=released,
            entry=Entry.objects.get(start_number=15),
            table_number=3,
            version=released.version,
        )
    assert refused.value.code == "table_begun"
    assert not Seat.objects.filter(entry__start_number=15).exists()
    assert not AuditEvent.objects.filter(action="series.seat_late").exists()


def test_a_digital_table_has_begun_as_soon_as_it_is_made(
    organizer, tournament, released
):
    table = released.tables.get(number=4)
    DigitalTable.objects.create(table=table, size=3)
    Entry.objects.filter(start_number=15).update(checked_in=True)
    choices = {c["table"].number: c["begun"] for c in late_choices(released)}
    assert choices == {3: False, 4: True}
    with pytest.raises(UserError, match="der Tisch spielt digital"):
        seating_services.series_seat_late(
            actor=organizer,
            series=released,
            entry=Entry.objects.get(start_number=15),
            table_number=4,
            version=released.version,
        )


@pytest.mark.parametrize(
    ("table", "number", "code"),
    [(1, 15, "no_table_of_three"), (9, 15, "no_table_of_three"), (3, 1, "seated")],
)
def test_a_table_of_four_or_a_seated_player_is_refused(
    organizer, tournament, released, table, number, code
):
    Entry.objects.filter(start_number=15).update(checked_in=True)
    with pytest.raises(UserError) as refused:
        seating_services.series_seat_late(
            actor=organizer,
            series=released,
            entry=Entry.objects.get(start_number=number),
            table_number=table,
            version=released.version,
        )
    assert refused.value.code == code
    assert Seat.objects.filter(series=released).count() == 14


def test_an_absent_player_or_a_stale_page_is_refused(organizer, tournament, released):
    entry = Entry.objects.get(start_number=15)
    with pytest.raises(UserError) as refused:
        seating_services.series_seat_late(
            actor=organizer,
            series=released,
            entry=entry,
            table_number=3,
            version=released.version,
        )
    assert refused.value.code == "not_present"
    entry.checked_in = True
    entry.save()
    with pytest.raises(ConflictError):
        seating_services.series_seat_late(
            actor=organizer,
            series=released,
            entry=entry,
            table_number=3,
            version=released.version - 1,
        )
    assert not Seat.objects.filter(entry=entry).exists()


def test_sitting_out_changes_nothing_and_the_next_draw_seats_him(
    organizer_client, organizer, tournament, released
):
    check_in(organizer_client, tournament)
    back = reverse("tournament:entry_list", kwargs={"slug": tournament.slug})
    response = organizer_client.post(
        late_url(tournament), {"choice": "sit_out", "next": back}, follow=True
    )
    assert (
        "Karl Klein setzt Serie 1 aus und bekommt für sie keine Punkte. Die nächste "
        "Auslosung setzt ihn." in text_of(response)
    )
    assert not Seat.objects.filter(entry__start_number=15).exists()
    second = seating_services.series_seat(
        actor=organizer, series=tournament.series.get(number=2)
    )
    assert Seat.objects.filter(series=second, entry__start_number=15).exists()


def test_the_series_page_and_a_refused_swap_lead_to_the_free_seat(
    organizer_client, tournament, released
):
    check_in(organizer_client, tournament)
    manage = reverse(
        "tournament:series_manage", kwargs={"slug": tournament.slug, "number": 1}
    )
    html = organizer_client.get(manage).content.decode()
    assert f'href="{late_url(tournament)}?next=' in html
    page = text_of(organizer_client.get(manage, {"a": 15, "b": 5}))
    assert "Startnummer 15 sitzt nicht in Serie 1." in page
    assert "Nr. 15 an einem Dreiertisch mitspielen lassen" in page


@needs_pdftotext
def test_the_message_offers_that_one_tables_sheet_again(
    organizer_client, tournament, released
):
    """The word is "Spielliste" as everywhere; the sheet printed before he
    came lacks his name, so the message links that table's sheet alone."""
    check_in(organizer_client, tournament)
    back = reverse("tournament:entry_list", kwargs={"slug": tournament.slug})
    response = organizer_client.post(
        late_url(tournament),
        {"table": 3, "version": released.version, "next": back},
        follow=True,
    )
    page = response.content.decode()
    assert "Spielzettel" not in page
    assert "Bitte seinen Namen auf der Spielliste des Tisches ergänzen" in page
    link = re.search(r'<a href="([^"]+)"[^>]*>Spielliste von Tisch 3 drucken</a>', page)
    assert link, page
    sheet = organizer_client.get(html.unescape(link.group(1)))
    assert sheet["Content-Type"] == "application/pdf"
    assert "serie-1-tisch-3.pdf" in sheet["Content-Disposition"]
    assert pdf_page_count(sheet.content) == 1
    [text] = pdf_pages_text(sheet.content)
    assert "SERIE 1 · TISCH" in text and "4 Karl Klein" in text


def test_a_table_the_series_has_not_is_refused_in_words(
    organizer_client, tournament, released
):
    url = reverse("tournament:paper_download", kwargs={"slug": tournament.slug})
    response = organizer_client.get(
        url, {"document": "sheets", "series": 1, "table": 9}, follow=True
    )
    assert "Serie 1 hat keinen Tisch 9." in text_of(response)
