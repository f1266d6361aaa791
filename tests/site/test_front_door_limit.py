"""The hall's server on a system whose open-files limit cannot be raised
(soft and hard 1,024): the start command says so, and the connections it
allows are budgeted so that a hall's sockets and idle connections never
keep the referee's and the phone's pages out (bench/frontdoor.py;
tests/site/test_front_door.py says what each test holds the server to)."""

import pytest

from bench import frontdoor
from tests.site.test_front_door import attacked
from tournament.core.front import Budget

pytestmark = pytest.mark.slow  # real servers under attack: not in test-fast


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    frontdoor.raise_own_limit()
    folder = tmp_path_factory.mktemp("front-door-limit")
    with frontdoor.hall(folder, files=1024, hard=1024) as found:
        yield found
        assert not frontdoor.tracebacks(frontdoor.server_log(found))


def test_the_start_command_says_when_the_limit_stays_low(hall):
    log = frontdoor.server_log(hall)
    assert "nur 1024 offene Dateien" in log and "ulimit -n" in log


def test_idle_connections_beyond_the_budget_make_room(hall):
    """1,050 connections that send nothing, more than the 1,024 files allow:
    the longest waiting is closed for each new one, so the referee's and
    the phone's connections get in."""
    seen = attacked(hall, frontdoor.idle, count=1050, seconds=20)
    assert seen["opened"] == 1050 and seen["closed_by_server"] == 1050


def test_websockets_beyond_their_share_are_refused_and_requests_still_served(hall):
    """1,000 websockets made every request a 500 at a limit of 1,024: only
    the budget's share is taken (the pages poll instead), the rest of the
    files stay for requests."""
    seen = attacked(hall, frontdoor.sockets, count=1000, seconds=2)
    share = Budget.of(1024).sockets
    assert seen == {"subscribed": share, "refused": 1000 - share}, seen
