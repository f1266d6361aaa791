"""Digital tables: a table played in the browser, and its seats."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.bots import BOTS
from tournament.models.core import Entry
from tournament.models.seating import Table


class DigitalTable(models.Model):
    """A table played in the browser: its games as game records
    (docs/FORMATS.md), advanced only through `scoring`. Practice tables belong to
    no tournament."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("wird gespielt")
        FINISHED = "finished", _("beendet")
        STOPPED = "stopped", _("abgebrochen")

    table = models.OneToOneField(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="digital",
        verbose_name=_("Tisch"),
    )
    rules = models.CharField(
        max_length=20, default="championship", verbose_name=_("Regeln")
    )
    start_marks = models.PositiveSmallIntegerField(
        default=7, verbose_name=_("Schräm zu Beginn")
    )
    win_bonus = models.PositiveSmallIntegerField(default=7, verbose_name=_("Siegbonus"))
    size = models.PositiveSmallIntegerField(_("Sitze"))
    games_total = models.PositiveSmallIntegerField(default=5, verbose_name=_("Spiele"))
    # One game record per game started, the current one last.
    games = models.JSONField(default=list, blank=True, verbose_name=_("Spielverlauf"))
    # Bumped by every action: a message sent against an older state is stale.
    version = models.PositiveIntegerField(default=0, verbose_name=_("Version"))
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.PLAYING,
        verbose_name=_("Status"),
    )
    # Only tests set it: otherwise the deal comes from the system's
    # randomness, and the cards dealt are kept in the record.
    deal_seed = models.CharField(
        max_length=64, blank=True, verbose_name=_("Startwert der Kartenverteilung")
    )
    # The bot runner holding the table until then (one runner per table,
    # across worker processes).
    runner_until = models.DateTimeField(
        null=True, blank=True, verbose_name=_("Bots laufen bis")
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
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("geändert am"))

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("Digitaler Tisch")
        verbose_name_plural = _("Digitale Tische")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished", "stopped"]),
                name="digital_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(size__gte=3, size__lte=4), name="digital_size_range"
            ),
            models.CheckConstraint(
                condition=Q(games_total__gte=1, games_total__lte=10),
                name="digital_games_total_range",
            ),
        ]

    def __str__(self) -> str:
        if self.table_id is None:
            return str(_("Übungstisch %(id)s") % {"id": self.pk})
        return str(self.table)

    @property
    def is_practice(self) -> bool:
        return self.table_id is None


class DigitalSeat(models.Model):
    """A seat of a digital table: a person with a private link, or a bot."""

    table = models.ForeignKey(
        DigitalTable,
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=_("Digitaler Tisch"),
    )
    number = models.PositiveSmallIntegerField(pgettext_lazy("seat at a table", "Sitz"))
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Meldung"),
    )
    # "" for a person, else the rules module's bot name (scoring.bots.BOTS).
    bot = models.CharField(_("Bot"), max_length=20, blank=True)
    # The private link's secret: whoever has it plays this seat.
    token = models.CharField(
        max_length=64, unique=True, verbose_name=_("Link-Schlüssel")
    )
    # The highest message number this seat has sent: repeats change nothing.
    last_seq = models.PositiveBigIntegerField(
        default=0, verbose_name=_("letzte Nachricht")
    )
    # When the seat's phone was last known to be there: its socket connected,
    # closed or beat (tournament.digital.away), its page or poll came. None:
    # the link was never opened.
    seen_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("zuletzt gesehen")
    )
    # A bot plays because the phone was gone too long (not by the
    # organizer's choice): opening the link again gives the seat back.
    away = models.BooleanField(default=False, verbose_name=_("Handy weg"))

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("Digitaler Sitz")
        verbose_name_plural = _("Digitale Sitze")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], name="digital_seat_unique"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=4),
                name="digital_seat_number_range",
            ),
            models.CheckConstraint(
                condition=Q(bot__in=["", *sorted(BOTS)]),
                name="digital_seat_bot_valid",
            ),
            models.CheckConstraint(
                condition=Q(away=False) | ~Q(bot=""),
                name="digital_seat_away_has_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.number}"
