"""A swap shows what it costs before it is made: the preview gives the
report after the swap (repeats, tables with club mates, tables of three),
the "Warum" box names the swap as the cause, and publishing a series that
swaps made worse asks once."""

import re

import pytest
from django.urls import reverse

from tests.support import worlds
from tournament.core.errors import UserError
from tournament.models import AuditEvent, Entry, Series
from tournament.seating import selectors
from tournament.seating import services as seating_services

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def manage_url(tournament):
    return reverse(
        "tournament:series_manage", kwargs={"slug": tournament.slug, "number": 2}
    )


@pytest.fixture
def second(tournament):
    """Eight players: series 1 (released) at tables 1-4 and 5-8; series 2
    (seated by lot) at 1, 2, 5, 6 and 3, 4, 7, 8: four pairs meet again.
    Swapping 3 and 5 makes six."""
    return worlds.swap_second_series(
        tournament, first_name="V", last_name="N", club="Club"
    )


def swap(organizer, series, a, b):
    tournament = series.tournament
    return seating_services.series_swap(
        actor=organizer,
        series=series,
        entry_a=Entry.objects.get(tournament=tournament, start_number=a),
        entry_b=Entry.objects.get(tournament=tournament, start_number=b),
        version=series.version,
    )


def test_the_preview_shows_the_report_after_the_swap(
    organizer_client, tournament, second
):
    page = text_of(organizer_client.get(manage_url(tournament) + "?a=3&b=5"))
    assert "So sähe die Setzung nach dem Tausch aus:" in page
    assert "Wiederholte Begegnungen 4 → 6 ⚠" in page
    assert "Tische mit Vereinskameraden 0 → 0" in page
    assert "Öfter als nötig am Dreiertisch 0 → 0" in page
    assert "Dreiertische 0 → 0" in page
    assert "Nach dem Tausch wieder zusammen: V1 N und V2 N; V1 N und V3 N" in page
    assert "fragt „Veröffentlichen“ noch einmal nach" in page
    # Nothing is committed by the preview.
    second.refresh_from_db()
    assert second.quality["repeated_meetings"] == 4
    assert "drawn" not in second.quality


def test_the_why_box_names_the_swap_as_the_cause(
    organizer, organizer_client, tournament, second
):
    swap(organizer, second, 3, 5)
    assert [
        (s["a"].start_number, s["b"].start_number) for s in selectors.own_swaps(second)
    ] == [(3, 5)]
    page = text_of(organizer_client.get(manage_url(tournament)))
    assert "Nach der Auslosung dieser Serie von Hand getauscht" in page
    assert "V3 N (Nr. 3) und V5 N (Nr. 5) getauscht." in page
    assert "hat sich nichts geändert" not in page


def test_publishing_a_series_a_swap_made_worse_asks_once(
    organizer, organizer_client, tournament, second
):
    second = swap(organizer, second, 3, 5)
    assert second.quality["drawn"] == {
        "repeats": 4,
        "club_tables": 0,
        "three_again": 0,
    }
    html = organizer_client.get(manage_url(tournament)).content.decode()
    assert "wiederholte Begegnungen: 6 statt 4" in html
    release = html[html.index('name="accept_worse"') - 400 :]
    assert "data-confirm=" in release[: release.index("</form>")]
    with pytest.raises(UserError) as refused:
        seating_services.series_release(actor=organizer, series=second)
    assert refused.value.code == "swap_worse"
    second.refresh_from_db()
    assert second.status == Series.Status.SEATED
    seating_services.series_release(actor=organizer, series=second, accept_worse=True)
    second.refresh_from_db()
    assert second.status == Series.Status.RELEASED
    event = AuditEvent.objects.filter(action="series.release").latest("pk")
    assert event.after["swapped_worse"]["now"]["repeats"] == 6


def test_a_swap_that_does_not_make_it_worse_publishes_without_a_question(
    organizer, tournament, second
):
    # 2 and 3 change tables: still four pairs meet again.
    second = swap(organizer, second, 2, 3)
    assert seating_services.swapped_worse(second) is None
    seating_services.series_release(actor=organizer, series=second)
    second.refresh_from_db()
    assert second.status == Series.Status.RELEASED
