"""The migration of the kept series points: the comma-joined text of older
databases ("26,0,14") becomes a JSON list ([26, 0, 14]) and back again."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournament", "0014_withdrawal_after_game")]
AFTER = [("tournament", "0015_series_points_json")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_series_points_become_a_list_and_back():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("tournament")
    apps = _migrate(BEFORE)
    try:
        Tournament = apps.get_model("tournament", "Tournament")
        Person = apps.get_model("tournament", "Person")
        Player = apps.get_model("tournament", "Player")
        Entry = apps.get_model("tournament", "Entry")
        EntryTotal = apps.get_model("tournament", "EntryTotal")
        tournament = Tournament.objects.create(
            name="RM 2025", slug="m-2025", date=datetime.date(2025, 12, 6)
        )
        totals = {}
        for number, text in enumerate(["26,0,14,0,0", "", "7,110,0,35,0,0,0"], 1):
            person = Person.objects.create(first_name="A", last_name=f"B{number}")
            player = Player.objects.create(
                first_name="A", last_name=f"B{number}", person=person
            )
            entry = Entry.objects.create(
                tournament=tournament, player=player, start_number=number
            )
            totals[text] = EntryTotal.objects.create(
                entry=entry, points=1, series_points=text
            ).pk

        apps = _migrate(AFTER)
        EntryTotal = apps.get_model("tournament", "EntryTotal")
        after = dict(EntryTotal.objects.values_list("pk", "series_points"))
        assert after == {
            totals["26,0,14,0,0"]: [26, 0, 14, 0, 0],
            totals[""]: [],
            totals["7,110,0,35,0,0,0"]: [7, 110, 0, 35, 0, 0, 0],
        }

        apps = _migrate(BEFORE)
        EntryTotal = apps.get_model("tournament", "EntryTotal")
        back = dict(EntryTotal.objects.values_list("pk", "series_points"))
        assert back == {pk: text for text, pk in totals.items()}
    finally:
        _migrate(latest)
