"""A clock that moves only when the test moves it, for rules that compare
times (a seat gone for a limit, an answer remembered for so long): the test
says how much time passed, so the outcome does not depend on how fast a
loaded machine runs the test."""

from datetime import datetime, timedelta
from types import SimpleNamespace

from django.utils import timezone


class Clock:
    """The time the given modules read, standing still until `advance`:
    `timezone.now()` where a module imports Django's timezone, and
    `time.monotonic()` where it imports time (only that: such a module must
    use nothing else of time). Installed with pytest's monkeypatch, so it is
    undone after the test; every thread of the process reads the same time."""

    def __init__(self, monkeypatch, *modules) -> None:
        self.at: datetime = timezone.now()
        self.seconds = 1000.0
        for module in modules:
            if getattr(module, "timezone", None) is timezone:
                monkeypatch.setattr(module, "timezone", SimpleNamespace(now=self.now))
            if hasattr(module, "time"):
                monkeypatch.setattr(
                    module, "time", SimpleNamespace(monotonic=self.monotonic)
                )

    def now(self) -> datetime:
        return self.at

    def monotonic(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        self.seconds += seconds
        return self.at
