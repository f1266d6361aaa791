"""Which layers of the serving machinery are on: each layer asks here, and
only here, whether `settings.SERVING_LAYERS_OFF` switched it off (the
layers and what each does: config/settings.py, SERVING_LAYERS). Off, a
layer passes its requests on as if it were not there, so bench/layers.py
can measure what each one is worth against Django's own means."""

from django.conf import settings


def on(layer: str) -> bool:
    """Whether `layer` (one of settings.SERVING_LAYERS) serves."""
    # A misspelt name here would leave its layer on whatever the setting says.
    assert layer in settings.SERVING_LAYERS, layer
    return layer not in settings.SERVING_LAYERS_OFF
