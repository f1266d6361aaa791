"""History across tournaments: champions of the years before the site
(imported), and season rankings (Wertungen) over a set of tournaments."""

from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.core import Person, Tournament, lower_case_slug

# Points per place, best place first: "25,20,16" (at most 100 places).
place_points_list = RegexValidator(
    r"^\d{1,4}(,\d{1,4}){0,99}\Z",
    _("Bitte Punkte pro Platz als Zahlen mit Komma, z. B. 25,20,16,13."),
    code="invalid",
)


class PastChampion(models.Model):
    """A champion from the imported list (year, name, club, points): the
    years before the site kept the championship. A year the site played
    (a tournament marked as the championship) comes from its standings."""

    year = models.PositiveSmallIntegerField(_("Jahr"))
    name = models.CharField(_("Name"), max_length=201)
    club = models.CharField(_("Verein"), max_length=150, blank=True)
    points = models.PositiveIntegerField(_("Punkte"), null=True, blank=True)
    # Only when the name and club match a person exactly (never guessed).
    person = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="past_titles",
        verbose_name=_("Person"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("angelegt am"))

    class Meta:
        ordering = ["-year", "name"]
        verbose_name = _("Meister (importiert)")
        verbose_name_plural = _("Meister (importiert)")
        constraints = [
            models.UniqueConstraint(
                fields=["year", "name"], name="past_champion_unique_per_year"
            ),
            models.CheckConstraint(
                condition=Q(year__gte=1900, year__lte=2200),
                name="past_champion_year_range",
            ),
            models.CheckConstraint(
                condition=~Q(name=""), name="past_champion_name_required"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.year} {self.name}"


class Ranking(models.Model):
    """A season ranking (Wertung) over a chosen set of tournaments: each
    counts a person's place (points by place) or tournament points; the best
    `best_of` results count (all when empty); equal totals share a place."""

    class Method(models.TextChoices):
        PLACES = "places", _("Punkte nach Platz")
        POINTS = "points", _("Turnierpunkte")

    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(
        _("Kurzname"), max_length=80, unique=True, validators=[lower_case_slug]
    )
    method = models.CharField(
        _("Wertung nach"),
        max_length=10,
        choices=Method.choices,
        default=Method.PLACES,
    )
    place_points = models.CharField(
        _("Punkte pro Platz"),
        max_length=500,
        blank=True,
        default="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1",
        validators=[place_points_list],
        help_text=_(
            "Platz 1, 2, 3 … durch Komma getrennt; wer dahinter landet, bekommt 0."
        ),
    )
    best_of = models.PositiveSmallIntegerField(
        _("Es zählen die besten … Ergebnisse"),
        null=True,
        blank=True,
        help_text=_(
            "Z. B. 4: von sechs Turnieren zählen die vier besten, zwei werden "
            "gestrichen. Leer lassen: alle Ergebnisse zählen."
        ),
    )
    tournaments = models.ManyToManyField(
        Tournament,
        verbose_name=_("Turniere"),
        related_name="rankings",
        blank=True,
    )
    # Bumped by every change: a stale form gets a conflict, and the live
    # page's ETag follows it.
    version = models.PositiveIntegerField(default=0, verbose_name=_("Version"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("angelegt am"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("geändert am"))

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("Wertung")
        verbose_name_plural = _("Wertungen")
        constraints = [
            models.CheckConstraint(
                condition=Q(method__in=["places", "points"]),
                name="ranking_method_valid",
            ),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1),
                name="ranking_best_of_positive",
            ),
            models.CheckConstraint(
                condition=~Q(method="places") | ~Q(place_points=""),
                name="ranking_places_need_points",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="ranking_name_required"),
        ]

    def __str__(self) -> str:
        return self.name

    def points_by_place(self) -> list[int]:
        """The place points as numbers, place 1 first."""
        return [int(p) for p in self.place_points.split(",") if p.strip()]
