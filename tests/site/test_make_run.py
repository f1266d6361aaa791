"""`make run` as a newcomer runs it (issue 14.1): the demo behind the
production server (uvicorn, DEBUG off, WhiteNoise) on HOST:PORT. A wrong
address gets the site's German 404, never Django's debug page with every
URL pattern; a crawler's kept-alive connections are all kept (Django's
development server dropped 13 of about 800)."""

import http.client
import os
import re
import signal
import socket
import subprocess
import threading
import time
from collections import deque
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest

from tests.support import servers
from tests.support.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.server]

CONNECTIONS = 4
REQUESTS = 320
# Never followed: signing in and out (each page links the sign-in with
# itself as the next page), switching the language, Django's admin.
SKIP = re.compile(r"^/(konto|i18n|admin)/")


def make_env(var_dir: Path) -> dict[str, str]:
    """The environment of a terminal: no test settings, no DEBUG, no key
    (make generates one under var/), the embedded SQLite under `var_dir`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DJANGO_SETTINGS_MODULE",
            "DEBUG",
            "SECRET_KEY",
            "DATABASE_URL",
            "REDIS_URL",
            "ALLOWED_HOSTS",
            "PYTEST_XDIST_WORKER",
        }
    }
    env["VAR_DIR"] = str(var_dir)
    return env


def _once_per_run(tmp_path_factory) -> None:
    """Fails if another worker of this run started `make run` already: the
    run's temporary folder is shared by its workers (each has a folder of
    its own inside it)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    try:
        (base / "make-run-started").touch(exist_ok=False)
    except FileExistsError:
        pytest.fail("make run started twice in one run: run with --dist loadfile")


@pytest.fixture(scope="module")
def make_run(tmp_path_factory):
    """`make run` on a free port; yields the port and what make printed
    before the server started. The requirements are installed already
    (-o: make does not reinstall them).

    Once per suite run: the module's tests share it, and with -n the
    whole file runs on one worker (--dist loadfile in pyproject.toml).
    `make run` always serves its own SQLite file under var/, whatever
    DATABASE_URL says, so a run against another database skips it."""
    if os.environ.get("DATABASE_URL"):
        pytest.skip(
            "make run serves its own SQLite file and ignores DATABASE_URL: "
            "the run without DATABASE_URL tests it"
        )
    _once_per_run(tmp_path_factory)
    port = free_port()
    var_dir = tmp_path_factory.mktemp("make-run-var")
    log = var_dir / "make.log"
    with log.open("w") as out:
        process = servers.spawn(
            ["make", "-o", ".venv/.run-stamp", "run", f"PORT={port}"],
            cwd=ROOT,
            env=make_env(var_dir),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make and its uvicorn, ended together
        )
    try:
        deadline = time.monotonic() + 180
        while True:
            assert process.poll() is None, log.read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.5)
        yield port, log.read_text()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


def get(port: int, path: str) -> tuple[int, http.client.HTTPMessage, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read().decode("utf-8", "replace")
        return response.status, response.msg, body
    finally:
        connection.close()


def test_make_run_prints_the_address_and_the_logins(make_run):
    port, printed = make_run
    assert f"http://127.0.0.1:{port}/" in printed
    assert "organizer / organizer-demo" in printed
    assert "referee / referee-demo" in printed
    assert "runserver" not in printed and "manage.py serve" in printed
    status, _, body = get(port, "/")
    assert status == 200 and "Rheinland-Meisterschaft" in body


def test_a_wrong_address_gets_the_german_404_not_the_debug_page(make_run):
    port, _ = make_run
    status, headers, body = get(port, "/gibt-es-nicht/")
    assert status == 404
    assert headers["Content-Type"].startswith("text/html")
    assert '<html lang="de"' in body
    assert "Seite nicht gefunden" in body and "Zur Startseite" in body
    # Django's debug 404 lists every URL pattern of the site.
    for debug in ("URLconf", "urlpatterns", "DEBUG = True", "Page not found"):
        assert debug not in body, debug
    assert "verwaltung/" not in body


def test_static_files_come_from_whitenoise_with_hashed_names(make_run):
    port, _ = make_run
    _, _, page = get(port, "/")
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', page)
    assert css, "no hashed stylesheet: collectstatic's manifest is not used"
    status, headers, _ = get(port, css.group(1))
    assert status == 200 and "max-age" in headers["Cache-Control"]
    assert get(port, "/static/favicon.svg")[0] == 200


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (tag, name) in {
                ("a", "href"),
                ("link", "href"),
                ("script", "src"),
            }:
                self.found.append(value)


def test_a_crawl_over_kept_alive_connections_loses_none(make_run):
    """A few hundred requests over four kept-alive connections at once,
    following the links of the demo's pages (static files included):
    every request gets its whole answer on its connection."""
    port, _ = make_run
    queue: deque[str] = deque(["/"])
    seen = {"/"}
    visited: list[str] = []
    lock = threading.Lock()
    dropped: list[str] = []
    errors: list[tuple[str, int]] = []
    done = {"count": 0}

    def next_path() -> str | None:
        with lock:
            if done["count"] >= REQUESTS:
                return None
            done["count"] += 1
            if queue:
                path = queue.popleft()
                visited.append(path)
                return path
            # Everything found once: again, round the pages seen.
            return visited[done["count"] % len(visited)] if visited else "/"

    def crawl() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while (path := next_path()) is not None:
            try:
                connection.request("GET", path, headers={"Connection": "keep-alive"})
                response = connection.getresponse()
                body = response.read()
            except (http.client.HTTPException, OSError) as error:
                dropped.append(f"{path}: {error!r}")
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            if response.status >= 500:
                errors.append((path, response.status))
            if response.getheader("Connection", "").lower() == "close":
                dropped.append(f"{path}: the server closed the connection")
            if "html" not in response.getheader("Content-Type", ""):
                continue
            parser = Links()
            parser.feed(body.decode("utf-8", "replace"))
            with lock:
                for link in parser.found:
                    url = urldefrag(urljoin(path, link)).url
                    parts = urlsplit(url)
                    if parts.netloc not in ("", f"127.0.0.1:{port}"):
                        continue
                    local = parts.path + (f"?{parts.query}" if parts.query else "")
                    if local not in seen and not SKIP.match(parts.path):
                        seen.add(local)
                        queue.append(local)
        connection.close()

    threads = [threading.Thread(target=crawl) for _ in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert done["count"] == REQUESTS
    assert not dropped, dropped[:5]
    assert not errors, errors[:5]
    assert len(seen) > 30, "the crawl found too few pages to mean anything"


def test_make_dev_keeps_the_development_server():
    """Developers keep DEBUG and the reloading server: make dev."""
    done = subprocess.run(
        ["make", "-n", "-o", ".venv/.run-stamp", "dev"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "DEBUG=1" in done.stdout and "runserver" in done.stdout
    run = subprocess.run(
        ["make", "-n", "-o", ".venv/.run-stamp", "run", "HOST=0.0.0.0", "PORT=9999"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "runserver" not in run.stdout
    assert "--host 0.0.0.0 --port 9999" in run.stdout


def test_the_hall_does_its_housekeeping_at_every_start():
    """A laptop that sees no photo after the championship day still lets
    its score sheets' photos (and old submission keys) go once their time
    is up: make run and make serve run the housekeeping before they serve."""
    for target in ("run", "serve"):
        done = subprocess.run(
            ["make", "-n", "-o", ".venv/.run-stamp", "-o", "secret-key", target],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        lines = done.stdout.splitlines()
        expire = [n for n, line in enumerate(lines) if "housekeeping -v0" in line]
        served = [n for n, line in enumerate(lines) if "manage.py serve" in line]
        assert expire and served and expire[0] < served[0], (target, done.stdout)
