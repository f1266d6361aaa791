"""A submission with a key is applied at most once; its repeat gets the first
answer (tournament/core/idempotency, issue 16.3). Here on the referees'
entry and confirmation, through the site's own forms."""

import json
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.support.results import FIVE, enter, quick_form, results_written
from tournament.core import idempotency
from tournament.core.idempotency import (
    FIELD,
    HEADER,
    REPLAYED_HEADER,
    submission_keys_expire,
)
from tournament.models import ResultVersion, SubmissionKey, Table
from tournament.results import services as results_services

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def keyed(key: str) -> dict[str, str]:
    return {f"HTTP_{HEADER.upper().replace('-', '_')}": key}


@pytest.fixture
def table(series):
    return Table.objects.get(series=series, number=1)


def urls(table):
    kwargs = {
        "slug": table.series.tournament.slug,
        "series": table.series.number,
        "table": table.number,
    }
    return {
        "table": reverse("tournament:table_result", kwargs=kwargs),
        "confirm": reverse("tournament:result_confirm", kwargs=kwargs),
        "reject": reverse("tournament:result_reject", kwargs=kwargs),
        "overview": reverse(
            "tournament:results", kwargs={"slug": table.series.tournament.slug}
        ),
    }


def test_an_entry_sent_twice_with_its_key_is_saved_once_and_answered_alike(
    client, referee, table
):
    client.force_login(referee)
    key = str(uuid.uuid4())
    form = quick_form(FIVE, revision=0)
    first = client.post(urls(table)["table"], form, **keyed(key))
    before = results_written()
    again = client.post(urls(table)["table"], form, **keyed(key))
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"] == urls(table)["overview"]
    assert again[REPLAYED_HEADER] == "true"
    assert REPLAYED_HEADER not in first
    assert results_written() == before  # nothing written the second time
    assert ResultVersion.objects.filter(table=table).count() == 1
    # The repeat shows the first answer's message again (its cookie was lost).
    page = client.get(again["Location"]).content.decode()
    assert "Ergebnis von Tisch 1 gespeichert" in page


def test_without_a_key_a_repeat_is_a_second_request(client, referee, table):
    """What the key prevents: the same form again is refused as stale."""
    client.force_login(referee)
    form = quick_form(FIVE, revision=0)
    assert client.post(urls(table)["table"], form).status_code == 302
    again = client.post(urls(table)["table"], form)
    assert again.status_code == 200  # the form again, with the conflict
    assert ResultVersion.objects.filter(table=table).count() == 1


def test_the_forms_hidden_key_works_without_script(client, referee, table):
    client.force_login(referee)
    page = client.get(urls(table)["table"]).content.decode()
    assert f'name="{FIELD}"' in page
    form = quick_form(FIVE, revision=0, **{FIELD: str(uuid.uuid4())})
    first = client.post(urls(table)["table"], form)
    again = client.post(urls(table)["table"], form)  # a double tap
    assert first.status_code == again.status_code == 302
    assert again[REPLAYED_HEADER] == "true"
    assert ResultVersion.objects.filter(table=table).count() == 1


def test_a_confirmation_repeated_is_answered_as_the_first_not_as_a_conflict(
    client, referee, referee2, table
):
    version = enter(table, referee)
    table.refresh_from_db()
    client.force_login(referee2)
    data = {"version": version.number, "revision": table.result_revision}
    key = str(uuid.uuid4())
    first = client.post(urls(table)["confirm"], data, **keyed(key), **JSON)
    again = client.post(urls(table)["confirm"], data, **keyed(key), **JSON)
    assert first.json()["ok"] and not first.json()["replayed"]
    body = again.json()
    assert body["ok"] and body["replayed"]
    assert body["location"] == urls(table)["overview"]
    assert body["messages"] == [
        {"level": "success", "text": "Ergebnis von Tisch 1 bestätigt."}
    ]
    version.refresh_from_db()
    assert version.status == "confirmed"
    # Without the key the same confirmation is a stale one: refused.
    third = client.post(
        urls(table)["confirm"], data, **JSON, **keyed(str(uuid.uuid4()))
    )
    assert not third.json()["ok"]
    assert third.json()["messages"][0]["level"] == "error"


def test_a_form_with_mistakes_keeps_no_key_and_its_repeat_gets_them_again(
    client, referee, table
):
    client.force_login(referee)
    form = quick_form(FIVE, revision=0)
    del form["g3_winner"]
    key = str(uuid.uuid4())
    first = client.post(urls(table)["table"], form, **keyed(key), **JSON).json()
    assert not SubmissionKey.objects.exists()
    again = client.post(urls(table)["table"], form, **keyed(key), **JSON).json()
    assert first["ok"] is False and first["status"] == 200
    assert 'role="alert"' in first["html"] and 'role="alert"' in again["html"]
    assert not again["replayed"]
    assert not ResultVersion.objects.exists() and not SubmissionKey.objects.exists()


def test_a_refusal_by_message_keeps_no_key(client, referee, table):
    """A stale confirmation: redirected with an error message, nothing
    applied, nothing kept."""
    version = enter(table, referee)
    client.force_login(referee)  # his own entry: refused
    data = {"version": version.number, "revision": 0}
    answer = client.post(urls(table)["confirm"], data, **keyed(str(uuid.uuid4())))
    assert answer.status_code == 302
    assert not SubmissionKey.objects.exists()


def test_the_same_key_with_other_content_is_refused(client, referee, table):
    client.force_login(referee)
    key = str(uuid.uuid4())
    client.post(urls(table)["table"], quick_form(FIVE, revision=0), **keyed(key))
    other = quick_form(list(reversed(FIVE)), revision=0)
    before = results_written()
    refused = client.post(urls(table)["table"], other, **keyed(key), **JSON)
    assert refused.status_code == 422
    assert "anderem Inhalt" in refused.json()["messages"][0]["text"]
    assert results_written() == before


def test_a_new_csrf_token_is_not_other_content(client, referee, table):
    """The outbox sends the token it has when it sends, not the form's."""
    client.force_login(referee)
    key = str(uuid.uuid4())
    form = quick_form(FIVE, revision=0)
    client.post(
        urls(table)["table"], {**form, "csrfmiddlewaretoken": "a"}, **keyed(key)
    )
    again = client.post(
        urls(table)["table"], {**form, "csrfmiddlewaretoken": "b"}, **keyed(key)
    )
    assert again.status_code == 302 and again[REPLAYED_HEADER] == "true"


def test_a_key_belongs_to_its_sender(client, referee, referee2, table):
    """Another person's request with the same key is their own: applied (or
    refused) as such, never answered with the first person's answer."""
    key = str(uuid.uuid4())
    client.force_login(referee)
    client.post(urls(table)["table"], quick_form(FIVE, revision=0), **keyed(key))
    client.force_login(referee2)
    other = client.post(
        urls(table)["table"], quick_form(FIVE, revision=0), **keyed(key), **JSON
    )
    assert REPLAYED_HEADER not in other
    assert other.json()["ok"] is False  # stale revision: the conflict is theirs
    # The first person's key stays; the refusal keeps none.
    assert SubmissionKey.objects.filter(key=key).count() == 1


def test_a_broken_key_is_refused_and_nothing_is_saved(client, referee, table):
    client.force_login(referee)
    response = client.post(
        urls(table)["table"], quick_form(FIVE, revision=0), **keyed("not-a-uuid")
    )
    assert response.status_code == 400
    assert not ResultVersion.objects.exists()


def test_a_failed_attempt_keeps_no_key_and_the_repeat_is_applied(
    client, referee, table, monkeypatch
):
    """A 500 means nothing was applied: the phone's next try runs anew."""
    real = results_services.result_enter
    calls = []

    def fail_once(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return real(**kwargs)

    monkeypatch.setattr(results_services, "result_enter", fail_once)
    client.force_login(referee)
    client.raise_request_exception = False
    key = str(uuid.uuid4())
    form = quick_form(FIVE, revision=0)
    assert client.post(urls(table)["table"], form, **keyed(key)).status_code == 500
    assert not SubmissionKey.objects.exists()
    again = client.post(urls(table)["table"], form, **keyed(key))
    assert again.status_code == 302 and REPLAYED_HEADER not in again
    assert ResultVersion.objects.filter(table=table).count() == 1


def test_a_refused_permission_keeps_no_key(client, table):
    """The permission check comes first: a stranger's request costs no row."""
    response = client.post(
        urls(table)["table"], quick_form(FIVE, revision=0), **keyed(str(uuid.uuid4()))
    )
    assert response.status_code == 302 and "anmelden" in response["Location"]
    assert not SubmissionKey.objects.exists()


def test_a_get_is_never_keyed(client, referee, table):
    client.force_login(referee)
    assert (
        client.get(urls(table)["table"], **keyed(str(uuid.uuid4()))).status_code == 200
    )
    assert not SubmissionKey.objects.exists()


def test_old_keys_are_forgotten_after_days(settings, client, referee, table):
    settings.IDEMPOTENCY_KEY_DAYS = 3
    client.force_login(referee)
    client.post(
        urls(table)["table"], quick_form(FIVE, revision=0), **keyed(str(uuid.uuid4()))
    )
    assert SubmissionKey.objects.count() == 1
    assert submission_keys_expire(now=timezone.now() + timedelta(days=2)) == 0
    assert submission_keys_expire(now=timezone.now() + timedelta(days=4)) == 1
    assert not SubmissionKey.objects.exists()


def test_a_write_leaves_old_keys_to_the_housekeeping(client, referee, table):
    """Keys expire by `manage.py housekeeping` (tests/site/test_housekeeping.py),
    never as a side effect of somebody's submission."""
    old = SubmissionKey.objects.create(
        key=uuid.uuid4(),
        actor="anon",
        path="/x/",
        fingerprint="",
        created_at=timezone.now() - timedelta(days=30),
    )
    client.force_login(referee)
    client.post(
        urls(table)["table"], quick_form(FIVE, revision=0), **keyed(str(uuid.uuid4()))
    )
    assert SubmissionKey.objects.filter(pk=old.pk).exists()
    assert SubmissionKey.objects.count() == 2


def test_the_first_answer_is_kept_with_its_key(client, referee, table):
    client.force_login(referee)
    key = str(uuid.uuid4())
    client.post(urls(table)["table"], quick_form(FIVE, revision=0), **keyed(key))
    record = SubmissionKey.objects.get(key=key)
    assert record.actor == f"user:{referee.pk}"
    assert record.path == urls(table)["table"]
    assert record.status == 302 and record.location == urls(table)["overview"]
    assert json.loads(json.dumps(record.messages))[0][1].startswith(
        "Ergebnis von Tisch 1 gespeichert"
    )


def test_on_sqlite_a_submission_waits_its_turn_and_else_comes_back_later(
    client, referee, table, monkeypatch
):
    """Keyed submissions of one process queue for SQLite's one writer; one
    that waited too long is told to try again (503: the phone repeats it)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the queue is SQLite's")
    monkeypatch.setattr(idempotency, "_SQLITE_QUEUE_SECONDS", 0.01)
    client.force_login(referee)
    form = quick_form(FIVE, revision=0)
    key = str(uuid.uuid4())
    with idempotency._SQLITE_WRITER:  # somebody else is writing
        busy = client.post(urls(table)["table"], form, **keyed(key), **JSON)
    assert busy.status_code == 503 and busy["Retry-After"]
    assert not SubmissionKey.objects.exists()
    assert client.post(urls(table)["table"], form, **keyed(key)).status_code == 302
    assert ResultVersion.objects.filter(table=table).count() == 1


@pytest.mark.django_db(transaction=True)
def test_on_sqlite_the_next_submission_need_not_wait_for_what_runs_after_a_commit(
    client, referee, table, monkeypatch
):
    """The live pages are told of a result after its commit; on SQLite the
    next keyed submission may begin meanwhile (the writer's turn ends with
    the commit)."""
    from django.db import connection

    from tournament.live import invalidation

    if connection.vendor != "sqlite":
        pytest.skip("the queue is SQLite's")
    held_while_telling = []
    publish = invalidation.publish

    def telling(*args, **kwargs):
        held_while_telling.append(idempotency._SQLITE_WRITER.locked())
        return publish(*args, **kwargs)

    monkeypatch.setattr(invalidation, "publish", telling)
    client.force_login(referee)
    form = quick_form(FIVE, revision=0)
    saved = client.post(urls(table)["table"], form, **keyed(str(uuid.uuid4())))
    assert saved.status_code == 302
    assert held_while_telling and not any(held_while_telling)
    assert not idempotency._SQLITE_WRITER.locked()
