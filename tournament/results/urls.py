"""URL patterns of results (included by tournament/urls.py)."""

from django.urls import path

from tournament.results import player_views, views

# A player's own table, through his personal link (`tableentry` has the
# link's page itself, "Mein Turnier").
PLAYER_TABLE = "t/<slug:slug>/mein/<str:token>/serie/<int:series>/tisch/<int:table>/"

urlpatterns = [
    path(
        "t/<slug:slug>/serie/<int:number>/ergebnisse/",
        views.series_results,
        name="series_results",
    ),
    path("t/<slug:slug>/eingabe/", views.entry_overview, name="results"),
    path(
        "t/<slug:slug>/eingabe/serie/<int:series>/tisch/<int:table>/",
        views.table_result,
        name="table_result",
    ),
    path(
        "t/<slug:slug>/eingabe/serie/<int:series>/tisch/<int:table>/bestaetigen/",
        views.result_confirm,
        name="result_confirm",
    ),
    path(
        "t/<slug:slug>/eingabe/serie/<int:series>/tisch/<int:table>/ablehnen/",
        views.result_reject,
        name="result_reject",
    ),
    path(f"{PLAYER_TABLE}eingeben/", player_views.player_enter, name="mine_enter"),
    path(f"{PLAYER_TABLE}stimmt/", player_views.player_confirm, name="mine_confirm"),
    path(
        f"{PLAYER_TABLE}stimmt-nicht/", player_views.player_reject, name="mine_reject"
    ),
]
