"""SQLite, its connections kept for the next request.

Django opens a connection for every request and every live render and
closes it after: under ASGI it keeps one per request's context, not per
thread, so persistent connections (CONN_MAX_AGE) only pile up, and Django
offers a pool for PostgreSQL alone. Opening one costs SQLite the parse of
the whole schema (about 0.5 ms of CPU at 139 tables and indexes), and
closing the last one checkpoints the WAL and deletes its files, which the
next opening makes again: a profile of the hall's whole day put a seventh
of the server's time there. So a closed connection goes back to a small
pool of this process and the next opening takes it, as it was opened
(the same options and pragmas); Django sets its autocommit again as for a
new one. A connection closed inside a transaction is really closed, and
so is any beyond KEEP: at most KEEP connections (two files each) wait.
An in-memory database (the tests') is never closed by Django and never
pooled."""

import os
import queue
import sqlite3
from typing import Any

from django.db.backends.sqlite3 import base

# Connections kept per database file and process: the hall's one process
# reads from one request thread, the live renders' few threads and the
# photos' reader at once.
KEEP = 4

_pools: dict[tuple[int, str], queue.LifoQueue[sqlite3.Connection]] = {}


def _pool(name: str) -> queue.LifoQueue[sqlite3.Connection]:
    # Keyed by process too: a forked worker must not share its parent's
    # connections.
    key = (os.getpid(), name)
    pool = _pools.get(key)
    if pool is None:
        pool = _pools.setdefault(key, queue.LifoQueue(maxsize=KEEP))
    return pool


def kept(name: str) -> int:
    """How many connections to the database file `name` wait in this
    process."""
    return _pool(name).qsize()


def close_kept() -> None:
    """Close every connection this process keeps (a test's files go, and
    the last one closed checkpoints its WAL); a forked child leaves its
    parent's alone."""
    here = os.getpid()
    for (pid, _name), pool in _pools.items():
        if pid != here:
            continue
        while True:
            try:
                pool.get_nowait().close()
            except queue.Empty:
                break


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if not self.is_in_memory_db():
            try:
                return _pool(str(self.settings_dict["NAME"])).get_nowait()
            except queue.Empty:
                pass
        return super().get_new_connection(conn_params)

    def _close(self) -> None:
        connection = self.connection
        if (
            connection is not None
            and not self.is_in_memory_db()
            and not connection.in_transaction
        ):
            try:
                _pool(str(self.settings_dict["NAME"])).put_nowait(connection)
                return
            except queue.Full:
                pass
        super()._close()  # type: ignore[misc]  # not in django-stubs
