"""URL patterns of standings (included by tournament/urls.py)."""

from django.urls import path

from tournament.standings import api, views

urlpatterns = [
    path("t/<slug:slug>/tabelle/", views.standings, name="standings"),
    path(
        "t/<slug:slug>/tabelle/damen/",
        views.standings,
        {"view": "ladies"},
        name="standings_ladies",
    ),
    path(
        "t/<slug:slug>/tabelle/mannschaften/",
        views.standings,
        {"view": "teams"},
        name="standings_teams",
    ),
    path("t/<slug:slug>/spieler/<int:number>/", views.player_detail, name="player"),
    path("api/t/<slug:slug>/standings/", api.standings, name="api_standings"),
    path("api/t/<slug:slug>/series/", api.series_list, name="api_series"),
    path(
        "api/t/<slug:slug>/series/<int:number>/",
        api.series_tables,
        name="api_series_tables",
    ),
    path("api/t/<slug:slug>/players/", api.players, name="api_players"),
    path("api/t/<slug:slug>/players/<int:number>/", api.player, name="api_player"),
    path(
        "t/<slug:slug>/verwaltung/gleichstand/",
        views.tiebreak_page,
        name="tiebreaks",
    ),
]
