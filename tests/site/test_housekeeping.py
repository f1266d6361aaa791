"""Housekeeping is a command of its own (`manage.py housekeeping`, on a
timer): it lets go of what has expired, in every tournament, and of
nothing else; `manage.py serve` runs it on the process's timer."""

import uuid
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.support.factories import TournamentFactory, make_series
from tournament.core import background
from tournament.models import Job, SheetPhoto, SubmissionKey, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("var_dir")]


def _aged(model, row, field: str, days: float) -> None:
    model.objects.filter(pk=row.pk).update(
        **{field: timezone.now() - timedelta(days=days)}
    )


def _world(slug: str) -> dict[str, object]:
    """A tournament with an expired and a fresh row of each kind."""
    tournament = TournamentFactory(slug=slug)
    table = Table.objects.get(series=make_series(tournament, sizes=(4,)), number=1)
    rows: dict[str, object] = {}
    for age, days in (("old", 30), ("new", 0.5)):
        key = SubmissionKey.objects.create(
            key=uuid.uuid4(), actor="anon", path=f"/t/{slug}/{age}/", fingerprint=""
        )
        _aged(SubmissionKey, key, "created_at", days)
        photo = SheetPhoto.objects.create(
            table=table, sha256="0" * 64, size=1, file_name="photo.jpg", reading={}
        )
        _aged(SheetPhoto, photo, "uploaded_at", days)
        job = Job.objects.create(tournament=tournament, kind="pdf", label=age)
        _aged(Job, job, "created_at", days)
        rows |= {f"{age}_key": key, f"{age}_photo": photo, f"{age}_job": job}
    return rows


def test_housekeeping_removes_only_what_expired_in_every_tournament():
    worlds = [_world("eins"), _world("zwei")]
    out = StringIO()
    call_command("housekeeping", stdout=out)
    assert "2 submission key(s), 2 photo(s), 2 job(s) deleted." in out.getvalue()
    for rows in worlds:
        for name, row in rows.items():
            exists = type(row).objects.filter(pk=row.pk).exists()
            assert exists == name.startswith("new"), name


def test_housekeeping_is_quiet_for_the_starts_of_make_run():
    out = StringIO()
    call_command("housekeeping", "-v0", stdout=out)
    assert out.getvalue() == ""


def test_serve_runs_the_housekeeping_on_the_processs_timer(monkeypatch):
    from tournament.management.commands import serve

    ran = []
    monkeypatch.setattr(serve.uvicorn, "run", lambda *a, **k: ran.append(k))
    monkeypatch.setattr(serve, "give_memory_back", lambda: None)
    monkeypatch.setattr(serve, "raise_open_files", lambda: 65536)
    background.shutdown()
    try:
        call_command("serve", "--housekeeping", "600")
        assert 599 < background.due()["housekeeping"] <= 600
        assert ran and ran[0]["lifespan"] != "off"
    finally:
        background.shutdown()
    call_command("serve", "--housekeeping", "0")
    assert "housekeeping" not in background.due()
