"""Season rankings: points by place or tournament points, the best k of n
results, ties shared (in a tournament and in the ranking), live like the
standings, on paper and in a workbook; constant queries."""

import io

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from tests.history.helpers import person, played
from tests.support.factories import make_series
from tests.support.results import FIVE, confirm, enter
from tests.support.threads import run_async
from tests.support.websockets import MEMORY_LAYER, layer_release, ws_connect
from tournament.core.errors import ConflictError
from tournament.history.selectors import ranking_table
from tournament.history.services import ranking_delete, ranking_save
from tournament.live import invalidation
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.models import AuditEvent, Ranking
from tournament.tournaments.services import tournament_close

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return {
        name: person(name)
        for name in ("Anna Jöbges", "Bernd Thelen", "Carla Mertes", "Dieter Esch")
    }


def season(people, *, method="places", best_of=None, place_points="10,6,4,2"):
    a, b, c, d = (people[n] for n in sorted(people))
    tournaments = [
        # Anna first, Bernd and Carla share second, Dieter last.
        played([(a, 120), (b, 100), (c, 100), (d, 80)], year=2024),
        # Bernd first, Anna second, Dieter third, Carla without a result.
        played([(b, 130), (a, 110), (d, 90), (c, None)], year=2025),
        # Dieter first, Carla second, Anna third; Bernd did not come.
        played([(d, 140), (c, 120), (a, 90)], year=2026),
    ]
    ranking = ranking_save(
        actor=None,
        ranking=Ranking(
            name="Wertung",
            slug="wertung",
            method=method,
            best_of=best_of,
            place_points=place_points,
        ),
        tournaments=tournaments,
    )
    return ranking, tournaments


def rows(ranking):
    return [
        (r.rank, r.name, r.points, r.counted, [c.value for c in r.cells])
        for r in ranking_table(ranking).rows
    ]


def test_points_by_place_with_shared_places(people):
    ranking, _ = season(people)
    assert rows(ranking) == [
        (1, "Anna Jöbges", 20, 3, [10, 6, 4]),
        # Bernd and Carla shared 2024's second place: both earn its 6.
        # Bernd and Dieter share the ranking's second place (by their
        # person's number within it, never by name).
        (2, "Bernd Thelen", 16, 2, [6, 10, None]),
        (2, "Dieter Esch", 16, 3, [2, 4, 10]),
        (4, "Carla Mertes", 12, 2, [6, None, 6]),
    ]


def test_best_k_of_n_drops_the_worst_and_equal_totals_share_a_place(people):
    ranking, _ = season(people, best_of=2)
    table = ranking_table(ranking)
    by_name = {r.name: r for r in table.rows}
    anna = by_name["Anna Jöbges"]
    assert (anna.points, anna.counted) == (16, 2)  # 10 + 6; the 4 is dropped
    assert [c.counted for c in anna.cells] == [True, True, False]
    dieter = by_name["Dieter Esch"]
    assert (dieter.points, [c.counted for c in dieter.cells]) == (
        14,
        [False, True, True],
    )
    bernd = by_name["Bernd Thelen"]
    assert bernd.points == 16
    # Anna and Bernd both have 16: one place, shared; next is place 3.
    assert [(r.rank, r.points) for r in table.rows] == [
        (1, 16),
        (1, 16),
        (3, 14),
        (4, 12),
    ]


def test_tournament_points_and_a_place_beyond_the_table(people):
    ranking, tournaments = season(people, method="points")
    by_name = {r.name: r for r in ranking_table(ranking).rows}
    assert by_name["Anna Jöbges"].points == 120 + 110 + 90
    assert by_name["Carla Mertes"].cells[1].value is None
    ranking.method = Ranking.Method.PLACES
    ranking.place_points = "5"
    ranking_save(actor=None, ranking=ranking, tournaments=tournaments)
    by_name = {r.name: r for r in ranking_table(ranking).rows}
    assert by_name["Anna Jöbges"].points == 5  # only a first place earns points
    assert by_name["Carla Mertes"].points == 0


def test_ranking_save_is_audited_and_refuses_a_stale_form(people, organizer):
    ranking, tournaments = season(people)
    assert AuditEvent.objects.filter(action="ranking.create").count() == 1
    ranking.best_of = 2
    ranking_save(actor=organizer, ranking=ranking, tournaments=tournaments, version=0)
    event = AuditEvent.objects.get(action="ranking.update")
    assert (event.before["best_of"], event.after["best_of"]) == (None, 2)
    with pytest.raises(ConflictError):  # the form still showed version 0
        ranking_save(
            actor=organizer, ranking=ranking, tournaments=tournaments, version=0
        )
    ranking_delete(actor=organizer, ranking=ranking)
    assert AuditEvent.objects.filter(action="ranking.delete").count() == 1


def test_the_page_and_api(client, people):
    _ranking, tournaments = season(people, best_of=2)
    page = client.get(reverse("tournament:ranking", kwargs={"slug": "wertung"}))
    text = page.content.decode()
    assert page.status_code == 200
    assert 'data-live-key="ranking?wertung=wertung"' in text
    assert f"/ws/t/{tournaments[-1].slug}/" in text  # the newest one's socket
    assert "<s" in text  # a dropped result
    data = client.get(reverse("tournament:api_ranking", kwargs={"slug": "wertung"}))
    assert data.json()["rows"][0] == {
        "rank": 1,
        "person": data.json()["rows"][0]["person"],
        "name": data.json()["rows"][0]["name"],
        "points": 16,
        "counted": 2,
    }
    assert (
        client.get(
            reverse("tournament:api_ranking", kwargs={"slug": "nirgends"})
        ).status_code
        == 404
    )


def test_the_live_region_follows_every_tournament_of_the_ranking(people):
    ranking, tournaments = season(people)
    host = tournaments[-1]
    key = FragmentKey(FRAGMENTS["ranking"], {"wertung": "wertung"})
    before = region(host, key).etag
    # A result changes in an older tournament (not the page's host).
    invalidation._bump_generation(tournaments[0].pk)
    after = region(host, key).etag
    assert after != before
    ranking.best_of = 1
    ranking_save(actor=None, ranking=ranking, tournaments=tournaments)
    assert region(host, key).etag != after


def test_pdf_and_workbook(organizer_client, people):
    season(people, best_of=2)
    anna = people["Anna Jöbges"]
    anna.first_name = '=HYPERLINK("x")'
    anna.save()
    pdf = organizer_client.get(
        reverse("tournament:ranking_pdf", kwargs={"slug": "wertung"})
    )
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    xlsx = organizer_client.get(
        reverse("tournament:ranking_xlsx", kwargs={"slug": "wertung"})
    )
    sheet = load_workbook(io.BytesIO(xlsx.content)).worksheets[0]
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0][:3] == ["Platz", "Name", "Verein"]
    names = [row[1] for row in values[1:]]
    assert '=HYPERLINK("x") Jöbges' in names
    cell = next(
        c
        for row in sheet.iter_rows()
        for c in row
        if c.value == '=HYPERLINK("x") Jöbges'
    )
    assert cell.data_type == "s"  # a text, never a formula
    assert any(isinstance(v, str) and v.startswith("(") for row in values for v in row)


def _queries(client, url):
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_queries_do_not_grow_with_persons_and_tournaments(client, people):
    ranking, tournaments = season(people)
    api = reverse("tournament:api_ranking", kwargs={"slug": "wertung"})
    page = reverse("tournament:ranking", kwargs={"slug": "wertung"})
    few = (_queries(client, api), _queries(client, page))
    more = list(tournaments)
    for year in range(2000, 2008):
        guests = [(person(f"Gast Nr{year}x{i}"), 40 + i) for i in range(12)]
        more.append(played([*((people[n], 100) for n in people), *guests], year=year))
    ranking_save(actor=None, ranking=ranking, tournaments=more)
    assert (_queries(client, api), _queries(client, page)) == few


@pytest.mark.django_db(transaction=True)
def test_a_confirmed_result_pushes_the_ranking_to_its_page(
    settings, local_cache, tournament, referee, referee2
):
    """The page's socket (on the ranking's newest tournament) gets the new
    ranking once a result there is confirmed, as the standings do, and
    again when the tournament is closed: only then does it count."""

    settings.CHANNEL_LAYERS = MEMORY_LAYER
    tournament.series_count = 1
    tournament.save()
    series = make_series(tournament, sizes=(4,))
    ranking_save(
        actor=None,
        ranking=Ranking(name="Live-Wertung", slug="live-wertung"),
        tournaments=[tournament],
    )
    key = FragmentKey(FRAGMENTS["ranking"], {"wertung": "live-wertung"})
    before = region(tournament, key, "de").etag
    version = enter(series.tables.get(), referee, FIVE)

    async def scenario():
        path = f"/ws/t/{tournament.slug}/?lang=de"
        socket, connected, _ = await ws_connect(path)
        assert connected
        await socket.send_json_to(
            {
                "type": "subscribe",
                "regions": [{"key": "ranking?wertung=live-wertung", "etag": before}],
            }
        )
        while (await socket.receive_json_from(timeout=5))["type"] != "subscribed":
            pass
        await database_sync_to_async(confirm)(version, referee2)
        confirmed = await socket.receive_json_from(timeout=5)
        await database_sync_to_async(tournament_close)(
            actor=None, tournament=tournament
        )
        closed = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return confirmed, closed

    try:
        confirmed, closed = run_async(scenario)
    finally:
        layer_release()
    for message in (confirmed, closed):
        assert message["type"] == "fragment"
        assert message["key"] == "ranking?wertung=live-wertung"
    assert before != confirmed["etag"] != closed["etag"]
    # Running: nothing counts yet, the tournament is marked.
    assert "Stand: 0 von 1 Turnier beendet." in confirmed["html"]
    assert "(läuft)" in confirmed["html"]
    # Closed: seat 1 won two games (26 points), first place, 25 by place.
    assert "<strong>25</strong>" in closed["html"]
