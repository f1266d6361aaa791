"""A backup written before the kept series points became a JSON list (the
played demo of tests/standings/test_json_bytes.py, backed up by that
version) restores into the same standings, byte for byte in the API."""

import json
import os
from pathlib import Path

import pytest
from django.test import Client

from tests.standings.test_json_bytes import EXPECTED, _bodies, played_demo
from tournament.backup.services import tournament_backup, tournament_restore
from tournament.models import EntryTotal

pytestmark = pytest.mark.django_db

OLD_BACKUP = Path(__file__).with_name("backup_before_json_points.json")


def test_an_older_backup_restores_into_the_same_standings(monkeypatch, organizer):
    if os.environ.get("WRITE_EXPECTED"):
        tournament = played_demo(monkeypatch, organizer)
        doc = tournament_backup(tournament=tournament)
        OLD_BACKUP.write_text(json.dumps(doc, ensure_ascii=False, indent=0))
        tournament.slug = "json-bytes-before"
        tournament.save()
    doc = json.loads(OLD_BACKUP.read_text())
    restored = tournament_restore(doc=doc, slug="json-bytes")
    points = EntryTotal.objects.filter(entry__tournament=restored).values_list(
        "series_points", flat=True
    )
    assert points and all(
        isinstance(p, list) and all(isinstance(n, int) for n in p) for p in points
    )
    assert _bodies(Client(), restored.slug) == EXPECTED.read_bytes()
