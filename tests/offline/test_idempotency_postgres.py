"""Two repeats of one submission at the same moment, on PostgreSQL (CI's
second run): applied once, both answered with the first answer. SQLite
serialises its writers (IMMEDIATE transactions); bench/selfentry.py sends
repeats at once to a real server on a SQLite file."""

import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.support.factories import make_series, make_user
from tests.support.results import FIVE, enter, quick_form
from tests.support.threads import in_threads
from tournament.core import idempotency
from tournament.core.idempotency import HEADER, REPLAYED_HEADER
from tournament.models import AuditEvent, ResultVersion, SubmissionKey, Table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrency tests need PostgreSQL (DATABASE_URL); CI runs them",
    ),
]

KEYED = f"HTTP_{HEADER.upper().replace('-', '_')}"


def at_once(monkeypatch, *calls):
    """Run the calls in threads that meet right before each claims its key,
    inside its transaction: both are in flight, neither has inserted."""
    real = idempotency._claim
    barrier = threading.Barrier(len(calls), timeout=30)

    def claim(*args, **kwargs):
        barrier.wait()
        return real(*args, **kwargs)

    monkeypatch.setattr(idempotency, "_claim", claim)
    results = in_threads(*calls)
    assert not any(isinstance(r, Exception) for r in results), results
    return results


def test_an_entry_and_its_repeat_at_once_are_saved_once(monkeypatch, tournament):
    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    referee = make_user("a", "referee")
    path = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    key = str(uuid.uuid4())
    form = quick_form(FIVE, revision=0)

    def post():
        client = Client()
        client.force_login(referee)
        return client.post(path, form, **{KEYED: key})

    first, second = at_once(monkeypatch, post, post)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    replayed = [r for r in (first, second) if r.get(REPLAYED_HEADER) == "true"]
    assert len(replayed) == 1
    assert ResultVersion.objects.filter(table=table).count() == 1
    assert AuditEvent.objects.filter(action="result.enter").count() == 1
    assert SubmissionKey.objects.count() == 1


def test_a_confirmation_and_its_repeat_at_once_confirm_once(monkeypatch, tournament):
    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    a, b = make_user("a", "referee"), make_user("b", "referee")
    version = enter(table, a)
    table.refresh_from_db()
    path = reverse(
        "tournament:result_confirm",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    key = str(uuid.uuid4())
    data = {"version": version.number, "revision": table.result_revision}

    def post():
        client = Client()
        client.force_login(b)
        return client.post(path, data, HTTP_ACCEPT="application/json", **{KEYED: key})

    answers = [r.json() for r in at_once(monkeypatch, post, post)]
    assert all(a["ok"] for a in answers)  # neither sees a conflict
    assert sorted(a["replayed"] for a in answers) == [False, True]
    version.refresh_from_db()
    assert version.status == "confirmed"
    assert AuditEvent.objects.filter(action="result.confirm").count() == 1
