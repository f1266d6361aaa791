"""URL patterns of the paper pages (included by tournament/urls.py)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
