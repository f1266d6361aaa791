"""URL patterns of the live pages (included by tournament/urls.py)."""

from django.urls import path

from tournament.views import live

urlpatterns = [
    path("t/<slug:slug>/projektor/", live.projector, name="projector"),
    path(
        "t/<slug:slug>/live/<slug:name>/",
        live.live_fragment,
        name="live_fragment",
    ),
]
