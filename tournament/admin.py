from typing import TYPE_CHECKING, Any

from django.contrib import admin

from tournament.models import (
    AuditEvent,
    DigitalSeat,
    DigitalTable,
    Entry,
    EntryTotal,
    GameScore,
    Job,
    PastChampion,
    Person,
    Player,
    Ranking,
    ResultAnswer,
    ResultVersion,
    Seat,
    Series,
    SheetPhoto,
    SubmissionKey,
    Table,
    Team,
    TieBreak,
    Tournament,
)

if TYPE_CHECKING:
    # django-stubs types a ModelAdmin by its model; Django's class takes no
    # type argument at run time.
    _ReadOnlyAdmin = admin.ModelAdmin[Any]  # for rows of any model
else:
    _ReadOnlyAdmin = admin.ModelAdmin


class ReadOnlyAdmin(_ReadOnlyAdmin):
    """Every row of the app is written by the site's services only (a
    tournament, its players, seatings, results, the audit trail): the admin
    shows them; changing them here would skip the checks and the audit
    trail. Accounts and their groups are the admin's to edit."""

    def has_add_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "date", "venue", "status", "rule_preset")
    list_filter = ("status", "rule_preset")
    search_fields = ("name", "slug", "venue")


@admin.register(Person)
class PersonAdmin(ReadOnlyAdmin):
    list_display = ("last_name", "first_name", "club")
    search_fields = ("last_name", "first_name", "club")


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = (
        "last_name",
        "first_name",
        "club",
        "town",
        "category",
        "person",
        "person_review",
    )
    list_filter = ("category", "person_review")
    list_select_related = ("person",)
    search_fields = ("last_name", "first_name", "club", "town")
    raw_id_fields = ("person",)


@admin.register(PastChampion)
class PastChampionAdmin(ReadOnlyAdmin):
    list_display = ("year", "name", "club", "points", "person")
    list_select_related = ("person",)


@admin.register(Ranking)
class RankingAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "method", "best_of")


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = (
        "start_number",
        "player",
        "tournament",
        "checked_in",
        "withdrawn_at",
        "team",
    )
    list_filter = ("tournament", "checked_in")
    list_select_related = ("player", "tournament", "team")
    search_fields = ("player__last_name", "player__first_name", "start_number")
    raw_id_fields = ("player", "team")


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ("name", "tournament")
    list_filter = ("tournament",)
    list_select_related = ("tournament",)
    search_fields = ("name",)


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ("at", "action", "object_type", "object_id", "actor", "tournament")
    list_filter = ("action", "tournament")
    list_select_related = ("actor", "tournament")
    search_fields = ("action", "object_id", "note")


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "status", "seed", "released_at")
    list_filter = ("tournament", "status")
    list_select_related = ("tournament",)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("series", "number", "size", "result_revision")
    list_filter = ("series__tournament", "series__number", "size")
    list_select_related = ("series__tournament",)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("series", "table", "number", "entry")
    list_filter = ("series__tournament", "series__number")
    list_select_related = ("series__tournament", "table", "entry__player")
    search_fields = ("entry__player__last_name", "entry__start_number")


@admin.register(ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "status", "mode", "entered_by", "entered_at")
    list_filter = ("status", "mode", "table__series__tournament")
    list_select_related = ("table__series__tournament", "entered_by")


@admin.register(ResultAnswer)
class ResultAnswerAdmin(ReadOnlyAdmin):
    list_display = ("version", "entry", "answer", "reason", "answered_at")
    list_filter = ("answer", "version__table__series__tournament")
    list_select_related = ("version__table", "entry__player")


@admin.register(GameScore)
class GameScoreAdmin(ReadOnlyAdmin):
    list_display = ("series", "table", "game", "seat", "entry", "marks", "points")
    list_filter = ("series__tournament", "series__number")
    list_select_related = ("series__tournament", "table", "entry__player")


@admin.register(EntryTotal)
class EntryTotalAdmin(ReadOnlyAdmin):
    list_display = ("entry", "points", "games_won", "best_game", "series_points")
    list_select_related = ("entry__player",)
    search_fields = ("entry__player__last_name", "entry__start_number")


@admin.register(TieBreak)
class TieBreakAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "method", "order", "seed", "created_at")
    list_filter = ("tournament", "method")


@admin.register(Job)
class JobAdmin(ReadOnlyAdmin):
    list_display = ("label", "tournament", "kind", "status", "progress")
    list_filter = ("status",)


@admin.register(DigitalTable)
class DigitalTableAdmin(ReadOnlyAdmin):
    # The records hold every seat's cards of the game in play: never shown
    # here (finished games have their replay page).
    exclude = ("games", "deal_seed")
    list_display = ("__str__", "status", "size", "games_total", "version")
    list_filter = ("status",)
    list_select_related = ("table__series__tournament",)


@admin.register(DigitalSeat)
class DigitalSeatAdmin(ReadOnlyAdmin):
    exclude = ("token",)
    list_display = ("table", "number", "entry", "bot")
    list_select_related = ("table__table", "entry__player")


@admin.register(SubmissionKey)
class SubmissionKeyAdmin(ReadOnlyAdmin):
    # The first answers themselves (pages, with their forms) stay out.
    exclude = ("body",)
    list_display = ("key", "actor", "path", "status", "created_at")
    date_hierarchy = "created_at"


@admin.register(SheetPhoto)
class SheetPhotoAdmin(ReadOnlyAdmin):
    # What was read stays out: the review page shows it.
    exclude = ("reading",)
    list_display = ("table", "sha256", "uploaded_at", "version", "deleted_at")
    list_select_related = ("table__series__tournament", "version")
    date_hierarchy = "uploaded_at"
