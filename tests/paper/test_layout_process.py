"""The PDFs are laid out in a process of their own (the server's
interpreter stays with the requests), report their progress from there,
and a layout process that died is replaced at the next print."""

import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from tournament.core import background
from tournament.paper import layout

DRAFT = layout.Draft(
    documents=("<h1>Eins</h1>", "<h1>Zwei</h1>", "<h1>Drei</h1>"),
    styles=("@page { size: A4 }",),
)


def _worker_pids() -> set[int]:
    pool = background.processes(layout.POOL, context=layout._CONTEXT)
    return set(pool._processes)  # the worker processes: the one thing to see


def test_a_pdf_is_laid_out_in_a_process_of_its_own_with_its_progress():
    done = []
    content, pages = layout.lay_out_apart(DRAFT, done.append)
    assert content.startswith(b"%PDF-") and pages == 3
    assert done == [1, 2, 3]
    workers = _worker_pids()
    assert workers and os.getpid() not in workers


def test_a_layout_process_that_died_is_replaced_at_the_next_print():
    layout.lay_out_apart(DRAFT)
    (worker,) = _worker_pids()
    os.kill(worker, signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):
        layout.lay_out_apart(DRAFT)
    content, pages = layout.lay_out_apart(DRAFT)
    assert content.startswith(b"%PDF-") and pages == 3
    assert worker not in _worker_pids()


def test_the_layout_process_ends_with_the_process_background_work():
    layout.lay_out_apart(DRAFT)
    workers = _worker_pids()
    background.shutdown()
    for worker in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(worker, 0)
