"""The hall's server against clients that misbehave at its front door, each
as a black-box probe of `make run` found it (bench/frontdoor.py has the
attacks, with the probe's socket counts and sizes): a server started as
the hall starts it (`manage.py serve`, config.settings with DEBUG off,
collectstatic's manifest) under a soft open-files limit of 1,024, which
the start command raises. Throughout each attack a referee and a phone
keep asking for their pages: both answered (p95 within ATTACKED_P95_S),
never anything but 200, and the server's memory within +200 MB of its
start once the attack is over; no traceback in its log.

The servers here wait less than the hall's before they cut a client off
(DEADLINES), so that an attack needs seconds, not the half minute the
hall's deadlines take; `python bench/frontdoor.py` plays the attacks at the
hall's deadlines and the probe's full lengths. One module, so the attacks
never run beside each other on two test workers.
"""

import functools

import pytest

from bench import frontdoor
from tests.support.threads import in_own_thread
from tournament.core.front import Budget
from tournament.core.sqlite import base as sqlite

# Real servers under attack: not in test-fast.
pytestmark = [pytest.mark.slow(minutes=4), pytest.mark.server]

# The acceptance's 1 s is `python bench/frontdoor.py`'s, on a quiet
# machine. Here other test workers share the cores, and a busy moment took
# the pages to 1.1-1.6 s; an attack that gets through stops them for ten
# seconds and more (the probe: 9.7-45 s), so this bound still fails it.
ATTACKED_P95_S = 4.0

DEADLINES = {
    "FRONT_HEAD_SECONDS": "3",
    "FRONT_WRITE_SECONDS": "4",
    "REQUEST_BODY_SECONDS": "3",
}


def _hall(tmp_path_factory, name, **limits):
    frontdoor.raise_own_limit()  # 1,500 sockets of the test's own
    folder = tmp_path_factory.mktemp(name)
    with frontdoor.hall(folder, deadlines=DEADLINES, **limits) as found:
        yield found
        assert not frontdoor.tracebacks(frontdoor.server_log(found))


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    yield from _hall(tmp_path_factory, "front-door", files=1024)


@pytest.fixture(scope="module")
def low_hall(tmp_path_factory):
    """A system whose open-files limit the start cannot raise (1,024)."""
    yield from _hall(
        tmp_path_factory, "front-door-low", files=1024, hard=1024, photo=False
    )


def attacked(found, attack, **given):
    figures = in_own_thread(frontdoor.run, found, functools.partial(attack, **given))
    assert not frontdoor.held(figures, ATTACKED_P95_S), figures
    assert not frontdoor.tracebacks(frontdoor.server_log(found))
    return figures["attack"]


# --- Connections ------------------------------------------------------------------


def test_clients_that_never_read_keep_nobody_out(hall):
    """Three connections pipeline 100 GETs of a 0.7 MB static file each and
    read nothing: they held every place of the phones' lane for the whole
    45 s of the probe's hold, and the kept standings hung past 60 s. Now an
    answer leaves the lane when it starts, static files take none, and a
    client that takes nothing of its answer for FRONT_WRITE_SECONDS is cut
    off."""
    seen = attacked(hall, frontdoor.unread, connections=3, requests=100, seconds=8)
    assert seen["closed_by_server"] == 3


@pytest.mark.parametrize(
    "attack, megabytes",
    [(frontdoor.headers, 40), (frontdoor.header, 47)],
    ids=["40 MB of tiny headers", "one header of 47 MB"],
)
def test_endless_headers_are_refused_as_they_arrive(hall, attack, megabytes):
    """40 MB of tiny headers froze every page for up to 24 s and added
    611 MB; one of 47 MB froze it for 9.7 s. A head beyond 16 KB is
    refused (400) as it arrives: nothing more is gathered."""
    seen = attacked(hall, attack, megabytes=megabytes)
    assert seen["answer"] in ("", "HTTP/1.1 400 Bad Request"), seen
    # What loopback's buffers took before the server stopped reading.
    assert seen["sent_mb"] < 16


def test_connections_that_never_send_a_head_are_closed(hall):
    """1,050 connections that send nothing made 30 of 30 requests fail
    under the laptop's limit of 1,024 open files. The start command raised
    the limit, and each is closed FRONT_HEAD_SECONDS after it opened."""
    seen = attacked(hall, frontdoor.idle, count=1050, seconds=6)
    assert seen == {"opened": 1050, "closed_by_server": 1050}


def test_1500_websockets_are_all_served_under_a_limit_of_1024(hall):
    """1,000 open websockets made every request a 500 under the laptop's
    limit of 1,024 open files: the start command raises it to the hard
    limit, and all of 1,500 sockets subscribe to the live standings."""
    seen = attacked(hall, frontdoor.sockets, count=1500, seconds=1)
    assert seen == {"subscribed": 1500}


def test_connections_closed_before_reading_leave_nothing_behind(hall):
    """600 connections that pipeline GETs of a page made by Django and
    close before reading left their request threads and database
    connections behind (1,124 open files, 193 idle threads) and a 30-line
    traceback each. Only SQLite's kept connections (`core.sqlite`: at
    most 2 × KEEP + 1 files) may wait for the next requests."""
    seen = attacked(hall, frontdoor.early_close, connections=600, requests=20)
    kept = 2 * sqlite.KEEP + 1
    assert seen["after"]["threads"] <= seen["before"]["threads"] + 2, seen
    assert seen["after"]["open_files"] <= seen["before"]["open_files"] + 5 + kept, seen


def test_a_flood_of_pipelined_requests_is_taken_one_at_a_time(hall):
    """24 MiB of pipelined requests stalled the standings and the phones'
    pages for up to 43 s and took the server from 173 MB to 1.26 GB: a
    connection's next request is read only when its answer is out."""
    seen = attacked(hall, frontdoor.flood, megabytes=24, connections=8, seconds=6)
    assert seen["answers_read"] > 0


def test_made_up_session_cookies_get_the_kept_page(hall):
    """300 connections with a made-up session cookie each time sent even
    the kept standings into Django (phones' pages p50 6.8 s): a cookie the
    session store does not know is no session."""
    seen = attacked(hall, frontdoor.made_up, connections=300, seconds=6)
    assert set(seen["statuses"]) == {"200"}, seen


# --- Uploads ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "attack", [frontdoor.images, frontdoor.images_referee], ids=["player", "referee"]
)
def test_a_60_megapixel_png_six_at_a_time_costs_nobody_their_page(hall, attack):
    """A 60-megapixel PNG of 200 KB cost seconds of CPU and +600 MB to
    decode before it was refused, and each held its place in Django
    meanwhile: one player's link sending six at a time pushed the phones'
    pages to 9-12 s, one referee the other referee's to 12 s. Now its size
    is read from its header and it is refused undecoded, a photo waiting
    for the readers gives up its place, and a sender gets only so many
    photos in five minutes."""
    seen = attacked(hall, attack, at_once=6, seconds=6)
    assert set(seen["statuses"]) <= {"200", "429"}, seen


def test_bytes_after_a_photo_and_photo_after_photo_do_not_fill_the_disk(hall):
    """A player's link sending photos of its sheet with 20 MB after the
    image's end, six at a time, added 531 MB in 20 s. Now a photo is kept
    up to its image's end, a table keeps three unsaved ones, and a link
    sends six photos in five minutes."""
    seen = attacked(hall, frontdoor.disk, at_once=6, seconds=10)
    assert "500" not in seen["statuses"], seen
    assert seen["photos_grew_mb"] < 10, seen


@pytest.mark.parametrize(
    "count, megabytes", [(600, 2.4), (100, 25)], ids=["600 × 2.4 MB", "100 × 25 MB"]
)
def test_bodies_in_flight_are_budgeted(hall, count, megabytes):
    """600 anonymous bodies of 2.4 MB waiting for their deadline took the
    server to 2.3 GB, 100 of 25 MB used 1.6 GB of its disk. Now only so many
    bodies and bytes are in flight at once; one more gets 503 unread."""
    seen = attacked(hall, frontdoor.bodies, count=count, megabytes=megabytes)
    statuses = seen["statuses"]
    assert "503" in statuses or "ConnectionResetError" in statuses, seen
    # Bodies read at once: at most the room's count. (Over the whole attack
    # a room freed by 408s is taken again: on a slow machine the 600 came in
    # two waves of 40.)
    assert seen["read_at_once"] <= 64, seen


# --- A limit the start cannot raise -------------------------------------------------


def test_the_start_command_says_when_the_limit_stays_low(low_hall):
    log = frontdoor.server_log(low_hall)
    assert "nur 1024 offene Dateien" in log and "ulimit -n" in log


def test_idle_connections_beyond_the_budget_make_room(low_hall):
    """1,050 connections that send nothing, more than the 1,024 files allow:
    the longest waiting is closed for each new one, so the referee's and
    the phone's connections get in."""
    seen = attacked(low_hall, frontdoor.idle, count=1050, seconds=6)
    assert seen["opened"] == 1050 and seen["closed_by_server"] == 1050


def test_websockets_beyond_their_share_are_refused_and_requests_still_served(
    low_hall,
):
    """1,000 websockets made every request a 500 at a limit of 1,024: only
    the budget's share is taken (the pages poll instead), the rest of the
    files stay for requests."""
    seen = attacked(low_hall, frontdoor.sockets, count=1000, seconds=1)
    share = Budget.of(1024).sockets
    assert seen == {"subscribed": share, "refused": 1000 - share}, seen
