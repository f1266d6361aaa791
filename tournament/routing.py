"""Websocket routes. One socket per open live page: ``/ws/t/<slug>/``;
one per digital table page: ``/ws/d/<token>/`` (a player) or
``/ws/d/zuschauen/<id>/`` (a referee watching).

The consumer needs the session for the organizer's dashboard (waiting
entries are for referees only), hence the auth stack around it. Every route
is opened only from the site's own pages: config/asgi.py puts them all
behind tournament.core.websockets.SameOriginValidator.
"""

from channels.auth import AuthMiddlewareStack
from django.urls import path, re_path

from tournament.digital.consumers import DigitalConsumer
from tournament.live.consumers import LiveConsumer, UnknownSocket

# Channels routes ASGI apps with Django's path() and re_path(); django-stubs
# types those for views only, hence the ignores (arg-type) below.
websocket_urlpatterns = [
    path("ws/t/<slug:slug>/", AuthMiddlewareStack(LiveConsumer.as_asgi())),  # type: ignore[arg-type]
    # A digital table: a player's private link, or a referee watching.
    path("ws/d/zuschauen/<int:pk>/", AuthMiddlewareStack(DigitalConsumer.as_asgi())),  # type: ignore[arg-type]
    path("ws/d/<str:token>/", DigitalConsumer.as_asgi()),  # type: ignore[arg-type]
    # Anything else is refused at the handshake (not a crash of the router).
    re_path(r"", UnknownSocket.as_asgi()),  # type: ignore[arg-type]
]
