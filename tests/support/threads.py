"""Running code in a thread of its own, for tests whose own thread may hold
an event loop; running calls in threads at once, for the concurrency tests
on PostgreSQL; the server's lifespan around a scenario."""

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync


def in_own_thread(function, *args, **kwargs):
    """Run `function` in a thread of its own and return its result. The
    test's thread may hold another event loop (Playwright's sync API in a
    session fixture of the browser tests), where asyncio.run, async_to_sync
    and a second sync Playwright all refuse to start."""
    outcome = {}

    def target():
        from django.db import connections

        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error
        finally:
            connections.close_all()  # else PostgreSQL keeps the test db busy

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def run_async(scenario, *args: Any) -> Any:
    """An async scenario (a coroutine function), run to the end in a thread
    of its own."""
    return in_own_thread(async_to_sync(scenario), *args)


def in_threads(*calls: Callable[[], object]) -> list[object]:
    """Run each call in a thread of its own, all started before any is
    waited for; what each returned or raised (an Exception is returned, for
    the asserts), in the calls' order. Each thread closes its database
    connections (else PostgreSQL keeps the test database busy)."""
    results: list[object] = [None] * len(calls)

    def worker(i: int, call: Callable[[], object]) -> None:
        from django.db import connections

        try:
            results[i] = call()
        except Exception as error:  # collected for the asserts
            results[i] = error
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def run_together(lock: tuple[Any, str], *calls: Callable[[], object]) -> list[object]:
    """Run the calls in threads of their own that meet inside their
    transactions, right before each takes the row lock (`lock`: the module
    and name of the function that takes it): all are in flight at once and
    none has locked or committed. Returns what each returned or raised."""
    module, name = lock
    real_lock = getattr(module, name)
    barrier = threading.Barrier(len(calls), timeout=30)
    met = threading.local()

    def meet_then_lock(*args: Any, **kwargs: Any) -> Any:
        if not getattr(met, "done", False):  # a thread's first lock only
            met.done = True
            barrier.wait()
        return real_lock(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, name, meet_then_lock)
        results = in_threads(*calls)
    broken = [r for r in results if isinstance(r, threading.BrokenBarrierError)]
    assert not broken, "the calls never stood at the lock together"
    return results


@contextlib.asynccontextmanager
async def served() -> AsyncIterator[None]:
    """The server's ASGI lifespan on the running loop, as uvicorn runs it:
    started on entry (the loop becomes the one `background.soon` hands
    coroutines to), shut down on exit (the background work joined)."""
    from tournament.core import background

    inbox: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    started = asyncio.Event()

    async def send(message: dict[str, str]) -> None:
        if message["type"] == "lifespan.startup.complete":
            started.set()

    await inbox.put({"type": "lifespan.startup"})
    lifespan = asyncio.create_task(
        background.Lifespan()({"type": "lifespan"}, inbox.get, send)
    )
    await started.wait()
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        await lifespan
