"""Series and who sits where: tables and seats."""

from typing import Self, TypeVar

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models.core import Entry, Tournament

# Generic so that a query's annotations (`table_count` …) stay on its rows
# through the methods below.
_SeriesT = TypeVar("_SeriesT", bound="Series")
_SeatT = TypeVar("_SeatT", bound="Seat")


class SeriesQuerySet(models.QuerySet[_SeriesT]):
    def seated(self) -> Self:
        """Series with a seating (all but drafts)."""
        return self.filter(status__in=Series.SEATED_STATUSES)

    def public(self) -> Self:
        """Released series and later: their seating and results are public,
        and referees enter results for them."""
        return self.filter(status__in=Series.PUBLIC_STATUSES)


class Series(models.Model):
    """One of the tournament's series: a seating and, later, its results."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Entwurf")
        SEATED = "seated", _("ausgelost")
        RELEASED = "released", _("veröffentlicht")
        PLAYING = "playing", _("läuft")
        COMPLETE = "complete", _("abgeschlossen")

    # Seated and later: the series has a seating (a draft has none yet).
    SEATED_STATUSES = (Status.SEATED, Status.RELEASED, Status.PLAYING, Status.COMPLETE)
    # Released and later: public, and open for results.
    PUBLIC_STATUSES = (Status.RELEASED, Status.PLAYING, Status.COMPLETE)

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="series",
        verbose_name=_("Turnier"),
    )
    number = models.PositiveSmallIntegerField(_("Serie"))
    status = models.CharField(
        _("Status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.CharField(_("Los (Startwert)"), max_length=64, blank=True)
    quality = models.JSONField(_("Güte der Setzung"), null=True, blank=True)
    seated_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("ausgelost am")
    )
    released_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("veröffentlicht am")
    )
    # Bumped by every change of the seating: a stale form is refused.
    version = models.PositiveIntegerField(default=0, verbose_name=_("Version"))

    class Mode(models.TextChoices):
        LOT = "lot", _("ausgelost")
        STANDINGS = "standings", _("nach Tabelle gesetzt")

    # How the series was seated: by lot (the tournament's plan), or by the
    # standings after the series before it ("nach Tabelle setzen").
    mode = models.CharField(
        _("Setzung"), max_length=10, choices=Mode.choices, default=Mode.LOT
    )

    objects = SeriesQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("Serie")
        verbose_name_plural = _("Serien")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="series_number_unique"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=Tournament.MAX_SERIES),
                name="series_number_range",
            ),
            models.CheckConstraint(
                condition=Q(
                    status__in=["draft", "seated", "released", "playing", "complete"]
                ),
                name="series_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(mode__in=["lot", "standings"]), name="series_mode_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('Serie')} {self.number}"

    @property
    def is_seated(self) -> bool:
        return self.status in self.SEATED_STATUSES

    @property
    def is_public(self) -> bool:
        return self.status in self.PUBLIC_STATUSES


class Table(models.Model):
    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="tables", verbose_name=_("Serie")
    )
    number = models.PositiveSmallIntegerField(_("Tisch"))
    size = models.PositiveSmallIntegerField(_("Sitze"))
    # Bumped by every change of the table's result: two people saving the
    # same table at once — the second gets a conflict, never an overwrite.
    result_revision = models.PositiveIntegerField(
        default=0, verbose_name=_("Stand des Ergebnisses")
    )

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("Tisch")
        verbose_name_plural = _("Tische")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "number"], name="table_number_unique"
            ),
            models.CheckConstraint(
                condition=Q(size__in=[3, 4]), name="table_size_three_or_four"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_pos"),
        ]

    def __str__(self) -> str:
        return f"{_('Tisch')} {self.number}"


class SeatQuerySet(models.QuerySet[_SeatT]):
    def seated(self) -> Self:
        """Seats of series with a seating (`Series.SEATED_STATUSES`): a
        draft's are none yet."""
        return self.filter(series__status__in=Series.SEATED_STATUSES)


class Seat(models.Model):
    """A player at a table. Seat 1 leads the first hand; the highest seat
    deals first and keeps the score sheet (docs/RULES.md §2)."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="seats", verbose_name=_("Serie")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("Tisch")
    )
    number = models.PositiveSmallIntegerField(pgettext_lazy("seat at a table", "Sitz"))
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seats", verbose_name=_("Meldung")
    )

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["table", "number"]
        verbose_name = pgettext_lazy("seat at a table", "Sitz")
        verbose_name_plural = _("Sitze")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique"),
            models.UniqueConstraint(
                fields=["series", "entry"], name="seat_entry_once_per_series"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=4), name="seat_number_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.number}: {self.entry}"
