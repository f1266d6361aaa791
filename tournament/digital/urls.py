"""Digital tables: private links (/d/<token>/), practice, the organizer's
page of a table, watching and replays."""

from django.urls import path

from tournament.digital import views

TABLE = "t/<slug:slug>/serie/<int:number>/tisch/<int:table>/"

urlpatterns = [
    path("ueben/", views.practice, name="practice"),
    path("d/<str:token>/", views.digital_play, name="digital_play"),
    path("d/<str:token>/zustand/", views.digital_state, name="digital_state"),
    path("d/<str:token>/zug/", views.digital_move, name="digital_move"),
    path(
        "d/<str:token>/spiel/<int:game>/",
        views.digital_replay_own,
        name="digital_replay_own",
    ),
    path(f"{TABLE}digital/", views.digital_manage, name="digital_manage"),
    path(f"{TABLE}zuschauen/", views.digital_watch, name="digital_watch"),
    path(
        f"{TABLE}zuschauen/zustand/",
        views.digital_watch_state,
        name="digital_watch_state",
    ),
    path(f"{TABLE}spiel/<int:game>/", views.digital_replay, name="digital_replay"),
]
