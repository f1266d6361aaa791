"""Background jobs (long exports and imports) and their files."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models.core import Tournament


class Job(models.Model):
    """A long export or import run outside the request (tournament.paper.jobs):
    its state and progress for the page that polls it, and, when done, the
    file it made under VAR_DIR/jobs/."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("wartet")
        RUNNING = "running", _("läuft")
        DONE = "done", _("fertig")
        FAILED = "failed", _("fehlgeschlagen")

    # A random id: the download URL of a file is not guessable.
    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("Nr.")
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="jobs",
        verbose_name=_("Turnier"),
    )
    kind = models.CharField(max_length=30, verbose_name=_("Art"))
    params = models.JSONField(default=dict, blank=True, verbose_name=_("Angaben"))
    label = models.CharField(_("Auftrag"), max_length=200)
    status = models.CharField(
        _("Status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("Fortschritt"), default=0)
    message = models.CharField(
        pgettext_lazy("job message", "Meldung"), max_length=500, blank=True
    )
    file_name = models.CharField(
        max_length=200, blank=True, verbose_name=_("Dateiname")
    )
    file_path = models.CharField(
        max_length=300, blank=True, verbose_name=_("Dateipfad")
    )
    content_type = models.CharField(
        max_length=100, blank=True, verbose_name=_("Dateityp")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("angelegt von"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("angelegt am"))
    # Touched by every progress step: a job that stops moving is stale.
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("geändert am"))
    finished_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("fertig am")
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("Auftrag")
        verbose_name_plural = _("Aufträge")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]),
                name="job_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(progress__lte=100), name="job_progress_percent"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in {self.Status.DONE, self.Status.FAILED}
