"""URL patterns of seating (included by tournament/urls.py)."""

from django.urls import path

from tournament.seating import views

urlpatterns = [
    path(
        "t/<slug:slug>/serie/<int:number>/", views.series_detail, name="series_detail"
    ),
    path("t/<slug:slug>/wo-sitze-ich/", views.where_do_i_sit, name="where"),
    path(
        "t/<slug:slug>/verwaltung/serien/",
        views.series_overview,
        name="series_overview",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/",
        views.series_manage,
        name="series_manage",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/setzen/",
        views.series_seat,
        name="series_seat",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/auswaehlen/",
        views.series_choose,
        name="series_choose",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/tauschen/",
        views.series_swap,
        name="series_swap",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/nachzuegler/<int:start_number>/",
        views.series_late,
        name="series_late",
    ),
    path(
        "t/<slug:slug>/verwaltung/serie/<int:number>/veroeffentlichen/",
        views.series_release,
        name="series_release",
    ),
]
