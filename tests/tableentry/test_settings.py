"""The tournament's setting "Eingabe am Tisch" (issue 16.2): on the
organizer's form; switched between "one" and "all" (or on again) only while
no entry of a table's players waits for their confirmation, switched off
always."""

import pytest
from django.urls import reverse

from tests.support.results import FIVE
from tournament.models import AuditEvent, Tournament
from tournament.tableentry.services import result_enter_by_player
from tournament.tournaments.services import SettingsRefused, tournament_save

pytestmark = pytest.mark.django_db


def change(tournament, organizer, value):
    tournament = Tournament.objects.get(pk=tournament.pk)
    tournament.table_entry = value
    return tournament_save(actor=organizer, tournament=tournament, created=False)


def test_the_form_offers_the_three_choices(organizer_client, tournament):
    page = organizer_client.get(
        reverse("tournament:tournament_edit", kwargs={"slug": tournament.slug})
    ).content.decode()
    assert "Eingabe am Tisch" in page
    for value in ("off", "one", "all"):
        assert f'value="{value}"' in page


def test_switching_is_free_while_nothing_waits(at_table, organizer):
    change(at_table.tournament, organizer, "all")
    change(at_table.tournament, organizer, "off")
    change(at_table.tournament, organizer, "one")
    event = AuditEvent.objects.filter(action="tournament.update").latest("id")
    assert event.after["table_entry"] == "one"


def test_a_waiting_table_entry_fixes_the_rule_but_off_is_always_possible(
    at_table, organizer
):
    at_table.t1.refresh_from_db()
    result_enter_by_player(
        player=at_table.p[1], table=at_table.t1, games=FIVE, mode="quick", revision=0
    )
    events = AuditEvent.objects.count()
    with pytest.raises(SettingsRefused) as refused:
        change(at_table.tournament, organizer, "all")
    assert set(refused.value.errors) == {"table_entry"}
    assert "Serie 1 Tisch 1" in refused.value.errors["table_entry"]
    assert AuditEvent.objects.count() == events
    change(at_table.tournament, organizer, "off")
    with pytest.raises(SettingsRefused):
        change(at_table.tournament, organizer, "one")


def test_the_refusal_stands_beside_the_field(at_table, organizer_client):
    at_table.t1.refresh_from_db()
    result_enter_by_player(
        player=at_table.p[1], table=at_table.t1, games=FIVE, mode="quick", revision=0
    )
    from tests.site.test_settings_changes import form_data

    response = organizer_client.post(
        reverse("tournament:tournament_edit", kwargs={"slug": "rm-test"}),
        form_data(at_table.tournament, {"table_entry": "all"}),
    )
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["table_entry"]
