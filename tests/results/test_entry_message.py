"""What the referee is told after saving a result follows what the service
did: waiting for a second person, or counting at once."""

import pytest
from django.urls import reverse

from tests.support.factories import make_series
from tournament.models import ResultVersion, Table

pytestmark = pytest.mark.django_db

GAMES = [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)]
WAITS = "Es zählt, sobald eine zweite Person es bestätigt."
COUNTS = "Es zählt ab sofort."


def save(client, tournament, games=GAMES, reason=""):
    table = Table.objects.get(series__tournament=tournament, number=1)
    data = {"mode": "quick", "revision": table.result_revision, "reason": reason}
    for g, (winner, marks) in enumerate(games, 1):
        data[f"g{g}_winner"] = str(winner)
        data[f"g{g}_marks"] = str(marks)
    url = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    return client.post(url, data, follow=True).content.decode()


@pytest.fixture
def seated(tournament):
    return make_series(tournament, sizes=(4, 3))


def test_a_first_entry_waits_for_a_second_person(client, seated, tournament, referee):
    client.force_login(referee)
    page = save(client, tournament)
    assert WAITS in page
    assert COUNTS not in page
    assert ResultVersion.objects.get().status == ResultVersion.Status.PENDING


def test_an_organizers_correction_counts_at_once_and_says_so(
    client, seated, tournament, referee, organizer
):
    client.force_login(referee)
    save(client, tournament)
    table = Table.objects.get(series__tournament=tournament, number=1)
    client.force_login(organizer)
    client.post(
        reverse(
            "tournament:result_confirm",
            kwargs={"slug": tournament.slug, "series": 1, "table": 1},
        ),
        {"version": 1, "revision": table.result_revision},
    )
    assert ResultVersion.objects.get().status == ResultVersion.Status.CONFIRMED

    page = save(client, tournament, [(2, 4), *GAMES[1:]], reason="Tippfehler")
    assert COUNTS in page
    assert WAITS not in page
    latest = ResultVersion.objects.order_by("-number").first()
    assert latest.status == ResultVersion.Status.CONFIRMED


def test_without_double_entry_a_result_counts_at_once(
    client, seated, tournament, referee
):
    tournament.double_entry = False
    tournament.save()
    client.force_login(referee)
    page = save(client, tournament)
    assert COUNTS in page
    assert WAITS not in page
    assert ResultVersion.objects.get().status == ResultVersion.Status.CONFIRMED
