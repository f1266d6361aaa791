import pytest

from tests.support.factories import (
    EntryFactory,
    TournamentFactory,
    make_series,
    make_user,
)
from tests.support.results import seated_with_results


@pytest.fixture
def organizer(db):
    return make_user("orga", "organizer")


@pytest.fixture
def referee(db):
    return make_user("schiri", "referee")


@pytest.fixture
def referee2(db):
    """A second referee, to confirm what `referee` entered."""
    return make_user("schiri2", "referee")


@pytest.fixture
def tournament(db):
    return TournamentFactory(slug="rm-test", name="RM Test")


@pytest.fixture
def organizer_client(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def entries(tournament):
    return [EntryFactory(tournament=tournament, start_number=n) for n in range(1, 9)]


@pytest.fixture
def series(tournament):
    """Series 1 of `tournament`, released: two tables of four (start numbers
    1-8 in order), no result yet."""
    return make_series(tournament, sizes=(4, 4))


@pytest.fixture
def scored_series(tournament, organizer):
    """Series 1 with tables of 4, 4 and 3, every table's RESULTS
    (tests/support/results.py) confirmed."""
    return seated_with_results(tournament, organizer)


@pytest.fixture
def var_dir(settings, tmp_path):
    """VAR_DIR (job files, backups) in the test's own temporary folder."""
    settings.VAR_DIR = tmp_path
    return tmp_path
