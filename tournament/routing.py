"""Websocket routes (live pages and digital tables come with later issues)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
