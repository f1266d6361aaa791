"""Digital tables: private links (/d/<token>/), practice, the organizer's
page of a table, watching and replays."""

from django.urls import path

from tournament.views import digital

TABLE = "t/<slug:slug>/serie/<int:number>/tisch/<int:table>/"

urlpatterns = [
    path("ueben/", digital.practice, name="practice"),
    path("d/<str:token>/", digital.digital_play, name="digital_play"),
    path("d/<str:token>/zustand/", digital.digital_state, name="digital_state"),
    path("d/<str:token>/zug/", digital.digital_move, name="digital_move"),
    path(
        "d/<str:token>/spiel/<int:game>/",
        digital.digital_replay_own,
        name="digital_replay_own",
    ),
    path(f"{TABLE}digital/", digital.digital_manage, name="digital_manage"),
    path(f"{TABLE}zuschauen/", digital.digital_watch, name="digital_watch"),
    path(
        f"{TABLE}zuschauen/zustand/",
        digital.digital_watch_state,
        name="digital_watch_state",
    ),
    path(f"{TABLE}spiel/<int:game>/", digital.digital_replay, name="digital_replay"),
]
