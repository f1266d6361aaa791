"""Submissions applied under a client's idempotency key: at most once.

A phone in a hall with bad Wi-Fi sends an entry, the server saves it, and
the answer is lost on the way back: the phone sends it again. Each
submission carries a key the phone made; the server applies a key at most
once and answers a repeat with the first answer (tournament.core.idempotency).
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SubmissionKey(models.Model):
    """One POST applied under `key` by `actor` to `path`, and its first
    answer: the status, a redirect's target or the body, and the messages
    it showed. Unique per actor and address, so one person's key never
    answers another's request; kept for days (IDEMPOTENCY_KEY_DAYS), not
    forever."""

    key = models.UUIDField(_("Schlüssel"))
    # "user:<pk>" for a signed-in person, else the scope the view names (a
    # player's link) or "anon": the address then carries the secret.
    actor = models.CharField(_("Absender"), max_length=80)
    path = models.CharField(_("Adresse"), max_length=255)
    # What was sent (its fields, without the CSRF token): the same key with
    # other content is refused instead of answered with another's answer.
    fingerprint = models.CharField(max_length=64, verbose_name=_("Fingerabdruck"))
    status = models.PositiveSmallIntegerField(_("Antwortstatus"), default=0)
    location = models.CharField(max_length=500, blank=True, verbose_name=_("Ziel"))
    content_type = models.CharField(
        max_length=100, blank=True, verbose_name=_("Inhaltsart")
    )
    body = models.BinaryField(blank=True, default=b"", verbose_name=_("Antwort"))
    messages = models.JSONField(default=list, blank=True, verbose_name=_("Meldungen"))
    created_at = models.DateTimeField(_("angenommen"), default=timezone.now)

    class Meta:
        verbose_name = _("Übermittlung")
        verbose_name_plural = _("Übermittlungen")
        constraints = [
            # The database itself refuses a second row for one key: two
            # repeats at the same moment cannot both be applied.
            models.UniqueConstraint(
                fields=["actor", "path", "key"], name="submission_key_once"
            ),
        ]
        indexes = [models.Index(fields=["created_at"], name="submission_key_age")]

    def __str__(self) -> str:
        return f"{self.key} {self.actor} {self.path}"
