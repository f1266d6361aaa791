"""Test-only launcher for tests/site/test_faults.py (no tests here; the
site never imports it): uvicorn servers on config.asgi whose result services
can be made to stop dead inside their transaction, so that the test can kill
a server process exactly there.

    FAULT_DIR=/some/dir FAULT_REPORT_FD=N python -m tests.site.fault_server

Fault points: the functions of `tournament.results.services` named in
POINTS are wrapped. Before a request the test writes a point such as
``totals_refresh:before`` or ``audit_record:after`` into ``FAULT_DIR/arm``.
The next call that gets there (before or after the real function runs)
removes ``arm``, reports to the test (one datagram of JSON on the socket
FAULT_REPORT_FD, which the test handed down: the point, the pid, whether a
transaction is open) and sleeps with the request's transaction open until
the test sends SIGKILL. A server nobody kills gives up after HANG_SECONDS
with an error, which rolls the transaction back.

Servers: importing Django, Channels, uvicorn and the views takes seconds,
so this process does it once and forks a server process per ``serve PORT``
line on stdin (as gunicorn's --preload does). Every server is a process of
its own that opens its database and cache connections itself, after the
fork; a server killed with SIGKILL is gone, and the next ``serve`` starts a
new one. Commands, one reply line each on stdout:

    serve        start a server on a free port of 127.0.0.1; reply: its pid
                 and the port, which listens already (a first request
                 waits in its queue until the server takes it)
    poll PID     reply: "running", or the exit code (-9: SIGKILL)
    wait PID     wait for the server to end; reply: its exit code

At the end of stdin every server still running gets SIGTERM (SIGKILL after
ten seconds) and the launcher exits.
"""

import functools
import json
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Called by result_enter and result_confirm inside their transaction: the
# scores of a confirmed version, the players' totals, the audit row (last).
POINTS = ("rebuild_table_scores", "totals_refresh", "audit_record")
HANG_SECONDS = 60.0
STOP_SECONDS = 10.0


def _maybe_stop(control: Path, point: str) -> None:
    arm = control / "arm"
    try:
        wanted = arm.read_text().strip()
    except FileNotFoundError:
        return
    if wanted != point:
        return
    arm.unlink()
    from django.db import connection

    reached = {
        "point": point,
        "pid": os.getpid(),
        "in_transaction": connection.in_atomic_block,
    }
    os.write(int(os.environ["FAULT_REPORT_FD"]), json.dumps(reached).encode())
    time.sleep(HANG_SECONDS)
    raise RuntimeError(f"fault point {point}: the test did not kill the server")


def _wrap(control: Path, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(real)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _maybe_stop(control, f"{name}:before")
        value = real(*args, **kwargs)
        _maybe_stop(control, f"{name}:after")
        return value

    return wrapper


def install(control: Path) -> None:
    """Wrap the fault points (the services look them up as module globals
    at each call, so replacing the module attributes is enough)."""
    from tournament.results import services as results_services

    for name in POINTS:
        setattr(
            results_services,
            name,
            _wrap(control, name, getattr(results_services, name)),
        )


def _serve(application: Any, sock: socket.socket) -> None:
    """In the forked child: be a server until stopped; never return."""
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)  # the commands are the launcher's
        os.dup2(2, 1)  # the replies too: the child's output goes to the log
        import uvicorn

        from tournament.core.front import HallProtocol

        config = uvicorn.Config(
            application,
            http=HallProtocol,
            log_level="warning",
            lifespan="off",
            reset_contextvars=True,
        )
        uvicorn.Server(config).run(sockets=[sock])
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def _fork_server(application: Any) -> tuple[int, int]:
    """Fork a server on a socket that listens before the fork; return its
    pid and port."""
    from django.db import connections

    # Forking is safe only from a single thread with nothing open that the
    # child would share (but the listening socket, which is its).
    assert threading.active_count() == 1, "the launcher has threads"
    assert all(c.connection is None for c in connections.all()), (
        "the launcher has a database connection"
    )
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _serve(application, sock)
        return pid, sock.getsockname()[1]


def _reap(children: dict[int, int | None], pid: int, *, block: bool) -> int | None:
    if children[pid] is None:
        done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
        if done:
            children[pid] = os.waitstatus_to_exitcode(status)
    return children[pid]


def _stop_all(children: dict[int, int | None]) -> None:
    running = [pid for pid, code in children.items() if code is None]
    for pid in running:
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for pid in running:
        while _reap(children, pid, block=False) is None:
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                _reap(children, pid, block=True)
                break
            time.sleep(0.05)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    import django

    django.setup()
    install(Path(os.environ["FAULT_DIR"]))
    import uvicorn  # noqa: F401 - imported once, for every server
    from django.urls import get_resolver

    from config.asgi import application

    get_resolver().url_patterns  # noqa: B018 - imports every view module

    children: dict[int, int | None] = {}
    try:
        while line := sys.stdin.readline():
            command, _, argument = line.strip().partition(" ")
            if command == "serve":
                pid, port = _fork_server(application)
                children[pid] = None
                reply: object = f"{pid} {port}"
            elif command in ("poll", "wait"):
                code = _reap(children, int(argument), block=command == "wait")
                reply = "running" if code is None else code
            else:
                reply = f"unknown command {command!r}"
            print(reply, flush=True)
    finally:
        _stop_all(children)


if __name__ == "__main__":
    main()
