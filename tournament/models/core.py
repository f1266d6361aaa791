"""Tournaments, persons and their players (one per registration), their
entries and teams, and the audit trail."""

import secrets

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# A tournament's short name is part of every address: lower case, so that
# "RM-2026" and "rm-2026" are never two tournaments.
lower_case_slug = RegexValidator(
    r"^[-a-z0-9_]+\Z",
    _("Bitte nur Kleinbuchstaben, Ziffern und Bindestriche (z. B. rm-2026)."),
    code="invalid",
)

# A tournament plays at most this many series (the paper forms, every
# series number in an address and the series themselves keep to it).
MAX_SERIES = 10


# Read only when asked for: the draw's plan (a few kilobytes of JSON at a
# full field), which no page shows and only the seating reads.
UNREAD_FIELDS = ("seating_plan",)


def unread_through(relation: str) -> tuple[str, ...]:
    """UNREAD_FIELDS of the tournament reached by `relation` (a
    select_related path): the default manager does not defer on joins."""
    return tuple(f"{relation}__{field}" for field in UNREAD_FIELDS)


class TournamentManager(models.Manager["Tournament"]):
    """Tournaments without UNREAD_FIELDS: every page reads its tournament,
    only the seating reads the plan (read from the row when first used). A
    tournament read so and saved writes only what was read, so it never
    overwrites a newer plan."""

    def get_queryset(self) -> models.QuerySet["Tournament"]:
        return super().get_queryset().defer(*UNREAD_FIELDS)


class Tournament(models.Model):
    MAX_SERIES = MAX_SERIES

    class Status(models.TextChoices):
        PLANNED = "planned", _("in Vorbereitung")
        RUNNING = "running", _("läuft")
        FINISHED = "finished", _("beendet")

    class TableEntry(models.TextChoices):
        """Whether the players of a table enter their own result on their
        phones, and who of them must confirm it."""

        OFF = "off", _("aus: nur Schiedsrichter geben ein")
        ONE = "one", _("ein anderer Spieler des Tisches bestätigt")
        ALL = "all", _("alle anderen Spieler des Tisches bestätigen")

    class RulePreset(models.TextChoices):
        CHAMPIONSHIP = "championship", _("Rheinland-Meisterschaft")
        SCHROEM = "schroem", _("Schröm (Wipperfürth)")
        SIWWE_STROEM = "siwwe_stroem", _("Siwwe Ström / Sibbeschröm")
        MARIENHEIDE = "marienheide", _("Marienheide")

    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(
        _("Kurzname"), max_length=80, unique=True, validators=[lower_case_slug]
    )
    date = models.DateField(_("Datum"))
    venue = models.CharField(_("Ort"), max_length=200, blank=True)
    rule_preset = models.CharField(
        _("Regelwerk"),
        max_length=20,
        choices=RulePreset.choices,
        default=RulePreset.CHAMPIONSHIP,
    )
    series_count = models.PositiveSmallIntegerField(_("Anzahl Serien"), default=5)
    games_per_series = models.PositiveSmallIntegerField(
        _("Spiele pro Serie"), default=5
    )
    start_marks = models.PositiveSmallIntegerField(_("Schräm zu Beginn"), default=7)
    win_bonus = models.PositiveSmallIntegerField(_("Siegbonus"), default=7)
    status = models.CharField(
        _("Status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    # The year's title: its winner stands in the list of champions.
    is_championship = models.BooleanField(
        _("Meisterschaft"),
        default=False,
        help_text=_(
            "Der Sieger steht in der Liste der Meister (einmal pro Jahr, z. B. die "
            "Rheinland-Meisterschaft)."
        ),
    )
    # The lot for the whole tournament: seeding the five series as one design
    # is what keeps every pair from meeting twice. Series k uses this plan as
    # long as the field is unchanged; withdrawals or late entries re-seat.
    double_entry = models.BooleanField(
        _("Doppelte Eingabe"),
        default=True,
        help_text=_("Ein Ergebnis zählt erst, wenn eine zweite Person es bestätigt."),
    )
    table_entry = models.CharField(
        _("Eingabe am Tisch"),
        max_length=3,
        choices=TableEntry.choices,
        default=TableEntry.OFF,
        help_text=_(
            "Die Spieler geben das Ergebnis ihres Tisches über ihren persönlichen "
            "Link auf dem Handy ein; ein anderer (oder jeder andere) Spieler des "
            "Tisches bestätigt es. Schiedsrichter können weiter eingeben, "
            "bestätigen und korrigieren."
        ),
    )
    show_provisional = models.BooleanField(
        _("Unbestätigte Ergebnisse vorläufig zeigen"),
        default=False,
        help_text=_("Sonst sieht die Öffentlichkeit nur bestätigte Ergebnisse."),
    )
    tiebreak_games_won = models.BooleanField(
        _("Gleichstand: gewonnene Spiele"), default=False
    )
    tiebreak_best_game = models.BooleanField(
        _("Gleichstand: bestes Einzelspiel"), default=False
    )
    # Set by the first recorded playoff or lot: the standings skip looking
    # for decisions (a query on every cold read) while there are none.
    has_tiebreaks = models.BooleanField(
        default=False, editable=False, verbose_name=_("Stechen/Los vorhanden")
    )
    seating_seed = models.CharField(
        max_length=64, blank=True, verbose_name=_("Startwert der Auslosung")
    )
    seating_plan = models.JSONField(
        null=True, blank=True, editable=False, verbose_name=_("Plan der Auslosung")
    )
    # Empty: every referee may enter results here. Otherwise only these.
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Schiedsrichter"),
        blank=True,
        related_name="refereed_tournaments",
        help_text=_(
            "Leer lassen: alle Schiedsrichter dürfen Ergebnisse eingeben. "
            "Sonst nur die ausgewählten."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("angelegt am"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("geändert am"))

    objects = TournamentManager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")
        constraints = [
            models.CheckConstraint(
                condition=Q(series_count__gte=1, series_count__lte=MAX_SERIES),
                name="tournament_series_count_range",
            ),
            models.CheckConstraint(
                condition=Q(games_per_series__gte=1, games_per_series__lte=10),
                name="tournament_games_per_series_range",
            ),
            models.CheckConstraint(
                condition=Q(start_marks__gte=1, start_marks__lte=15),
                name="tournament_start_marks_range",
            ),
            models.CheckConstraint(
                condition=Q(win_bonus__lte=50), name="tournament_win_bonus_range"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["planned", "running", "finished"]),
                name="tournament_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(
                    rule_preset__in=[
                        "championship",
                        "schroem",
                        "siwwe_stroem",
                        "marienheide",
                    ]
                ),
                name="tournament_rule_preset_valid",
            ),
            models.CheckConstraint(
                condition=Q(table_entry__in=["off", "one", "all"]),
                name="tournament_table_entry_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Person(models.Model):
    """Somebody who plays, across tournaments and years: every registration
    (`Player`) belongs to one. Name and club are those of the latest
    registration; `key` and `loose` are the name folded for matching
    (`core.text.name_key`; umlauts as plain vowels), kept by the person
    services whenever the name changes."""

    first_name = models.CharField(_("Vorname"), max_length=100)
    last_name = models.CharField(_("Nachname"), max_length=100)
    club = models.CharField(_("Verein"), max_length=150, blank=True)
    key = models.CharField(
        max_length=210, db_index=True, editable=False, verbose_name=_("Namensschlüssel")
    )
    loose = models.CharField(
        max_length=210,
        db_index=True,
        editable=False,
        verbose_name=_("Ähnlichkeitsschlüssel"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("angelegt am"))

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        verbose_name = _("Person")
        verbose_name_plural = _("Personen")
        constraints = [
            models.CheckConstraint(
                condition=~Q(first_name="") & ~Q(last_name=""),
                name="person_name_required",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Player(models.Model):
    """A person as registered for one tournament: the name, club, town and
    category of that day (a club changes, a youth grows up), so that an old
    tournament's lists stay as they were."""

    class Category(models.TextChoices):
        OPEN = "open", _("Offen")
        LADIES = "ladies", _("Damen")
        SENIORS = "seniors", _("Senioren")
        YOUTH = "youth", _("Jugend")

    first_name = models.CharField(_("Vorname"), max_length=100)
    last_name = models.CharField(_("Nachname"), max_length=100)
    club = models.CharField(_("Verein"), max_length=150, blank=True)
    town = models.CharField(_("Ort"), max_length=150, blank=True)
    category = models.CharField(
        _("Kategorie"), max_length=10, choices=Category.choices, default=Category.OPEN
    )
    person = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        related_name="players",
        verbose_name=_("Person"),
    )
    # The match to `person` is uncertain (same name, another club …): the
    # organizer decides on the review page; until then a person of its own.
    person_review = models.BooleanField(_("Person prüfen"), default=False)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = pgettext_lazy("one player", "Spieler")
        verbose_name_plural = _("Spieler")
        indexes = [models.Index(fields=["last_name", "first_name"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(first_name="") & ~Q(last_name=""),
                name="player_name_required",
            ),
            models.CheckConstraint(
                condition=Q(category__in=["open", "ladies", "seniors", "youth"]),
                name="player_category_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Team(models.Model):
    """Up to four entries of one tournament; scored by the sum of members."""

    MAX_MEMBERS = 4

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="teams",
        verbose_name=_("Turnier"),
    )
    name = models.CharField(_("Name"), max_length=150)

    class Meta:
        ordering = ["name"]
        verbose_name = _("Mannschaft")
        verbose_name_plural = _("Mannschaften")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name"], name="team_name_unique_per_tournament"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_required"),
        ]

    def __str__(self) -> str:
        return self.name


def new_link_token() -> str:
    """A personal link's secret: 32 URL-safe characters, 192 random bits."""
    return secrets.token_urlsafe(24)


class Entry(models.Model):
    """A player registered for a tournament, with a stable start number."""

    # What the desk, the imports and every form accept as a start number.
    MAX_START_NUMBER = 99999

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("Turnier"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=pgettext_lazy("one player", "Spieler"),
    )
    start_number = models.PositiveIntegerField(_("Startnummer"))
    checked_in = models.BooleanField(_("anwesend"), default=False)
    withdrawn_at = models.DateTimeField(_("abgemeldet am"), null=True, blank=True)
    withdrawal_reason = models.CharField(_("Grund"), max_length=200, blank=True)
    # When he left: after game `withdrawn_after_game` of series
    # `withdrawn_after_series` (0: before its first game; empty: after the
    # whole series). Both empty: before any series, or a withdrawal recorded
    # before the moment was asked (then every game of his seats counts).
    withdrawn_after_series = models.PositiveSmallIntegerField(
        _("abgemeldet nach Serie"), null=True, blank=True
    )
    withdrawn_after_game = models.PositiveSmallIntegerField(
        _("abgemeldet nach Spiel"), null=True, blank=True
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("Mannschaft"),
    )
    # The secret of the player's personal link (/t/<slug>/mein/<token>/), on
    # the player card's QR code. Kept, not hashed: a sheet of cards is
    # printed again (a jammed printer, a restore on another laptop) without
    # killing the cards already handed out. A new one (a lost card) is the
    # only way to end the old link (registration.services.entry_link_renew).
    link_token = models.CharField(
        _("Persönlicher Link"),
        max_length=64,
        unique=True,
        default=new_link_token,
        editable=False,
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("angelegt am"))

    class Meta:
        ordering = ["start_number"]
        verbose_name = pgettext_lazy("registration", "Meldung")
        verbose_name_plural = _("Meldungen")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "start_number"],
                name="entry_start_number_unique",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_player_unique"
            ),
            models.CheckConstraint(
                condition=Q(start_number__gte=1), name="entry_start_number_positive"
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_at__isnull=False) | Q(withdrawal_reason=""),
                name="entry_reason_only_when_withdrawn",
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_at__isnull=False)
                | Q(withdrawn_after_series__isnull=True),
                name="entry_withdrawn_after_only_when_withdrawn",
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_after_series__isnull=False)
                | Q(withdrawn_after_game__isnull=True),
                name="entry_withdrawn_game_needs_series",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.player}"

    @property
    def is_active(self) -> bool:
        return self.withdrawn_at is None

    @property
    def withdrawal_text(self) -> str:
        """His mark, "abgemeldet (nach Serie 2, Spiel 2)"; "" while he plays."""
        if self.withdrawn_at is None:
            return ""
        return withdrawal_text(self.withdrawn_after_series, self.withdrawn_after_game)

    def last_game_in(self, series: int, games: int) -> int:
        """How many games of series `series` (of `games`) he plays: all of
        them unless he withdrew during (or before) that series."""
        after = self.withdrawn_after_series
        if self.withdrawn_at is None or after is None or after > series:
            return games
        if after < series:
            return 0
        game = self.withdrawn_after_game
        return games if game is None else min(game, games)

    def withdrawal_text_in(self, series: int, games: int) -> str:
        """His mark beside his seat in series `series` (of `games` games):
        only where he no longer plays all of its games (`last_game_in`, the
        rule the results follow); "" in the series he played through."""
        if self.last_game_in(series, games) < games:
            return self.withdrawal_text
        return ""


def withdrawal_text(after_series: int | None, after_game: int | None) -> str:
    """The mark a withdrawn player carries wherever he is listed."""
    if after_series is None:
        return str(_("abgemeldet"))
    if after_game is None:
        return str(_("abgemeldet (nach Serie %(s)d)") % {"s": after_series})
    if after_game == 0:
        return str(_("abgemeldet (vor Serie %(s)d)") % {"s": after_series})
    return str(
        _("abgemeldet (nach Serie %(s)d, Spiel %(g)d)")
        % {"s": after_series, "g": after_game}
    )


class AuditEvent(models.Model):
    """One row per write a service makes: who, when, what, before/after."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_events",
        verbose_name=_("Turnier"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Benutzer"),
    )
    # A player who acted through his personal link (no user of the site):
    # entering or confirming his table's result.
    player = models.ForeignKey(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=pgettext_lazy("one player", "Spieler"),
    )
    at = models.DateTimeField(
        auto_now_add=True, db_index=True, verbose_name=_("Zeitpunkt")
    )
    action = models.CharField(max_length=60, db_index=True, verbose_name=_("Aktion"))
    object_type = models.CharField(max_length=60, verbose_name=_("Objektart"))
    object_id = models.CharField(
        max_length=60, blank=True, verbose_name=_("Objekt-Nr.")
    )
    before = models.JSONField(null=True, blank=True, verbose_name=_("vorher"))
    after = models.JSONField(null=True, blank=True, verbose_name=_("nachher"))
    note = models.TextField(blank=True, verbose_name=_("Notiz"))

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("Protokolleintrag")
        verbose_name_plural = _("Protokoll")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type}"
