"""URL patterns of a player's own pages (included by tournament/urls.py).
The entry and the answers at his table are the results' (results/urls.py,
under the same link)."""

from django.urls import path

from tournament.tableentry import views

urlpatterns = [
    # What a table card's QR code opens: the table in the current series.
    path("t/<slug:slug>/tisch/<int:table>/", views.table_card, name="table_card"),
    path("t/<slug:slug>/mein/", views.mine_start, name="mine_start"),
    path("t/<slug:slug>/mein/<str:token>/", views.mine, name="mine"),
]
