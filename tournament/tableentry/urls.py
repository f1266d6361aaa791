"""URL patterns of a player's own pages (included by tournament/urls.py):
"Mein Turnier", the table page of a table card, and the entry and the
answers at his table under his personal link."""

from django.urls import path

from tournament.tableentry import entry_views, views

# A player's own table, through his personal link.
PLAYER_TABLE = "t/<slug:slug>/mein/<str:token>/serie/<int:series>/tisch/<int:table>/"

urlpatterns = [
    # What a table card's QR code opens: the table in the current series.
    path("t/<slug:slug>/tisch/<int:table>/", views.table_card, name="table_card"),
    path("t/<slug:slug>/mein/", views.mine_start, name="mine_start"),
    path("t/<slug:slug>/mein/<str:token>/", views.mine, name="mine"),
    path(f"{PLAYER_TABLE}eingeben/", entry_views.player_enter, name="mine_enter"),
    path(f"{PLAYER_TABLE}stimmt/", entry_views.player_confirm, name="mine_confirm"),
    path(f"{PLAYER_TABLE}stimmt-nicht/", entry_views.player_reject, name="mine_reject"),
]
