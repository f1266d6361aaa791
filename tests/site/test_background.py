"""The process's background work (tournament/core/background.py): a burst
beyond a pool's bound is refused at once and starts no thread beyond its
workers, a place comes back when its call ends, the timer makes the
earliest call asked for per key, and shutdown ends and joins it all (on
the server's ASGI lifespan too)."""

import asyncio
import threading

import pytest

from tests.support.threads import served
from tournament.core import background

WAIT = 30  # seconds a test waits at most for a thread it set going


@pytest.fixture(autouse=True)
def fresh():
    background.shutdown()
    yield
    background.shutdown()


def _threads(prefix: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(prefix)]


def test_a_burst_beyond_the_bound_is_refused_and_starts_no_more_threads():
    before = threading.active_count()
    release = threading.Event()
    bursting = background.pool("burst", background.Bound(workers=2, queued=3))
    taken, refused = [], 0
    for _ in range(200):
        try:
            taken.append(bursting.submit(release.wait, WAIT))
        except background.Full as error:
            assert error.name == "burst"
            refused += 1
    assert len(taken) == 5 and refused == 195
    assert threading.active_count() <= before + 2
    assert len(_threads("burst")) == 2
    release.set()
    assert all(future.result(WAIT) for future in taken)
    # Every place came back with its call's end: the next burst is taken.
    again = [bursting.submit(int) for _ in range(5)]
    assert [future.result(WAIT) for future in again] == [0] * 5


def test_a_place_is_held_until_its_call_ends_not_while_its_caller_waits():
    release = threading.Event()
    single = background.pool("single", background.Bound(workers=1))
    running = single.submit(release.wait, WAIT)
    with pytest.raises(TimeoutError):
        running.result(timeout=0)  # the caller stops waiting
    with pytest.raises(background.Full):
        single.submit(int)
    release.set()
    running.result(WAIT)
    assert single.submit(int).result(WAIT) == 0


def test_the_same_name_is_the_same_pool_and_a_new_bound_a_new_one():
    first = background.pool("named", background.Bound(workers=1))
    assert background.pool("named", background.Bound(workers=1)) is first
    second = background.pool("named", background.Bound(workers=2))
    assert second is not first and background.pools() == {"named": second}


def test_the_timer_makes_the_earliest_call_per_key():
    made: list[str] = []
    done = threading.Event()

    def call(word: str):
        def make() -> None:
            made.append(word)
            done.set()

        return make

    # The timer waits on this lock: it makes no call before all three are
    # asked for (else "later still" would be a new call after "soon").
    with background._due_lock:
        background.later(3600, call("late"), key="table")
        background.later(0, call("soon"), key="table")
        background.later(3600, call("later still"), key="table")
    assert done.wait(WAIT)
    assert made == ["soon"] and background.due() == {}
    background.later(3600, call("other"), key="other")
    assert set(background.due()) == {"other"}


def test_a_failing_timed_call_does_not_end_the_timer():
    done = threading.Event()

    def fail() -> None:
        raise RuntimeError("broken")

    background.later(0, fail, key="broken")
    background.later(0, done.set, key="next")
    assert done.wait(WAIT)


def test_shutdown_tells_long_calls_cancels_waiting_ones_and_joins_every_thread():
    ended = threading.Event()

    def long_call() -> str:
        background.stopping.wait()  # as a bot runner waits between moves
        ended.set()
        return "ended"

    long = background.pool("long", background.Bound(workers=1, queued=2))
    running = long.submit(long_call)
    waiting = long.submit(long_call)
    other = background.pool("other", background.Bound(workers=1))
    other.submit(int).result(WAIT)
    background.later(3600, lambda: None, key="never")
    assert _threads("long") and _threads("other") and _threads("timer")

    background.shutdown()

    assert ended.is_set() and running.result(0) == "ended"
    assert waiting.cancelled()
    assert not _threads("long") and not _threads("other") and not _threads("timer")
    assert background.pools() == {} and background.due() == {}
    # Afterwards the module is as at the start.
    assert not background.stopping.is_set()
    assert background.pool("long", background.Bound(1)).submit(int).result(WAIT) == 0


def test_nothing_is_taken_while_shutting_down():
    background.stopping.set()
    try:
        with pytest.raises(background.Full):
            background.pool("late", background.Bound(workers=1)).submit(int)
        background.later(0, lambda: None, key="late")
        assert background.due() == {}
    finally:
        background.stopping.clear()


def test_the_servers_lifespan_shutdown_ends_the_background_work():
    from config.asgi import application

    release = threading.Event()
    pool = background.pool("served", background.Bound(workers=1))
    pool.submit(background.stopping.wait)
    assert _threads("served")
    messages = asyncio.Queue()
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def serve() -> None:
        await messages.put({"type": "lifespan.startup"})
        await messages.put({"type": "lifespan.shutdown"})
        await application({"type": "lifespan"}, messages.get, send)

    asyncio.run(serve())
    release.set()
    assert [m["type"] for m in sent] == [
        "lifespan.startup.complete",
        "lifespan.shutdown.complete",
    ]
    assert not _threads("served") and background.pools() == {}


def test_soon_without_a_server_loop_runs_the_call_to_its_end_here():
    done = []

    async def call(value: int) -> None:
        await asyncio.sleep(0)
        done.append(value)

    background.soon(call, 7)
    assert done == [7]


def test_a_call_handed_to_the_loop_that_fails_is_logged(caplog):
    async def failing() -> None:
        raise LookupError("kaputt")

    async def scenario() -> None:
        async with served():
            await asyncio.to_thread(background.soon, failing)
            for _ in range(100):  # the loop's turns until it has run
                if "kaputt" in caplog.text:
                    break
                await asyncio.sleep(0.01)

    asyncio.run(scenario())
    assert "a call handed to the event loop failed" in caplog.text
    assert "LookupError: kaputt" in caplog.text
