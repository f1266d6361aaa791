"""WeasyPrint's part of a PDF: HTML and CSS already rendered in, the PDF's
bytes out, with nothing of Django, so that it can run in a process of its
own (`lay_out_apart`).

Laying out the score sheets of a series is tens of seconds of one Python
interpreter's time, and the server has one interpreter per process: laid
out beside the requests, a print at a series' release made every phone in
the hall wait for its turn. In a process of its own (one, kept, started
with the forkserver: the server's threads are not forked) it takes the
other core, and the server waits for it without holding its interpreter.
The layout reports each document it has laid out back to its caller (the
paper jobs' progress).
"""

import gc
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.queues import Queue
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from tournament.core import background

STATIC_DIR = (Path(__file__).resolve().parents[2] / "static").resolve()
BASE_URL = STATIC_DIR.as_uri() + "/"


class StaticFilesFetcher(URLFetcher):
    """Fetch only files under static/ (the fonts) and data: URLs (an image
    the template carries itself, e.g. a score sheet's QR code): a print
    template never reaches the network or the rest of the disk."""

    def fetch(
        self, url: str, headers: dict[str, str] | None = None
    ) -> URLFetcherResponse:
        if url.startswith("data:"):
            return super().fetch(url, headers)
        if url.startswith("file:"):
            path = Path(url2pathname(urlsplit(url).path)).resolve()
            if path.is_relative_to(STATIC_DIR):
                return super().fetch(url, headers)
        raise ValueError(f"PDF templates may only load static files, not {url!r}")


_gc_lock = threading.Lock()
_gc_renders = 0


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while WeasyPrint renders: it
    builds large graphs of boxes, and the collector walking them again and
    again costs a good part of each render (bench/paper.py). The garbage is
    collected as usual afterwards. Counted, as renders may overlap."""
    global _gc_renders
    with _gc_lock:
        _gc_renders += 1
        if _gc_renders == 1:
            gc.disable()
    try:
        yield
    finally:
        with _gc_lock:
            _gc_renders -= 1
            if _gc_renders == 0:
                gc.enable()


@dataclass(frozen=True)
class Draft:
    """A PDF to lay out: HTML documents, whose pages are joined in order,
    and the stylesheets (CSS text) they all share."""

    documents: tuple[str, ...]
    styles: tuple[str, ...]


def lay_out(
    draft: Draft, done: Callable[[int], None] | None = None
) -> tuple[bytes, int]:
    """The PDF of `draft` and its number of pages; `done(n)` after the n-th
    document is laid out. The stylesheets are parsed once for all
    documents, and every font is embedded once."""
    fetcher = StaticFilesFetcher()
    with gc_paused():
        font_config = FontConfiguration()
        stylesheets = [
            CSS(
                string=text,
                base_url=BASE_URL,
                url_fetcher=fetcher,
                font_config=font_config,
            )
            for text in draft.styles
        ]
        laid_out = []
        for index, html in enumerate(draft.documents, 1):
            laid_out.append(
                HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher).render(
                    stylesheets=stylesheets, font_config=font_config
                )
            )
            if done is not None:
                done(index)
        document = laid_out[0]
        if len(laid_out) > 1:
            document = document.copy([page for d in laid_out for page in d.pages])
        content = document.write_pdf()
        pages = len(document.pages)
        # Let go of the documents while the collector is still paused: what
        # is left of them (the HTML parser's trees hold cycles) is collected
        # once, young, rather than walked as live and again later.
        del laid_out, document, stylesheets, font_config
    return content, pages


# --- In a process of its own -------------------------------------------------

POOL = "paper"
_CONTEXT = get_context("forkserver")
# One layout at a time per server process: the layout process has one
# worker, and its reports of documents done belong to the one caller.
_apart_lock = threading.Lock()
_reports: "Queue[int] | None" = None  # in the layout process: to its server


def _start(reports: "Queue[int]") -> None:
    global _reports
    _reports = reports


def _lay_out_there(draft: Draft) -> tuple[bytes, int]:
    reports = _reports
    return lay_out(draft, reports.put if reports is not None else None)


_queue: "Queue[int] | None" = None  # in the server: from its layout process


def lay_out_apart(
    draft: Draft, done: Callable[[int], None] | None = None
) -> tuple[bytes, int]:
    """`lay_out` in this server process's layout process, the calling thread
    waiting (and passing on its reports to `done`)."""
    global _queue
    with _apart_lock:
        if _queue is None:
            _queue = _CONTEXT.Queue()
        reports = _queue
        executor = background.processes(
            POOL, context=_CONTEXT, initializer=_start, initargs=(reports,)
        )
        while not reports.empty():  # a failed layout's last reports
            reports.get_nowait()
        try:
            future = executor.submit(_lay_out_there, draft)
            return _wait(future, reports, len(draft.documents), done)
        except BrokenProcessPool:
            # The layout process died (out of memory, killed): the next
            # print starts a new one, with a new queue.
            background.drop_processes(POOL)
            _queue = None
            raise


def _wait(
    future: "Future[tuple[bytes, int]]",
    reports: "Queue[int]",
    documents: int,
    done: Callable[[int], None] | None,
) -> tuple[bytes, int]:
    """The layout's result, its reports (one per of its `documents`) passed
    on to `done` meanwhile."""
    reported = 0
    while reported < documents:
        # Once the layout is done, its last reports are on their way still
        # (or it failed and sends no more).
        try:
            reported = reports.get(timeout=1.0 if future.done() else 0.1)
        except queue.Empty:
            if future.done():
                return future.result()
            continue
        if done is not None:
            done(reported)
    return future.result()
