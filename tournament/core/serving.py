"""Which layers of the serving machinery are on: each layer asks here, and
only here, whether `settings.SERVING_LAYERS_OFF` switched it off. Off, a
layer passes its requests on as if it were not there, so bench/layers.py
can measure what each one is worth against Django's own means.

The layers (SERVING_LAYERS):

- `edge`: kept public pages answered in the event loop, before Django
  (tournament/live/edge.py);
- `lanes`: a few requests at a time in Django, in threads kept per lane
  (tournament/core/limits.py, Lanes); off, each request gets Django's own
  thread;
- `onethread`: a request's middleware and view in one thread
  (tournament/core/handler.py); off, Django's own ASGIHandler;
- `pages`: public pages rendered once per state and kept gzipped
  (tournament/live/pages.py); off, Django's conditional GET and cache
  framework serve them (tournament/live/cached.py). The edge serves only
  those kept pages, so `pages` off takes `edge` along;
- `flight`: one request renders a page while the others asking for it wait
  (tournament/live/flight.py);
- `switchinterval`: Python's thread switch interval shortened
  (config/asgi.py).

This module is imported by config/settings.py: nothing of Django's here is
read before a request asks.
"""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

SERVING_LAYERS = ("edge", "lanes", "onethread", "pages", "flight", "switchinterval")


def serving_layers_off(names: list[str]) -> frozenset[str]:
    """The layers `names` switch off, with those they take along; an unknown
    name stops the start (a misspelt layer would measure the site whole)."""
    unknown = sorted(set(names) - set(SERVING_LAYERS))
    if unknown:
        raise ImproperlyConfigured(
            f"SERVING_LAYERS_OFF names no such layer: {', '.join(unknown)} "
            f"(the layers: {', '.join(SERVING_LAYERS)})"
        )
    off = set(names)
    if "pages" in off:
        off.add("edge")
    return frozenset(off)


def on(layer: str) -> bool:
    """Whether `layer` (one of SERVING_LAYERS) serves."""
    # A misspelt name here would leave its layer on whatever the setting says.
    assert layer in SERVING_LAYERS, layer
    return layer not in settings.SERVING_LAYERS_OFF
