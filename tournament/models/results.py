"""Results: the versions of a table's result, the scores and totals the
standings read, and recorded tie decisions."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models.core import Entry, Tournament
from tournament.models.seating import Series, Table

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser


class StoredGame(TypedDict):
    """One game of a stored result (docs/FORMATS.md § Stored games)."""

    winner: int
    """The winner's seat at the table (the table's numbering)."""
    marks: int
    """The marks the winner kept."""
    points: NotRequired[int]
    """The winner's game points; everyone else at the table scores 0. A
    backup from before they were stored restores without them."""
    hands: NotRequired[list[dict[str, Any]]]
    """Entered as a sheet: its sheet lines (docs/FORMATS.md § Sheet line)."""


class StoredResult(TypedDict):
    """`ResultVersion.data`: a table's games (docs/FORMATS.md § Stored
    games)."""

    games: list[StoredGame]
    records: NotRequired[list[dict[str, Any]]]
    """A digital table: the game records its games were played by."""


def winners_and_marks(games: Sequence[StoredGame]) -> list[tuple[int, int]]:
    """Each game's winner and the marks he kept, in order: what two entries
    of a table are compared by and a form is filled with (its points follow
    from them)."""
    return [(game["winner"], game["marks"]) for game in games]


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
        Table,
        on_delete=models.CASCADE,
        related_name="result_versions",
        verbose_name=_("Tisch"),
    )
    number = models.PositiveIntegerField(_("Version"))
    status = models.CharField(
        max_length=10, choices=Status.choices, verbose_name=_("Status")
    )
    mode = models.CharField(
        max_length=10, choices=Mode.choices, verbose_name=_("Eingabeart")
    )
    # A `StoredResult`; read it through `result` and `games`.
    data = models.JSONField(verbose_name=_("Spiele"))
    reason = models.CharField(_("Grund"), max_length=300, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("eingegeben von"),
    )
    # Entered at the table by one of its players (his personal link), not
    # by a user of the site: then `entered_by` is empty.
    entered_by_player = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("eingegeben von Spieler"),
    )
    entered_at = models.DateTimeField(
        auto_now_add=True, verbose_name=_("eingegeben am")
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entschieden von"),
    )
    # The player whose confirmation made it count (or who disputed it).
    decided_by_player = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entschieden von Spieler"),
    )
    decided_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("entschieden am")
    )
    # False while a digital table is still playing the series' games: the
    # games so far count, but the table is not done.
    complete = models.BooleanField(default=True, verbose_name=_("vollständig"))

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
            models.CheckConstraint(
                condition=Q(entered_by__isnull=True)
                | Q(entered_by_player__isnull=True),
                name="result_entered_by_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} v{self.number} ({self.status})"

    @property
    def result(self) -> StoredResult:
        """`data` as the record it is: the result services write nothing
        else into it."""
        return cast(StoredResult, self.data)

    @property
    def games(self) -> list[StoredGame]:
        """The table's games, in order."""
        return self.result["games"]

    @property
    def at_table(self) -> bool:
        """Entered by a player of the table (personal link)."""
        return self.entered_by_player_id is not None

    @property
    def entered_by_label(self) -> str:
        """Who entered it, as the pages name him: a user's full name (his
        login if he has none), or a player of the table with his start
        number; "" for the site."""
        return _who(self.entered_by, self.entered_by_player)

    @property
    def decided_by_label(self) -> str:
        """Who confirmed (or rejected) it, named as `entered_by_label`."""
        return _who(self.decided_by, self.decided_by_player)

    @property
    def from_photo(self) -> bool:
        """Pre-filled from a photo of the table's score sheet (a
        `SheetPhoto` links to it). The pages that show it select `photo`."""
        try:
            return self.photo is not None
        except ObjectDoesNotExist:
            return False

    @property
    def source_label(self) -> str:
        """How it was entered, as the pages say it: the entry mode, and
        "aus Foto" for a result pre-filled from a photo of the sheet."""
        if self.from_photo:
            return str(_("%(mode)s, aus Foto") % {"mode": self.get_mode_display()})
        return str(self.get_mode_display())


def _who(user: "AbstractBaseUser | None", player: Entry | None) -> str:
    if player is not None:
        return str(
            _("%(name)s (Spieler %(n)d, am Tisch)")
            % {"name": player.player.full_name, "n": player.start_number}
        )
    if user is None:
        return ""
    # A person reads it: the user's name as the accounts give it, his
    # login only where none is given.
    full_name = getattr(user, "get_full_name", lambda: "")()
    return str(full_name).strip() or user.get_username()


class ResultAnswer(models.Model):
    """A player's answer to a result another player of his table entered:
    *Stimmt* or *Stimmt nicht* (with a reason). One per player and version."""

    class Answer(models.TextChoices):
        AGREE = "agree", _("Stimmt")
        DISAGREE = "disagree", _("Stimmt nicht")

    version = models.ForeignKey(
        ResultVersion,
        on_delete=models.CASCADE,
        related_name="answers",
        verbose_name=_("Ergebnisversion"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("one player", "Spieler"),
    )
    answer = models.CharField(_("Antwort"), max_length=10, choices=Answer.choices)
    reason = models.CharField(_("Grund"), max_length=300, blank=True)
    answered_at = models.DateTimeField(
        auto_now_add=True, verbose_name=_("geantwortet am")
    )

    class Meta:
        ordering = ["version", "answered_at", "id"]
        verbose_name = _("Antwort am Tisch")
        verbose_name_plural = _("Antworten am Tisch")
        constraints = [
            models.UniqueConstraint(
                fields=["version", "entry"], name="result_answer_once"
            ),
            models.CheckConstraint(
                condition=Q(answer__in=["agree", "disagree"]),
                name="result_answer_valid",
            ),
            models.CheckConstraint(
                condition=Q(answer="agree") | ~Q(reason=""),
                name="result_answer_disagree_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} {self.entry}: {self.answer}"

    @property
    def agrees(self) -> bool:
        return self.answer == self.Answer.AGREE


class GameScore(models.Model):  # noqa: DJ008 - an internal aggregate row
    """What the standings sum: one row per player per game of a confirmed
    result (rebuilt from the confirmed version, never edited by hand)."""

    series = models.ForeignKey(
        Series,
        on_delete=models.CASCADE,
        related_name="game_scores",
        verbose_name=_("Serie"),
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="scores", verbose_name=_("Tisch")
    )
    version = models.ForeignKey(
        ResultVersion,
        on_delete=models.CASCADE,
        related_name="scores",
        verbose_name=_("Ergebnisversion"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="scores",
        verbose_name=_("Meldung"),
    )
    game = models.PositiveSmallIntegerField(_("Spiel"))
    seat = models.PositiveSmallIntegerField(pgettext_lazy("seat at a table", "Sitz"))
    won = models.BooleanField(default=False, verbose_name=_("gewonnen"))
    marks = models.PositiveSmallIntegerField(_("Schräm"))
    points = models.PositiveSmallIntegerField(_("Punkte"))
    three_table = models.BooleanField(default=False, verbose_name=_("am Dreiertisch"))

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
        Tournament,
        on_delete=models.CASCADE,
        related_name="tiebreaks",
        verbose_name=_("Turnier"),
    )
    method = models.CharField(
        max_length=10, choices=Method.choices, verbose_name=_("Verfahren")
    )
    # Start numbers, best first.
    order = models.JSONField(verbose_name=_("Reihenfolge"))
    seed = models.CharField(max_length=64, blank=True, verbose_name=_("Startwert"))
    note = models.CharField(max_length=300, blank=True, verbose_name=_("Notiz"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name=_("angelegt von"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("angelegt am"))

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
        Entry,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="total",
        verbose_name=_("Meldung"),
    )
    points = models.PositiveIntegerField(default=0, verbose_name=_("Punkte"))
    games_won = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("Spiele gewonnen")
    )
    best_game = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("bestes Spiel")
    )
    three_table_games = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("Spiele am Dreiertisch")
    )
    # Points per series, series 1 first: [26, 0, 14, 0, 0].
    series_points = models.JSONField(default=list, verbose_name=_("Punkte je Serie"))

    class Meta:
        verbose_name = _("Punktestand")
        verbose_name_plural = _("Punktestände")
