"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os
import sys

from tournament.core.handler import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (the routing does).
# Its handler runs a request's middleware and view in one thread (the
# module's docstring says why).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from tournament.core import serving  # noqa: E402
from tournament.core.background import Lifespan  # noqa: E402
from tournament.core.health import Health  # noqa: E402
from tournament.core.limits import (  # noqa: E402
    BodyLimits,
    Lanes,
    SocketBudget,
    Visitors,
)
from tournament.core.websockets import SameOriginValidator  # noqa: E402
from tournament.live.edge import KeptPages  # noqa: E402
from tournament.routing import websocket_urlpatterns  # noqa: E402

# The event loop answers kept pages itself (tournament/live/edge.py), and
# each of its turns waits for the GIL while a thread renders a page or saves
# a result. Python's default switch interval makes a phone's answer wait
# behind a render several times over; a shorter one gives the loop its turns
# and costs the threads little.
if serving.on("switchinterval"):
    sys.setswitchinterval(0.001)

application = ProtocolTypeRouter(
    {
        # The operator's /healthz and /readyz first (never queued), then
        # who a request is from (a session the store knows), then its body
        # read whole (in time, within its size and the bodies in flight);
        # kept public pages are answered before Django
        # (tournament/live/edge.py); the rest wait for a place in their lane
        # (tournament/core/limits.py).
        "http": Health(Visitors(BodyLimits(KeptPages(Lanes(django_asgi_app))))),
        # Only so many sockets (the rest of the connections stay for
        # requests), each only from the site's own pages (same origin),
        # whatever ALLOWED_HOSTS says: tournament/core/websockets.py.
        "websocket": SocketBudget(
            SameOriginValidator(URLRouter(websocket_urlpatterns))
        ),
        # The server's start and end: at the end, the process's background
        # work is stopped and joined (tournament/core/background.py).
        "lifespan": Lifespan(),
    }
)
