"""Running code in a thread of its own, for tests whose own thread may hold
an event loop."""

import threading
from typing import Any

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
