from django.urls import path

from tournament.views import imports, organizer, public

app_name = "tournament"

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament_detail, name="detail"),
    # Organizer
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
]
