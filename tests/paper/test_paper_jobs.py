"""Background jobs: a long export runs outside the request, shows its
progress, ends with a file to download or a clear failure, and a job whose
thread died is not left "running" forever."""

import queue
import threading
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.support.factories import TournamentFactory
from tests.support.results import seated_with_results
from tournament.models import AuditEvent, Job
from tournament.paper import jobs

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("var_dir")]


def start(client, tournament, capture, **data):
    url = reverse("tournament:paper_job_start", args=[tournament.slug])
    with capture(execute=False) as callbacks:
        response = client.post(url, data)
    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "tournament:paper_job", args=[tournament.slug, job.pk]
    )
    assert len(callbacks) == 1  # the thread starts only after the commit
    return job


def test_a_pdf_job_runs_and_its_file_downloads(
    organizer_client, tournament, scored_series, django_capture_on_commit_callbacks
):
    job = start(
        organizer_client,
        tournament,
        django_capture_on_commit_callbacks,
        document="sheets",
        series=1,
        filled="on",
    )
    assert job.status == Job.Status.QUEUED
    assert job.label == "Spiellisten, Serie 1, ausgefüllt"
    assert AuditEvent.objects.filter(action="job.start").count() == 1
    page = organizer_client.get(
        reverse("tournament:paper_job", args=[tournament.slug, job.pk])
    )
    assert 'data-finished="0"' in page.content.decode()
    assert "js/paper.js" in page.content.decode()

    jobs.job_run(job.pk)

    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.progress == 100
    assert job.message == "3 Seiten"
    assert jobs.job_file(job).read_bytes().startswith(b"%PDF-")
    status = organizer_client.get(
        reverse("tournament:paper_job_status", args=[tournament.slug, job.pk])
    ).json()
    assert status["finished"] and status["progress"] == 100
    assert status["download"] == reverse(
        "tournament:paper_job_file", args=[tournament.slug, job.pk]
    )
    response = organizer_client.get(status["download"])
    assert response["Content-Type"] == "application/pdf"
    # Not streamed: under ASGI a file's sync iterator is read whole anyway,
    # in another thread and with Django's warning.
    assert not response.streaming
    assert response.content.startswith(b"%PDF-")
    listing = organizer_client.get(reverse("tournament:paper", args=[tournament.slug]))
    assert status["download"] in listing.content.decode()


def test_a_workbook_job(
    organizer_client, tournament, scored_series, django_capture_on_commit_callbacks
):
    job = start(
        organizer_client,
        tournament,
        django_capture_on_commit_callbacks,
        document="xlsx",
    )
    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert job.file_name.endswith(".xlsx")
    response = organizer_client.get(
        reverse("tournament:paper_job_file", args=[tournament.slug, job.pk])
    )
    assert response["Content-Disposition"].startswith("attachment")


def test_a_job_that_cannot_be_done_says_why(
    organizer_client, tournament, scored_series, django_capture_on_commit_callbacks
):
    job = start(
        organizer_client,
        tournament,
        django_capture_on_commit_callbacks,
        document="sheets",
        series=4,
    )
    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert "Serie 4 ist nicht gesetzt" in job.message
    assert jobs.job_file(job) is None
    response = organizer_client.get(
        reverse("tournament:paper_job_file", args=[tournament.slug, job.pk])
    )
    assert response.status_code == 404


def test_an_unexpected_error_fails_the_job_not_the_site(
    tournament, scored_series, organizer, monkeypatch
):
    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setitem(jobs.RUNNERS, "pdf", broken)
    job = jobs.job_start(
        actor=organizer,
        tournament=tournament,
        kind="pdf",
        label="x",
        params={"document": "cards"},
    )
    jobs.job_run(job.pk)  # does not raise
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert job.message == "Unerwarteter Fehler; bitte erneut versuchen."


def test_a_job_whose_thread_died_is_marked_failed(tournament):
    job = Job.objects.create(tournament=tournament, kind="pdf", label="x")
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.RUNNING, updated_at=timezone.now() - timedelta(hours=1)
    )
    job.refresh_from_db()
    job = jobs.job_refresh(job)
    assert job.status == Job.Status.FAILED
    assert "abgebrochen" in job.message.lower()


def test_a_job_runs_only_once(tournament, organizer):
    job = jobs.job_start(
        actor=organizer,
        tournament=tournament,
        kind="pdf",
        label="x",
        params={"document": "cards"},
    )
    Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE)
    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and not job.file_path


def test_old_jobs_and_their_files_are_pruned(tournament, organizer):
    job = Job.objects.create(
        tournament=tournament, kind="pdf", label="x", file_path="old.pdf"
    )
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(days=3))
    jobs.job_dir().mkdir(parents=True)
    (jobs.job_dir() / "old.pdf").write_bytes(b"%PDF-")
    assert jobs.jobs_prune() == 1
    assert not (jobs.job_dir() / "old.pdf").exists()
    assert not Job.objects.exists()


def test_starting_a_job_leaves_old_jobs_to_the_housekeeping(tournament, organizer):
    """Old jobs go by `manage.py housekeeping` (tests/site/test_housekeeping.py),
    not when somebody starts one."""
    other = TournamentFactory()
    old = Job.objects.create(tournament=other, kind="pdf", label="x")
    Job.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=3))
    jobs.job_start(
        actor=organizer,
        tournament=tournament,
        kind="pdf",
        label="Tischkarten",
        params={"document": "cards"},
    )
    assert Job.objects.filter(pk=old.pk).exists()


def test_jobs_beyond_the_waiting_places_fail_at_once_with_a_message(
    tournament, organizer, monkeypatch, django_capture_on_commit_callbacks
):
    """One job runs, `WAITING` wait; a further one is not queued without
    end (nor a thread started for it): it fails, saying to try again."""
    from tournament.core import background

    release = threading.Event()
    monkeypatch.setattr(jobs, "BOUND", background.Bound(workers=1, queued=1))
    monkeypatch.setattr(jobs, "job_run", lambda job_id: release.wait(60))
    started = []
    try:
        for number in range(3):
            with django_capture_on_commit_callbacks(execute=True):
                started.append(
                    jobs.job_start(
                        actor=organizer,
                        tournament=tournament,
                        kind="pdf",
                        label=f"Tischkarten {number}",
                        params={"document": "cards"},
                    )
                )
    finally:
        release.set()
        background.shutdown()
    statuses = [Job.objects.get(pk=job.pk) for job in started]
    assert [job.status for job in statuses] == [
        Job.Status.QUEUED,
        Job.Status.QUEUED,
        Job.Status.FAILED,
    ]
    assert statuses[2].message == (
        "Gerade warten zu viele Aufträge. Bitte gleich noch einmal."
    )


def test_jobs_belong_to_their_tournament(organizer_client, tournament, organizer):
    other = TournamentFactory()
    job = Job.objects.create(tournament=other, kind="pdf", label="x")
    for name in ("paper_job", "paper_job_status", "paper_job_file"):
        url = reverse(f"tournament:{name}", args=[tournament.slug, job.pk])
        assert organizer_client.get(url).status_code == 404


def test_progress_shows_from_the_cache_before_the_row(tournament):
    from django.core.cache import cache

    job = Job.objects.create(
        tournament=tournament, kind="games_import", label="x", status="running"
    )
    cache.set(jobs._progress_key(job.pk), 40)
    assert jobs.job_progress(job) == 40


@pytest.mark.django_db(transaction=True)
def test_a_job_really_runs_in_a_background_thread(tournament, organizer, monkeypatch):
    """job_start returns with the job queued and runs it in a thread of its
    own: the job waits for the test's word there, so the test sees it
    queued, then waits for the thread's report that it is done."""
    seated_with_results(tournament, organizer)
    test_thread = threading.current_thread()
    go, ran = threading.Event(), queue.Queue()
    real_run = jobs.job_run

    def run_when_told(job_id):
        if threading.current_thread() is not test_thread:  # else it would stall
            go.wait(60)
        try:
            real_run(job_id)
        finally:
            ran.put(threading.current_thread())

    monkeypatch.setattr(jobs, "job_run", run_when_told)
    job = jobs.job_start(
        actor=organizer,
        tournament=tournament,
        kind="pdf",
        label="Tischkarten",
        params={"document": "cards"},
    )
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED  # not run by job_start
    go.set()
    assert ran.get(timeout=60) is not test_thread
    job.refresh_from_db()
    assert job.status == Job.Status.DONE, job.message
    assert jobs.job_file(job).read_bytes().startswith(b"%PDF-")
