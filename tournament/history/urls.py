"""URL patterns of the history (included by tournament/urls.py)."""

from django.urls import path

from tournament.history import api, views

urlpatterns = [
    path("personen/", views.persons, name="persons"),
    path("personen/<int:pk>/", views.person_detail, name="person"),
    path("meister/", views.champions, name="champions"),
    path("wertungen/", views.ranking_list, name="rankings"),
    path("wertung/<slug:slug>/", views.ranking_detail, name="ranking"),
    path("verwaltung/personen/pruefen/", views.person_review, name="person_review"),
    path(
        "verwaltung/personen/<int:pk>/zusammenfuehren/",
        views.person_merge,
        name="person_merge",
    ),
    path(
        "verwaltung/personen/meldung/<int:player_id>/abtrennen/",
        views.person_split,
        name="person_split",
    ),
    path(
        "verwaltung/meister/import/",
        views.champions_import,
        name="champions_import",
    ),
    path(
        "verwaltung/meister/import/bestaetigen/",
        views.champions_import_confirm,
        name="champions_import_confirm",
    ),
    path("verwaltung/wertungen/neu/", views.ranking_edit, name="ranking_create"),
    path(
        "verwaltung/wertung/<slug:slug>/bearbeiten/",
        views.ranking_edit,
        name="ranking_edit",
    ),
    path(
        "verwaltung/wertung/<slug:slug>/loeschen/",
        views.ranking_delete,
        name="ranking_delete",
    ),
    path("api/persons/", api.persons, name="api_persons"),
    path("api/persons/<int:pk>/", api.person, name="api_person"),
    path("api/champions/", api.champions, name="api_champions"),
    path("api/rankings/<slug:slug>/", api.ranking, name="api_ranking"),
]
