"""URL patterns of the web app (included by tournament/urls.py): at the root,
as a service worker reaches only the pages below its own address."""

from django.urls import path

from tournament.webapp import views

urlpatterns = [
    path("sw.js", views.service_worker, name="webapp_sw"),
    path("manifest.webmanifest", views.manifest, name="webapp_manifest"),
]
