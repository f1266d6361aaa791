"""URL patterns of tournaments (included by tournament/urls.py)."""

from django.urls import path

from tournament.tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament_detail, name="detail"),
    path("verwaltung/turnier/neu/", views.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/verwaltung/", views.manage, name="manage"),
    path(
        "t/<slug:slug>/verwaltung/beenden/",
        views.tournament_close,
        name="tournament_close",
    ),
    path(
        "t/<slug:slug>/verwaltung/bearbeiten/",
        views.tournament_edit,
        name="tournament_edit",
    ),
]
