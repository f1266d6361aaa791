from django.contrib import admin

from tournament.models import AuditEvent, Entry, Player, Team, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "venue", "status", "rule_preset")
    list_filter = ("status", "rule_preset")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("last_name", "first_name", "club", "town", "category")
    list_filter = ("category",)
    search_fields = ("last_name", "first_name", "club", "town")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
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
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament")
    list_filter = ("tournament",)
    list_select_related = ("tournament",)
    search_fields = ("name",)


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("at", "action", "object_type", "object_id", "actor", "tournament")
    list_filter = ("action", "tournament")
    list_select_related = ("actor", "tournament")
    search_fields = ("action", "object_id", "note")
    readonly_fields = [f.name for f in AuditEvent._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False
