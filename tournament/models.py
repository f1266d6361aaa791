"""Data and single-row rules. Business logic lives in services/selectors."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("in Vorbereitung")
        RUNNING = "running", _("läuft")
        FINISHED = "finished", _("beendet")

    class RulePreset(models.TextChoices):
        CHAMPIONSHIP = "championship", _("Rheinland-Meisterschaft")
        SCHROEM = "schroem", _("Schröm (Wipperfürth)")
        SIWWE_STROEM = "siwwe_stroem", _("Siwwe Ström")

    name = models.CharField(_("Name"), max_length=200)
    slug = models.SlugField(_("Kurzname"), max_length=80, unique=True)
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
    # The lot for the whole tournament: seeding the five series as one design
    # is what keeps every pair from meeting twice. Series k uses this plan as
    # long as the field is unchanged; withdrawals or late entries re-seat.
    double_entry = models.BooleanField(
        _("Doppelte Eingabe"),
        default=True,
        help_text=_("Ein Ergebnis zählt erst, wenn eine zweite Person es bestätigt."),
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
    has_tiebreaks = models.BooleanField(default=False, editable=False)
    seating_seed = models.CharField(max_length=64, blank=True)
    seating_plan = models.JSONField(null=True, blank=True, editable=False)
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
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")
        constraints = [
            models.CheckConstraint(
                condition=Q(series_count__gte=1, series_count__lte=10),
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
                    rule_preset__in=["championship", "schroem", "siwwe_stroem"]
                ),
                name="tournament_rule_preset_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person, known across tournaments."""

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
        Tournament, on_delete=models.CASCADE, related_name="teams"
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


class Entry(models.Model):
    """A player registered for a tournament, with a stable start number."""

    # What the desk, the imports and every form accept as a start number.
    MAX_START_NUMBER = 99999

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    start_number = models.PositiveIntegerField(_("Startnummer"))
    checked_in = models.BooleanField(_("anwesend"), default=False)
    withdrawn_at = models.DateTimeField(_("abgemeldet am"), null=True, blank=True)
    withdrawal_reason = models.CharField(_("Grund"), max_length=200, blank=True)
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("Mannschaft"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

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
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.player}"

    @property
    def is_active(self) -> bool:
        return self.withdrawn_at is None


class AuditEvent(models.Model):
    """One row per write a service makes: who, when, what, before/after."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_events",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=60, db_index=True)
    object_type = models.CharField(max_length=60)
    object_id = models.CharField(max_length=60, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("Protokolleintrag")
        verbose_name_plural = _("Protokoll")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type}"


class Series(models.Model):
    """One of the tournament's series: a seating and, later, its results."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Entwurf")
        SEATED = "seated", _("ausgelost")
        RELEASED = "released", _("veröffentlicht")
        PLAYING = "playing", _("läuft")
        COMPLETE = "complete", _("abgeschlossen")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series"
    )
    number = models.PositiveSmallIntegerField(_("Serie"))
    status = models.CharField(
        _("Status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.CharField(_("Los (Startwert)"), max_length=64, blank=True)
    quality = models.JSONField(_("Güte der Setzung"), null=True, blank=True)
    seated_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change of the seating: a stale form is refused.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("Serie")
        verbose_name_plural = _("Serien")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="series_number_unique"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=10), name="series_number_range"
            ),
            models.CheckConstraint(
                condition=Q(
                    status__in=["draft", "seated", "released", "playing", "complete"]
                ),
                name="series_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('Serie')} {self.number}"

    @property
    def is_public(self) -> bool:
        return self.status in {
            self.Status.RELEASED,
            self.Status.PLAYING,
            self.Status.COMPLETE,
        }


class Table(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"))
    size = models.PositiveSmallIntegerField(_("Plätze"))
    # Bumped by every change of the table's result: two people saving the
    # same table at once — the second gets a conflict, never an overwrite.
    result_revision = models.PositiveIntegerField(default=0)

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


class Seat(models.Model):
    """A player at a table. Seat 1 leads the first hand; the highest seat
    deals first and keeps the score sheet (RULES.md §2)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(pgettext_lazy("seat at a table", "Platz"))
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "number"]
        verbose_name = pgettext_lazy("seat at a table", "Platz")
        verbose_name_plural = _("Plätze")
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


class ResultVersion(models.Model):
    """One version of a table's result in a series. Nothing is ever
    overwritten: a correction is a new version, the old one is superseded."""

    class Status(models.TextChoices):
        PENDING = "pending", _("wartet auf Bestätigung")
        CONFIRMED = "confirmed", _("bestätigt")
        SUPERSEDED = "superseded", _("ersetzt")
        REJECTED = "rejected", _("abgelehnt")

    class Mode(models.TextChoices):
        QUICK = "quick", _("Schnelleingabe")
        SHEET = "sheet", _("Spielliste")
        DIGITAL = "digital", _("digitaler Tisch")
        IMPORT = "import", _("Import")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="result_versions"
    )
    number = models.PositiveIntegerField(_("Version"))
    status = models.CharField(max_length=10, choices=Status.choices)
    mode = models.CharField(max_length=10, choices=Mode.choices)
    # {"games": [{"winner": seat, "marks": n, "hands": [sheet lines]}, ...]}
    # plus, for digital tables, the game records.
    data = models.JSONField()
    reason = models.CharField(_("Grund"), max_length=300, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    # False while a digital table is still playing the series' games: the
    # games so far count, but the table is not done.
    complete = models.BooleanField(default=True)

    class Meta:
        ordering = ["table", "-number"]
        verbose_name = _("Ergebnisversion")
        verbose_name_plural = _("Ergebnisversionen")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], name="result_version_number_unique"
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="pending"),
                name="result_one_pending_per_table",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="confirmed"),
                name="result_one_confirmed_per_table",
            ),
            models.CheckConstraint(
                condition=Q(
                    status__in=["pending", "confirmed", "superseded", "rejected"]
                ),
                name="result_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(mode__in=["quick", "sheet", "digital", "import"]),
                name="result_mode_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} v{self.number} ({self.status})"


class GameScore(models.Model):  # noqa: DJ008 - an internal aggregate row
    """What the standings sum: one row per player per game of a confirmed
    result (rebuilt from the confirmed version, never edited by hand)."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="game_scores"
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scores")
    version = models.ForeignKey(
        ResultVersion, on_delete=models.CASCADE, related_name="scores"
    )
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="scores")
    game = models.PositiveSmallIntegerField(_("Spiel"))
    seat = models.PositiveSmallIntegerField(pgettext_lazy("seat at a table", "Platz"))
    won = models.BooleanField(default=False)
    marks = models.PositiveSmallIntegerField(_("Schräm"))
    points = models.PositiveSmallIntegerField(_("Punkte"))
    three_table = models.BooleanField(default=False)

    class Meta:
        ordering = ["series", "table", "game", "seat"]
        verbose_name = _("Spielwertung")
        verbose_name_plural = _("Spielwertungen")
        indexes = [models.Index(fields=["entry", "series"])]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "game", "entry"], name="game_score_unique"
            ),
            models.CheckConstraint(
                condition=Q(game__gte=1, game__lte=10), name="game_score_game_range"
            ),
            models.CheckConstraint(
                condition=Q(won=True, marks__gte=1) | Q(won=False, marks=0, points=0),
                name="game_score_winner_only_scores",
            ),
        ]


class TieBreak(models.Model):  # noqa: DJ008 - shown through its tournament
    """A recorded decision between players with equal totals: a playoff
    (Stechen) or a lot drawn by the site with a stored seed."""

    class Method(models.TextChoices):
        PLAYOFF = "playoff", _("Stechen")
        LOT = "lot", _("Los")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tiebreaks"
    )
    method = models.CharField(max_length=10, choices=Method.choices)
    # Start numbers, best first.
    order = models.JSONField()
    seed = models.CharField(max_length=64, blank=True)
    note = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("Stechen/Los")
        verbose_name_plural = _("Stechen/Lose")
        constraints = [
            models.CheckConstraint(
                condition=Q(method__in=["playoff", "lot"]), name="tiebreak_method_valid"
            ),
        ]


class EntryTotal(models.Model):  # noqa: DJ008 - an internal aggregate row
    """A player's totals over all confirmed games, kept by the result
    services whenever a table's confirmed result changes, so the standings
    are one plain read however many games were played."""

    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, primary_key=True, related_name="total"
    )
    points = models.PositiveIntegerField(default=0)
    games_won = models.PositiveSmallIntegerField(default=0)
    best_game = models.PositiveSmallIntegerField(default=0)
    three_table_games = models.PositiveSmallIntegerField(default=0)
    # Points per series as "26,0,14,0,0": a plain string, because decoding
    # JSON for every row was the larger part of a cold standings read.
    series_points = models.CharField(max_length=60, default="")


class Job(models.Model):
    """A long export or import run outside the request (tournament.jobs):
    its state and progress for the page that polls it, and, when done, the
    file it made under VAR_DIR/jobs/."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("wartet")
        RUNNING = "running", _("läuft")
        DONE = "done", _("fertig")
        FAILED = "failed", _("fehlgeschlagen")

    # A random id: the download URL of a file is not guessable.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="jobs"
    )
    kind = models.CharField(max_length=30)
    params = models.JSONField(default=dict, blank=True)
    label = models.CharField(_("Auftrag"), max_length=200)
    status = models.CharField(
        _("Status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("Fortschritt"), default=0)
    message = models.CharField(
        pgettext_lazy("job message", "Meldung"), max_length=500, blank=True
    )
    file_name = models.CharField(max_length=200, blank=True)
    file_path = models.CharField(max_length=300, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Touched by every progress step: a job that stops moving is stale.
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

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


class DigitalTable(models.Model):
    """A table played in the browser: its games as game records
    (FORMATS.md), advanced only through `scoring`. Practice tables belong to
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
    )
    rules = models.CharField(max_length=20, default="championship")
    start_marks = models.PositiveSmallIntegerField(default=7)
    win_bonus = models.PositiveSmallIntegerField(default=7)
    size = models.PositiveSmallIntegerField(_("Plätze"))
    games_total = models.PositiveSmallIntegerField(default=5)
    # One game record per game started, the current one last.
    games = models.JSONField(default=list, blank=True)
    # Bumped by every action: a message sent against an older state is stale.
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    # Only tests set it: otherwise the deal comes from the system's
    # randomness, and the cards dealt are kept in the record.
    deal_seed = models.CharField(max_length=64, blank=True)
    # The bot runner holding the table until then (one runner per table,
    # across worker processes).
    runner_until = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

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
        DigitalTable, on_delete=models.CASCADE, related_name="seats"
    )
    number = models.PositiveSmallIntegerField(pgettext_lazy("seat at a table", "Platz"))
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # "" for a person, else the rules module's bot name.
    bot = models.CharField(_("Bot"), max_length=20, blank=True)
    # The private link's secret: whoever has it plays this seat.
    token = models.CharField(max_length=64, unique=True)
    # The highest message number this seat has sent: repeats change nothing.
    last_seq = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("Digitaler Platz")
        verbose_name_plural = _("Digitale Plätze")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], name="digital_seat_unique"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=4),
                name="digital_seat_number_range",
            ),
            models.CheckConstraint(
                condition=Q(bot__in=["", "greedy", "random"]),
                name="digital_seat_bot_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.number}"
