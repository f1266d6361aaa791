"""URL patterns of registration (included by tournament/urls.py)."""

from django.urls import path

from tournament.registration import views

urlpatterns = [
    path("t/<slug:slug>/verwaltung/spieler/", views.entry_list, name="entry_list"),
    path(
        "t/<slug:slug>/verwaltung/spieler/neu/",
        views.entry_create,
        name="entry_create",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/export.xlsx",
        views.entry_export,
        name="entry_export",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/import/",
        views.import_upload,
        name="import_upload",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/import/bestaetigen/",
        views.import_confirm,
        name="import_confirm",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/",
        views.entry_edit,
        name="entry_edit",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/anwesend/",
        views.entry_check_in,
        name="entry_check_in",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/abmelden/",
        views.entry_withdraw,
        name="entry_withdraw",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/neue-karte/",
        views.entry_link_renew,
        name="entry_link_renew",
    ),
    path(
        "t/<slug:slug>/verwaltung/spieler/<int:number>/zurueck/",
        views.entry_reinstate,
        name="entry_reinstate",
    ),
    path("t/<slug:slug>/verwaltung/mannschaften/", views.team_list, name="team_list"),
    path(
        "t/<slug:slug>/verwaltung/mannschaften/neu/",
        views.team_edit,
        name="team_create",
    ),
    path(
        "t/<slug:slug>/verwaltung/mannschaften/<int:team_id>/",
        views.team_edit,
        name="team_edit",
    ),
    path(
        "t/<slug:slug>/verwaltung/mannschaften/<int:team_id>/loeschen/",
        views.team_delete,
        name="team_delete",
    ),
]
