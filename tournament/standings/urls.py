"""URL patterns of standings (included by tournament/urls.py)."""

from django.urls import path

from tournament.standings import api, views
from tournament.standings.selectors import categories

urlpatterns = [
    path("t/<slug:slug>/tabelle/", views.standings, name="standings"),
    path("t/<slug:slug>/tabelle.csv", views.standings_download, name="standings_csv"),
    path(
        "t/<slug:slug>/tabelle/mannschaften/",
        views.standings,
        {"view": "teams"},
        name="standings_teams",
    ),
    # Each category's ranking (`selectors.categories`): /tabelle/damen/
    # ("standings_ladies"), /tabelle/senioren/, /tabelle/jugend/.
    *(
        path(
            f"t/<slug:slug>/tabelle/{category.word}/",
            views.standings,
            {"view": category.value},
            name=f"standings_{category.value}",
        )
        for category in categories()
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
