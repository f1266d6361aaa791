"""A clock that moves only when the test moves it, for rules that compare
times (a seat gone for a limit): the test says how much time passed, so
the outcome does not depend on how fast a loaded machine runs the test."""

from datetime import datetime, timedelta
from types import SimpleNamespace

from django.utils import timezone


class Clock:
    """`timezone.now()` of the modules given, standing still until
    `advance`. Installed with pytest's monkeypatch, so it is undone after
    the test; every thread of the process reads the same time."""

    def __init__(self, monkeypatch, *modules) -> None:
        self.at: datetime = timezone.now()
        for module in modules:
            monkeypatch.setattr(module, "timezone", SimpleNamespace(now=self.now))

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at
