"""Each tournament plays one of the rule presets docs/RULES.md names that the
rules module has: chosen in its settings, shown on its page, and used by
result entry and digital tables alike; fixed once a result is entered."""

import pytest
from django.urls import reverse

from scoring.rules import PRESETS
from tests.support.factories import TournamentFactory, make_series
from tests.support.results import FIVE, enter
from tournament.core.errors import UserError
from tournament.digital import adapter as digital_adapter
from tournament.digital.services import digital_table_create
from tournament.models import Tournament
from tournament.results.services import GameInput, result_enter
from tournament.tournaments.forms import TournamentForm

pytestmark = pytest.mark.django_db


def test_the_settings_offer_every_preset_of_the_rules_module():
    field = TournamentForm().fields["rule_preset"]
    assert sorted(value for value, _label in field.choices) == sorted(PRESETS)
    labels = dict(field.choices)
    assert labels["marienheide"] == "Marienheide"
    assert labels["schroem"] == "Schröm (Wipperfürth)"


def test_the_tournament_page_names_the_preset_and_what_it_plays(client):
    tournament = TournamentFactory(rule_preset="schroem", start_marks=7, win_bonus=7)
    text = client.get(reverse("tournament:detail", args=[tournament.slug])).content
    text = text.decode()
    assert "Regelwerk: Schröm (Wipperfürth)" in text
    assert "klopfen bis zu den eigenen Schräm plus eins" in text
    assert "7 Schräm zu Beginn" in text


# Hand 1: seat 1 wins at 4, the others keep 3 marks. Hand 2 goes to 5: the
# knocks to 4 and 5 cannot both be seat 1's (nobody knocks twice in a row),
# and with 3 marks the others may knock to 3 only, in the championship; in
# Schröm to 4 (marks + 1).
OVER_MARKS = (
    {"sheet": {"value": 4, "folded": {}, "winner": 1}},
    {"sheet": {"value": 5, "folded": {}, "winner": 1}},
)


@pytest.mark.parametrize(
    ("preset", "allowed"), [("championship", False), ("schroem", True)]
)
def test_result_entry_replays_the_sheet_by_the_tournaments_preset(
    referee, preset, allowed
):
    tournament = TournamentFactory(rule_preset=preset, games_per_series=1)
    table = make_series(tournament, sizes=(4,)).tables.get()
    games = [GameInput(hands=OVER_MARKS)]
    if allowed:
        version = result_enter(
            actor=referee, table=table, games=games, mode="sheet", revision=0
        )
        assert version.data["games"][0] == {
            **version.data["games"][0],
            "winner": 1,
            "marks": 7,
        }
    else:
        with pytest.raises(UserError, match="Spiel 1, Einzelspiel 2"):
            result_enter(
                actor=referee, table=table, games=games, mode="sheet", revision=0
            )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_digital_table_plays_the_tournaments_preset(organizer, preset):
    tournament = TournamentFactory(rule_preset=preset, games_per_series=1)
    table = make_series(tournament, sizes=(4,)).tables.get()
    digital = digital_table_create(actor=organizer, table=table, bots={})
    rules = digital_adapter.rules_of(digital)
    assert rules.name == preset
    assert rules.knock_over_marks == PRESETS[preset].knock_over_marks
    assert rules.marks_count_up == PRESETS[preset].marks_count_up


def test_the_preset_is_fixed_once_a_result_is_entered(organizer_client, referee):
    tournament = TournamentFactory(slug="rm-regeln")
    enter(make_series(tournament, sizes=(4,)).tables.get(), referee, FIVE)
    form = TournamentForm(instance=tournament)
    data = {
        name: form[name].value()
        for name in form.fields
        if form[name].value() not in (None, False, [])
    }
    data = {k: "on" if v is True else v for k, v in data.items()}
    data["rule_preset"] = "marienheide"
    response = organizer_client.post(
        reverse("tournament:tournament_edit", args=[tournament.slug]), data
    )
    assert response.context["form"].errors["rule_preset"] == [
        "Es gibt schon Ergebnisse nach dem Regelwerk „Rheinland-Meisterschaft“; "
        "das Regelwerk lässt sich nicht mehr ändern."
    ]
    assert Tournament.objects.get(pk=tournament.pk).rule_preset == "championship"
