"""URL patterns of the live pages (included by tournament/urls.py)."""

from django.urls import path

from tournament.live import views

urlpatterns = [
    path("t/<slug:slug>/projektor/", views.projector, name="projector"),
    path(
        "t/<slug:slug>/live/<slug:name>/",
        views.live_fragment,
        name="live_fragment",
    ),
]
