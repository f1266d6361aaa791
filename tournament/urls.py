from django.urls import include, path

from tournament.views import (
    api,
    audit,
    imports,
    organizer,
    public,
    results,
    seating,
    tiebreaks,
)

app_name = "tournament"

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament_detail, name="detail"),
    path(
        "t/<slug:slug>/serie/<int:number>/", public.series_detail, name="series_detail"
    ),
    path("t/<slug:slug>/wo-sitze-ich/", public.where_do_i_sit, name="where"),
    path("t/<slug:slug>/tabelle/", public.standings, name="standings"),
    path(
        "t/<slug:slug>/tabelle/damen/",
        public.standings,
        {"view": "ladies"},
        name="standings_ladies",
    ),
    path(
        "t/<slug:slug>/tabelle/mannschaften/",
        public.standings,
        {"view": "teams"},
        name="standings_teams",
    ),
    path(
        "t/<slug:slug>/serie/<int:number>/ergebnisse/",
        public.series_results,
        name="series_results",
    ),
    path("t/<slug:slug>/spieler/<int:number>/", public.player_detail, name="player"),
    # JSON API (read-only)
    path("api/t/<slug:slug>/standings/", api.standings, name="api_standings"),
    path("api/t/<slug:slug>/series/", api.series_list, name="api_series"),
    path(
        "api/t/<slug:slug>/series/<int:number>/",
        api.series_tables,
        name="api_series_tables",
    ),
    path("api/t/<slug:slug>/players/", api.players, name="api_players"),
    path("api/t/<slug:slug>/players/<int:number>/", api.player, name="api_player"),
    # Referees
    path("t/<slug:slug>/eingabe/", results.entry_overview, name="results"),
    path(
        "t/<slug:slug>/eingabe/serie/<int:series>/tisch/<int:table>/",
        results.table_result,
        name="table_result",
    ),
    path(
        "t/<slug:slug>/eingabe/serie/<int:series>/tisch/<int:table>/bestaetigen/",
        results.result_confirm,
        name="result_confirm",
    ),
    path(
        "t/<slug:slug>/eingabe/serie/<int:series>/tisch/<int:table>/ablehnen/",
        results.result_reject,
        name="result_reject",
    ),
    # Organizer
    path("t/<slug:slug>/verwaltung/protokoll/", audit.audit_log, name="audit_log"),
    path("verwaltung/protokoll/", audit.audit_log, name="audit_log_all"),
    path(
        "t/<slug:slug>/verwaltung/gleichstand/",
        tiebreaks.tiebreak_page,
        name="tiebreaks",
    ),
    path(
        "verwaltung/turnier/neu/", organizer.tournament_create, name="tournament_create"
    ),
    path("t/<slug:slug>/verwaltung/", organizer.manage, name="manage"),
    path(
        "t/<slug:slug>/verwaltung/bearbeiten/",
        organizer.tournament_edit,
        name="tournament_edit",
    ),
    path("t/<slug:slug>/verwaltung/spieler/", organizer.entry_list, name="entry_list"),
    path(
        "t/<slug:slug>/verwaltung/spieler/neu/",
        organizer.entry_create,
        name="entry_create",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/export.xlsx",
        organizer.entry_export,
        name="entry_export",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/import/",
        imports.import_upload,
        name="import_upload",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/import/bestaetigen/",
        imports.import_confirm,
        name="import_confirm",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/",
        organizer.entry_edit,
        name="entry_edit",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/anwesend/",
        organizer.entry_check_in,
        name="entry_check_in",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/abmelden/",
        organizer.entry_withdraw,
        name="entry_withdraw",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/zurueck/",
        organizer.entry_reinstate,
        name="entry_reinstate",
    ),
    path(
        "t/<slug:slug>/verwaltung/mannschaften/", organizer.team_list, name="team_list"
    ),
    path(
        "t/<slug:slug>/verwaltung/mannschaften/neu/",
        organizer.team_edit,
        name="team_create",
    ),
    path(
        "t/<slug:slug>/verwaltung/mannschaften/<int:team_id>/",
        organizer.team_edit,
        name="team_edit",
    ),
    path(
        "t/<slug:slug>/verwaltung/mannschaften/<int:team_id>/loeschen/",
        organizer.team_delete,
        name="team_delete",
    ),
    path(
        "t/<slug:slug>/verwaltung/serien/",
        seating.series_overview,
        name="series_overview",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/",
        seating.series_manage,
        name="series_manage",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/setzen/",
        seating.series_seat,
        name="series_seat",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/tauschen/",
        seating.series_swap,
        name="series_swap",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/veroeffentlichen/",
        seating.series_release,
        name="series_release",
    ),
    path("", include("tournament.urls_paper")),
    path("", include("tournament.urls_live")),
    path("", include("tournament.urls_digital")),
]
