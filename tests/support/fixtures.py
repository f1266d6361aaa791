import pytest

from tests.support.factories import EntryFactory, TournamentFactory, make_user


@pytest.fixture
def organizer(db):
    return make_user("orga", "organizer")


@pytest.fixture
def referee(db):
    return make_user("schiri", "referee")


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
