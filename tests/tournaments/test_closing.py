"""The end of a tournament: once every table of every series is confirmed
the organizer is asked to close it; closing is refused, with what is
missing, before. The history (champions, a person's best place, the season
rankings) counts closed tournaments only and marks a running one."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, make_series
from tests.support.results import FIVE
from tournament.core.errors import UserError
from tournament.history.selectors import champions_page, person_history
from tournament.history.services import ranking_save
from tournament.models import AuditEvent, Ranking, Table, Tournament
from tournament.results.services import result_enter
from tournament.tournaments.services import tournament_close

pytestmark = pytest.mark.django_db


def confirm_table(table, actor):
    table.refresh_from_db()
    result_enter(
        actor=actor,
        table=table,
        games=FIVE,
        mode="quick",
        revision=table.result_revision,
        auto_confirm=True,
    )


@pytest.fixture
def two_series(tournament, organizer):
    """A championship of two series of one table of four, both released;
    series 1 confirmed, series 2 not yet."""
    tournament.series_count = 2
    tournament.is_championship = True
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    entries = [
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
        for n in range(1, 5)
    ]
    first = make_series(tournament, (4,), number=1, entries=entries)
    make_series(tournament, (4,), number=2, entries=entries)
    confirm_table(Table.objects.get(series=first), organizer)
    return tournament


def last_table(tournament):
    return Table.objects.get(series__tournament=tournament, series__number=2)


def page_text(response):
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_closing_is_refused_until_every_table_is_confirmed(two_series, organizer):
    with pytest.raises(UserError) as refused:
        tournament_close(actor=organizer, tournament=two_series)
    assert "In Serie 2 fehlt noch das Ergebnis von Tisch 1." in refused.value.message
    result_enter(
        actor=organizer,
        table=last_table(two_series),
        games=FIVE,
        mode="quick",
        revision=last_table(two_series).result_revision,
    )
    with pytest.raises(UserError) as refused:
        tournament_close(actor=organizer, tournament=two_series)
    assert "In Serie 2 fehlt noch" in refused.value.message
    two_series.refresh_from_db()
    assert two_series.status == Tournament.Status.RUNNING
    assert not AuditEvent.objects.filter(action="tournament.close").exists()


def test_a_series_not_played_is_named_with_the_way_out(tournament, organizer):
    tournament.series_count = 3
    tournament.save()
    series = make_series(tournament, (4,))
    confirm_table(Table.objects.get(series=series), organizer)
    with pytest.raises(UserError) as refused:
        tournament_close(actor=organizer, tournament=tournament)
    assert "Serie 2 ist noch nicht gespielt" in refused.value.message
    assert "die Anzahl der Serien auf 1 setzen" in refused.value.message


def test_the_manage_page_asks_once_the_last_table_is_confirmed(
    organizer_client, two_series, organizer
):
    manage = reverse("tournament:manage", args=[two_series.slug])
    assert "Turnier beenden" not in page_text(organizer_client.get(manage))
    confirm_table(last_table(two_series), organizer)
    asked = page_text(organizer_client.get(manage))
    assert "Alle Tische sind bestätigt" in asked and "Turnier beenden" in asked
    response = organizer_client.post(
        reverse("tournament:tournament_close", args=[two_series.slug])
    )
    assert response.status_code == 302
    two_series.refresh_from_db()
    assert two_series.status == Tournament.Status.FINISHED
    event = AuditEvent.objects.get(action="tournament.close")
    assert event.before == {"status": "running"}
    assert event.after == {"status": "finished"}
    closed = page_text(organizer_client.get(manage))
    assert "Das Turnier ist beendet" in closed and "Wieder öffnen" in closed
    organizer_client.post(
        reverse("tournament:tournament_close", args=[two_series.slug]),
        {"reopen": "1"},
    )
    two_series.refresh_from_db()
    assert two_series.status == Tournament.Status.RUNNING
    assert AuditEvent.objects.filter(action="tournament.reopen").count() == 1


def test_the_settings_cannot_close_it_early(organizer, two_series):
    from tournament.tournaments.services import SettingsRefused, tournament_save

    two_series.status = Tournament.Status.FINISHED
    with pytest.raises(SettingsRefused) as refused:
        tournament_save(actor=organizer, tournament=two_series, created=False)
    assert "Noch nicht zu beenden" in refused.value.errors["status"]
    assert Tournament.objects.get(pk=two_series.pk).status == "running"


def test_history_counts_a_tournament_once_it_is_closed(client, two_series, organizer):
    confirm_table(last_table(two_series), organizer)
    winner = two_series.entries.get(start_number=1).player.person
    ranking = ranking_save(
        actor=None,
        ranking=Ranking(name="Wertung", slug="wertung", place_points="10,6,4,2"),
        tournaments=[two_series],
    )
    ranking_url = reverse("tournament:ranking", args=["wertung"])
    # Every table confirmed, not closed: running everywhere, nothing counts.
    assert champions_page().champions == []
    champions_url = reverse("tournament:champions")
    marked = "der Meister steht hier, sobald das Turnier beendet ist"
    assert marked in page_text(client.get(champions_url))
    history = person_history(winner)
    assert history.best is None and history.running
    assert history.results[0].rank == 1  # the intermediate place, shown
    ranking_page = page_text(client.get(ranking_url))
    assert "Stand: 0 von 1 Turnier beendet." in ranking_page
    assert "(läuft)" in ranking_page
    person_page = page_text(client.get(reverse("tournament:person", args=[winner.pk])))
    assert "läuft" in person_page and "Zwischenstand" in person_page
    home = page_text(client.get(reverse("tournament:home")))
    assert "läuft" in home

    tournament_close(actor=organizer, tournament=two_series)
    assert [c.person_id for c in champions_page().champions] == [winner.pk]
    assert marked not in page_text(client.get(champions_url))
    history = person_history(winner)
    assert history.best is not None and history.best.rank == 1
    assert not history.running
    ranking_page = page_text(client.get(ranking_url))
    assert "Stand: 1 von 1 Turnier beendet." in ranking_page
    assert ranking.tournaments.get() == two_series
    assert "beendet" in page_text(client.get(reverse("tournament:home")))
