"""Photos are read a few at a time beside the requests: a burst beyond the
pool's places is refused at once (the person is asked to wait a moment),
never queued without end, and every place comes back when its reading
ends, also one whose request stopped waiting."""

import threading

import pytest

from tournament.core import background
from tournament.sheetphoto import pool
from tournament.sheetphoto.reader.read import SheetRefused


class Places(threading.BoundedSemaphore):
    """The pool's places, telling the test each time one is taken."""

    def __init__(self, value: int) -> None:
        super().__init__(value)
        self.taken = threading.Semaphore(0)

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool:
        got = super().acquire(blocking, timeout)
        if got:
            self.taken.release()
        return got


@pytest.fixture
def slow_pool(settings, monkeypatch):
    """One thread and one waiting place; each reading runs until the test
    lets it end (`release`), then refuses its photo."""
    settings.SHEET_PHOTO_WORKERS = 1
    settings.SHEET_PHOTO_WAITING = 1
    places = Places(2)
    monkeypatch.setattr(pool.photo_pool(), "_places", places)
    release = threading.Event()

    def reading(data, expected):
        release.wait(10)
        raise SheetRefused("not_image")

    monkeypatch.setattr(pool, "_read", reading)
    yield places, release
    release.set()
    background.shutdown()


def _read_in_thread(outcomes: list) -> threading.Thread:
    def run():
        try:
            pool.read_bounded(b"photo", expected=None)
        except (SheetRefused, pool.Busy) as error:
            outcomes.append(type(error).__name__)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_burst_beyond_the_places_is_refused_at_once(slow_pool):
    places, release = slow_pool
    outcomes: list[str] = []
    threads = [_read_in_thread(outcomes) for _ in range(2)]
    for _ in threads:
        assert places.taken.acquire(timeout=5)  # one reads, one waits
    with pytest.raises(pool.Busy):
        pool.read_bounded(b"photo", expected=None)
    release.set()
    for thread in threads:
        thread.join(5)
    assert outcomes == ["SheetRefused", "SheetRefused"]
    # The places came back: the next photo is read.
    with pytest.raises(SheetRefused):
        pool.read_bounded(b"photo", expected=None)


def test_a_reading_that_outlasts_its_request_keeps_its_place(slow_pool, settings):
    places, release = slow_pool
    settings.SHEET_PHOTO_SECONDS = 0.05
    with pytest.raises(pool.Busy):  # the request stops waiting
        pool.read_bounded(b"photo", expected=None)
    with pytest.raises(pool.Busy):
        pool.read_bounded(b"photo", expected=None)
    # Both places are held by readings still running: a third is refused
    # at once, without waiting for anything.
    assert places.taken.acquire(timeout=1) and places.taken.acquire(timeout=1)
    assert not places.acquire(blocking=False)
    release.set()
    # Each place comes back as its reading ends.
    for _ in range(2):
        assert places.acquire(timeout=5)
    places.release()
    places.release()
    settings.SHEET_PHOTO_SECONDS = 5
    with pytest.raises(SheetRefused):
        pool.read_bounded(b"photo", expected=None)
