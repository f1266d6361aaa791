"""Long exports and imports outside the request: a Job row, the process's
pool "jobs" (`core.background`), a file under VAR_DIR/jobs/, and a page that
polls the progress.

`job_start` records the job and, once the transaction has committed, hands
it to the pool. One job renders at a time per process (they are CPU-bound;
requests keep being served meanwhile), at most `WAITING` more wait their
turn; a job beyond them fails at once with a message saying to try again
shortly. Progress goes to the cache as well as the row, so it shows even
while an import holds its transaction open. A job whose thread died with its
process is marked failed the next time somebody looks at it; jobs and their
files are pruned after two days (`jobs_prune`, by `manage.py housekeeping`).
Works the same on SQLite and PostgreSQL.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournament.core import background
from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor, acting_user
from tournament.models import Job, Tournament

logger = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=10)
KEEP_FOR = timedelta(days=2)
# One job at a time (CPU-bound, and WeasyPrint renders one at a time
# anyway), and a few more waiting: several organizers at once, each with a
# document or two.
WAITING = 8
BOUND = background.Bound(workers=1, queued=WAITING)

Progress = Callable[[int], None]


@dataclass(frozen=True)
class JobOutput:
    """What a job made: a file to download, or only a message."""

    message: str = ""
    content: bytes | None = None
    filename: str = ""
    content_type: str = ""


def job_dir() -> Path:
    return Path(settings.VAR_DIR) / "jobs"


def _pdf(
    tournament: Tournament, params: dict[str, Any], progress: Progress
) -> JobOutput:
    from tournament.paper.pdf import PDF_CONTENT_TYPE, document_pdf

    document = document_pdf(
        tournament=tournament,
        kind=params["document"],
        series_number=params.get("series"),
        filled=bool(params.get("filled")),
        top=int(params.get("top") or 3),
        base_url=str(params.get("base_url") or ""),
        start_number=int(params["number"]) if params.get("number") else None,
        progress=progress,
    )
    return JobOutput(
        message=_("%(n)d Seiten") % {"n": document.pages},
        content=document.content,
        filename=document.filename,
        content_type=PDF_CONTENT_TYPE,
    )


def _xlsx(
    tournament: Tournament, params: dict[str, Any], progress: Progress
) -> JobOutput:
    from tournament.core.workbook import XLSX_CONTENT_TYPE
    from tournament.paper.workbook import results_filename, results_workbook

    return JobOutput(
        content=results_workbook(tournament=tournament, progress=progress),
        filename=results_filename(tournament),
        content_type=XLSX_CONTENT_TYPE,
    )


def _games_import(
    tournament: Tournament, params: dict[str, Any], progress: Progress
) -> JobOutput:
    from django.contrib.auth import get_user_model

    from tournament.paper.games_import import games_import_apply

    actor_id = params.get("actor")
    actor = (
        get_user_model().objects.filter(pk=actor_id).first()
        if actor_id is not None
        else None
    )
    count = games_import_apply(
        actor=actor,
        tournament=tournament,
        tables=params["tables"],
        filename=params.get("filename", ""),
        progress=progress,
    )
    return JobOutput(
        message=_("%(n)d Tischergebnisse importiert und bestätigt.") % {"n": count}
    )


RUNNERS: dict[str, Callable[[Tournament, dict[str, Any], Progress], JobOutput]] = {
    "pdf": _pdf,
    "xlsx": _xlsx,
    "games_import": _games_import,
}


def _progress_key(job_id: UUID) -> str:
    return f"job-progress:{job_id}"


def job_start(
    *,
    actor: Actor,
    tournament: Tournament,
    kind: str,
    label: str,
    params: dict[str, Any],
) -> Job:
    """Record a job and run it in the background once this transaction has
    committed. The language of the request goes with it."""
    if kind not in RUNNERS:
        raise ValueError(f"unknown job kind {kind!r}")
    with transaction.atomic():
        job = Job.objects.create(
            tournament=tournament,
            kind=kind,
            label=label[:200],
            params={**params, "language": translation.get_language()},
            created_by=acting_user(actor),
        )
        audit_record(
            actor=actor,
            action="job.start",
            obj=job,
            tournament=tournament,
            after={"kind": kind, "label": job.label},
        )
        transaction.on_commit(lambda: _spawn(job.pk))
    return job


def _spawn(job_id: UUID) -> None:
    try:
        background.pool("jobs", BOUND).submit(job_run, job_id)
    except background.Full:
        _set(
            job_id,
            status=Job.Status.FAILED,
            message=_("Gerade warten zu viele Aufträge. Bitte gleich noch einmal."),
            finished_at=timezone.now(),
        )


def _set(job_id: UUID, **fields: Any) -> None:
    Job.objects.filter(pk=job_id).update(updated_at=timezone.now(), **fields)


def job_run(job_id: UUID) -> None:
    """Run one job to the end (the pool's call; tests call it directly).
    Never raises: a failure is recorded on the job for the organizer."""
    try:
        _run(job_id)
    finally:
        if not connection.in_atomic_block:
            close_old_connections()
            connection.close()


def _write_file(job_id: UUID, output: JobOutput, content: bytes) -> dict[str, Any]:
    """The job's file (`output`'s `content`) written under `job_dir`; the
    job's fields naming it."""
    directory = job_dir()
    directory.mkdir(parents=True, exist_ok=True)
    suffix = Path(output.filename).suffix
    target = directory / f"{job_id}{suffix}"
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(content)
    partial.replace(target)  # never a half-written download
    return {
        "file_path": target.name,
        "file_name": output.filename[:200],
        "content_type": output.content_type,
    }


def _run(job_id: UUID) -> None:
    job = Job.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None or job.status != Job.Status.QUEUED:
        return
    _set(job_id, status=Job.Status.RUNNING, progress=1)
    last = [1]

    def progress(percent: int) -> None:
        percent = max(1, min(99, percent))
        if percent <= last[0]:
            return
        last[0] = percent
        cache.set(_progress_key(job_id), percent, timeout=3600)
        if not connection.in_atomic_block:
            _set(job_id, progress=percent)

    language = job.params.get("language") or settings.LANGUAGE_CODE
    try:
        with translation.override(language):
            output = RUNNERS[job.kind](job.tournament, job.params, progress)
    except UserError as error:
        _set(
            job_id,
            status=Job.Status.FAILED,
            message=error.message[:500],
            finished_at=timezone.now(),
        )
        return
    except Exception:
        logger.exception("Job %s (%s) failed", job_id, job.kind)
        with translation.override(language):
            message = _("Unerwarteter Fehler; bitte erneut versuchen.")
        _set(
            job_id,
            status=Job.Status.FAILED,
            message=message,
            finished_at=timezone.now(),
        )
        return
    fields: dict[str, Any] = {"message": output.message[:500]}
    if output.content is not None:
        fields.update(_write_file(job_id, output, output.content))
    _set(
        job_id,
        status=Job.Status.DONE,
        progress=100,
        finished_at=timezone.now(),
        **fields,
    )
    cache.delete(_progress_key(job_id))


def job_progress(job: Job) -> int:
    """The latest progress in percent (the cache knows it before the row)."""
    if job.is_finished:
        return 100 if job.status == Job.Status.DONE else job.progress
    cached = cache.get(_progress_key(job.pk))
    return max(job.progress, int(cached or 0))


def job_refresh(job: Job) -> Job:
    """Mark a job failed whose thread is gone (its process was restarted)."""
    if not job.is_finished and timezone.now() - job.updated_at > STALE_AFTER:
        _set(
            job.pk,
            status=Job.Status.FAILED,
            message=_("Abgebrochen (der Server wurde neu gestartet?)."),
            finished_at=timezone.now(),
        )
        job.refresh_from_db()
    return job


def job_file(job: Job) -> Path | None:
    """The finished job's file, if it is still there."""
    if job.status != Job.Status.DONE or not job.file_path:
        return None
    path = job_dir() / Path(job.file_path).name
    return path if path.is_file() else None


def jobs_recent(tournament: Tournament, *, limit: int = 10) -> QuerySet[Job]:
    return Job.objects.filter(tournament=tournament).order_by("-created_at")[:limit]


def jobs_prune() -> int:
    """Delete jobs (and their files) older than KEEP_FOR."""
    old = Job.objects.filter(created_at__lt=timezone.now() - KEEP_FOR)
    for path in old.exclude(file_path="").values_list("file_path", flat=True):
        (job_dir() / Path(path).name).unlink(missing_ok=True)
    count, _deleted = old.delete()
    return count
