"""A test that starts a server process or a browser is marked so
(tests/support/servers.py): `make test-fast` leaves those tests out, and an
unmarked one would slow the edit loop unseen. The check fails such a test
before the process starts."""

import pytest

from tests.support import servers


def test_a_server_started_by_an_unmarked_test_fails_it_before_it_starts():
    assert servers.running is not None  # set by tests/conftest.py
    with pytest.raises(pytest.fail.Exception, match=r"@pytest\.mark\.server"):
        servers.start_server({}, servers.free_port())


def test_a_browser_started_by_a_test_not_marked_e2e_fails_it():
    from tests.support.browser import chromium

    with (
        pytest.raises(pytest.fail.Exception, match=r"@pytest\.mark\.e2e"),
        chromium(),
    ):
        pass


@pytest.mark.server
def test_a_test_marked_server_may_start_one():
    servers.assert_marked(servers.running)


@pytest.mark.e2e
def test_a_browser_test_may_start_a_server_too():
    servers.assert_marked(servers.running)


@pytest.mark.server
def test_a_browser_needs_the_e2e_marker_even_so():
    with pytest.raises(pytest.fail.Exception, match=r"@pytest\.mark\.e2e"):
        servers.assert_marked(servers.running, ("e2e",))
