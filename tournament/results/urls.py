"""URL patterns of results (included by tournament/urls.py)."""

from django.urls import path

from tournament.results import views

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
]
