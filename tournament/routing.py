"""Websocket routes. One socket per open live page: ``/ws/t/<slug>/``.

The consumer needs the session for the organizer's dashboard (waiting
entries are for referees only), hence the auth stack around it.
"""

from channels.auth import AuthMiddlewareStack
from django.urls import path

from tournament.consumers import LiveConsumer

websocket_urlpatterns = [
    path("ws/t/<slug:slug>/", AuthMiddlewareStack(LiveConsumer.as_asgi())),
]
