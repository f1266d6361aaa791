"""URL patterns of the live pages (included by tournament/urls.py)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
