"""The players' entry and answers at their table (16a's pages behind the
personal link) apply a submission key at most once: a phone's repeat gets
the first answer, never a second entry or "already answered"."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.factories import make_series
from tests.support.results import FIVE, quick_form
from tournament.core.idempotency import REPLAYED_HEADER
from tournament.models import (
    AuditEvent,
    ResultAnswer,
    ResultVersion,
    SubmissionKey,
    Table,
)

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def players(tournament):
    tournament.table_entry = "one"
    tournament.save()
    series = make_series(tournament, sizes=(4,))
    table = Table.objects.get(series=series)
    return table, {s.number: s.entry for s in table.seats.select_related("entry")}


def at(name, entry):
    kwargs = {
        "slug": entry.tournament.slug,
        "token": entry.link_token,
        "series": 1,
        "table": 1,
    }
    return reverse(f"tournament:{name}", kwargs=kwargs)


def post(url, data, key, **extra):
    return Client(enforce_csrf_checks=True).post(
        url, data, HTTP_IDEMPOTENCY_KEY=key, **JSON, **extra
    )


def test_a_players_entry_sent_twice_is_one_entry(players):
    table, seat = players
    key = str(uuid.uuid4())
    url = at("mine_enter", seat[1])
    first = post(url, quick_form(FIVE, revision=0), key)
    again = post(url, quick_form(FIVE, revision=0), key)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and first.json()["state"] == "entered"
    assert again[REPLAYED_HEADER] == "true"
    assert ResultVersion.objects.filter(table=table).count() == 1
    assert AuditEvent.objects.filter(action__startswith="result").count() == 1


def test_a_stimmt_sent_twice_counts_once_and_is_not_already_answered(players):
    table, seat = players
    post(at("mine_enter", seat[1]), quick_form(FIVE, revision=0), str(uuid.uuid4()))
    key = str(uuid.uuid4())
    url = at("mine_confirm", seat[2])
    first = post(url, {"version": 1}, key)
    again = post(url, {"version": 1}, key)
    assert first.json()["ok"] and first.json()["state"] == "confirmed"
    assert again.json() == first.json()
    assert ResultAnswer.objects.count() == 1
    assert ResultVersion.objects.get(table=table).status == "confirmed"
    # Without the key a repeat is a new answer: refused, nothing written.
    other = post(url, {"version": 1}, str(uuid.uuid4()))
    assert other.status_code in (403, 409) and other.json()["ok"] is False
    assert ResultAnswer.objects.count() == 1


def test_stimmt_nicht_sent_twice_is_one_dispute(players):
    _table, seat = players
    post(at("mine_enter", seat[1]), quick_form(FIVE, revision=0), str(uuid.uuid4()))
    key = str(uuid.uuid4())
    data = {"version": 1, "reason": "Spiel 3 hat Sitz 2 gewonnen"}
    first = post(at("mine_reject", seat[3]), data, key)
    again = post(at("mine_reject", seat[3]), data, key)
    assert first.json()["state"] == "disputed" and again.json() == first.json()
    assert ResultAnswer.objects.filter(answer="disagree").count() == 1


def test_another_players_link_is_another_scope(players):
    """The same key under another link is that player's own submission."""
    _table, seat = players
    key = str(uuid.uuid4())
    post(at("mine_enter", seat[1]), quick_form(FIVE, revision=0), key)
    other = post(at("mine_confirm", seat[2]), {"version": 1}, key)
    assert REPLAYED_HEADER not in other
    assert other.json()["state"] == "confirmed"


def test_a_players_plain_form_with_its_hidden_key_counts_once(players):
    """Without script: the hidden key of the referees' shared form."""
    table, seat = players
    url = at("mine_enter", seat[1])
    page = Client().get(url).content.decode()
    assert 'name="idempotency_key"' in page
    form = quick_form(FIVE, revision=0, idempotency_key=str(uuid.uuid4()))
    phone = Client(enforce_csrf_checks=True)
    first, again = phone.post(url, form), phone.post(url, form)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert ResultVersion.objects.filter(table=table).count() == 1


def test_the_live_forms_are_the_outboxs(players):
    _table, seat = players
    post(at("mine_enter", seat[1]), quick_form(FIVE, revision=0), str(uuid.uuid4()))
    url = reverse(
        "tournament:mine",
        kwargs={"slug": seat[2].tournament.slug, "token": seat[2].link_token},
    )
    page = Client().get(url).content.decode()
    assert page.count("data-outbox") >= 2  # Stimmt and Stimmt nicht


def rows_written():
    return (
        SubmissionKey.objects.count(),
        ResultVersion.objects.count(),
        ResultAnswer.objects.count(),
        AuditEvent.objects.count(),
    )


@pytest.mark.parametrize("accept", [JSON, {}], ids=["outbox", "form"])
def test_refused_submissions_write_nothing_with_or_without_a_key(players, accept):
    _table, seat = players
    post(at("mine_enter", seat[1]), quick_form(FIVE, revision=0), str(uuid.uuid4()))
    before = rows_written()
    bad_game = quick_form(FIVE, revision=1)
    bad_game["g1_marks"] = "99"
    refusals = [
        # The one who entered it confirms it himself: refused (403).
        (at("mine_confirm", seat[1]), {"version": 1}),
        # A version the table does not have: a conflict (409).
        (at("mine_confirm", seat[2]), {"version": 7}),
        # Stimmt nicht without a reason: invalid (400).
        (at("mine_reject", seat[3]), {"version": 1, "reason": ""}),
        # A game with impossible marks: invalid (400).
        (at("mine_enter", seat[2]), bad_game),
        # A stale revision: a conflict.
        (at("mine_enter", seat[2]), quick_form(FIVE, revision=0)),
    ]
    statuses = set()
    for n in range(20):
        url, data = refusals[n % len(refusals)]
        client = Client(enforce_csrf_checks=True)
        keyed = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())} if n % 2 else {}
        answer = client.post(url, data, **keyed, **accept)
        assert answer.status_code >= 400, (url, data)
        statuses.add(answer.status_code)
    assert statuses >= {400, 403, 409}
    assert rows_written() == before


def test_a_refused_submission_repeated_with_its_key_runs_anew(players):
    table, seat = players
    key = str(uuid.uuid4())
    url = at("mine_confirm", seat[2])
    early = post(url, {"version": 1}, key)  # nothing entered yet
    assert early.status_code == 409 and early.json()["state"] == "conflict"
    assert not SubmissionKey.objects.exists()
    post(at("mine_enter", seat[1]), quick_form(FIVE, revision=0), str(uuid.uuid4()))
    # The outbox sends it again with its key: the first applied nothing, so
    # this one is no repeat of it.
    again = post(url, {"version": 1}, key)
    assert again.json()["state"] == "confirmed" and REPLAYED_HEADER not in again
    assert ResultVersion.objects.get(table=table).status == "confirmed"
