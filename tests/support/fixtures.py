import pytest

from tests.support.factories import (
    EntryFactory,
    TournamentFactory,
    make_series,
    make_user,
)
from tests.support.results import seated_with_results
from tests.support.websockets import MEMORY_LAYER, layer_release


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
def one_game_tournament(db):
    return TournamentFactory(slug="digital", games_per_series=1)


@pytest.fixture
def four_people(one_game_tournament, organizer):
    """A released table of four of `one_game_tournament`, made digital,
    every seat a person."""
    from tournament.digital.services import digital_table_create

    series = make_series(one_game_tournament, sizes=(4,))
    digital = digital_table_create(actor=organizer, table=series.tables.get(), bots={})
    digital.refresh_from_db()
    return digital


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


@pytest.fixture
def memory_layer(settings):
    """The in-memory channel layer, whatever CHANNEL_LAYERS says (Redis in
    CI); emptied afterwards."""
    settings.CHANNEL_LAYERS = MEMORY_LAYER
    yield
    layer_release()


@pytest.fixture
def local_cache(settings):
    """This process's own in-memory cache, empty, whatever CACHES says
    (Redis in CI): what the test caches stays in this process."""
    from django.core.cache import cache

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "tests",
        }
    }
    cache.clear()
