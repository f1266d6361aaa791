"""Standings benchmark: query counts for 40 and 2,000 players, and
400 players × 25 games rendered cold as HTML and JSON against a trivial page
in the same run; and "Mein Turnier" of one player after another (each page
its own, the standings' cache warm as in the hall, where every confirmed
result renders it anew for each phone showing it) against the same trivial
page (`mine_ratio`, `mine_queries`). Last line: one JSON object."""

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._django import setup

setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tournament.models import (  # noqa: E402
    Entry,
    GameScore,
    Person,
    Player,
    ResultVersion,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.results.services import totals_refresh  # noqa: E402


def build(players: int, slug: str, games: bool) -> Tournament:
    """A tournament with `players` entries and, if asked, 5 series × 5 games
    of confirmed results (written in bulk; the services are not the point)."""
    rng = random.Random(players)
    tournament = Tournament.objects.create(name=slug, slug=slug, date="2026-12-05")
    persons = Person.objects.bulk_create(
        Person(first_name=f"V{i}", last_name=f"N{i}", club=f"C{i % 30}")
        for i in range(players)
    )
    Player.objects.bulk_create(
        Player(first_name=f"V{i}", last_name=f"N{i}", club=f"C{i % 30}", person=p)
        for i, p in enumerate(persons)
    )
    people = list(Player.objects.order_by("-id")[:players])
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=i + 1)
        for i, p in enumerate(people)
    )
    if not games:
        return tournament
    for number in range(1, 6):
        series = Series.objects.create(
            tournament=tournament, number=number, status="complete"
        )
        order = entries[:]
        rng.shuffle(order)
        tables = Table.objects.bulk_create(
            Table(series=series, number=t + 1, size=4) for t in range(players // 4)
        )
        seats, versions, scores = [], [], []
        # Each table's games (winner's seat, marks kept), stored in its
        # result version as the result services store them.
        games = [
            [(rng.randrange(4), rng.randint(1, 7)) for _ in range(5)] for _ in tables
        ]
        for t, table in enumerate(tables):
            group = order[4 * t : 4 * t + 4]
            seats += [
                Seat(series=series, table=table, number=s + 1, entry=e)
                for s, e in enumerate(group)
            ]
            stored = [
                {"winner": w + 1, "marks": m, "points": m + 7} for w, m in games[t]
            ]
            versions.append(
                ResultVersion(
                    table=table,
                    number=1,
                    status="confirmed",
                    mode="quick",
                    data={"games": stored},
                )
            )
        Seat.objects.bulk_create(seats)
        versions = ResultVersion.objects.bulk_create(versions)
        for t, (table, version) in enumerate(zip(tables, versions, strict=True)):
            group = order[4 * t : 4 * t + 4]
            for game, (winner, marks) in enumerate(games[t], 1):
                scores += [
                    GameScore(
                        series=series,
                        table=table,
                        version=version,
                        entry=e,
                        game=game,
                        seat=s + 1,
                        won=s == winner,
                        marks=marks if s == winner else 0,
                        points=marks + 7 if s == winner else 0,
                    )
                    for s, e in enumerate(group)
                ]
        GameScore.objects.bulk_create(scores, batch_size=2000)
    totals_refresh(entry_ids=[e.pk for e in entries], tournament=tournament)
    return tournament


def queries(client: Client, slug: str) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/t/{slug}/tabelle/").status_code == 200
    html = len(ctx.captured_queries)
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/api/t/{slug}/standings/").status_code == 200
    return max(html, len(ctx.captured_queries))


def timed(client: Client, urls: dict[str, tuple[str, bool]], repeat: int = 41):
    """Median time per URL (name -> (url, cold)). The URLs take turns, so
    that a slower or faster stretch of the machine (a neighbour on the
    host) falls on all of them alike and the ratios stay put."""
    times: dict[str, list[float]] = {name: [] for name in urls}
    for _ in range(repeat):
        for name, (url, cold) in urls.items():
            if cold:
                cache.clear()
            start = time.perf_counter()
            response = client.get(url)
            times[name].append(time.perf_counter() - start)
            assert response.status_code == 200, url
    return {name: statistics.median(t) for name, t in times.items()}


def mine_queries(client: Client, slug: str) -> int:
    """The queries of one player's "Mein Turnier", the standings cached.
    Asked before any other page of the run: after a request the kept
    SQLite connection (tournament/core/sqlite) is no longer the one a
    capture here would watch."""
    token = Entry.objects.filter(tournament__slug=slug).values_list(
        "link_token", flat=True
    )[0]
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/t/{slug}/mein/{token}/").status_code == 200
    return len(ctx.captured_queries)


def mine_pages(client: Client, slug: str, trivial_url: str) -> float:
    """Median time of "Mein Turnier" for 100 players, one after another
    (each his own page, never in a cache; the standings are), against the
    median of the trivial page asked between them."""
    tokens = Entry.objects.filter(tournament__slug=slug).values_list(
        "link_token", flat=True
    )[1:101]
    mine, trivial = [], []
    for token in tokens:
        start = time.perf_counter()
        response = client.get(f"/t/{slug}/mein/{token}/")
        mine.append(time.perf_counter() - start)
        assert response.status_code == 200
        start = time.perf_counter()
        client.get(trivial_url)
        trivial.append(time.perf_counter() - start)
    return statistics.median(mine) / statistics.median(trivial)


def main() -> None:
    client = Client()
    build(40, "q40", games=False)
    build(2000, "q2000", games=False)
    q40, q2000 = queries(client, "q40"), queries(client, "q2000")
    build(400, "big", games=True)
    queries_mine = mine_queries(client, "big")
    client.get("/bench/trivial/")  # warm up templates
    client.get("/t/big/tabelle/")
    medians = timed(
        client,
        {
            "trivial": ("/bench/trivial/", False),
            "html": ("/t/big/tabelle/", True),
            "data": ("/api/t/big/standings/", True),
            "cached": ("/t/big/tabelle/", False),
        },
    )
    mine_ratio = mine_pages(client, "big", "/bench/trivial/")
    trivial, html = medians["trivial"], medians["html"]
    data, cached = medians["data"], medians["cached"]
    print(f"queries: 40 players {q40}, 2000 players {q2000}")
    print(f"trivial page        {trivial * 1000:8.2f} ms")
    print(f"standings HTML cold {html * 1000:8.2f} ms  ({html / trivial:.2f}x)")
    print(f"standings JSON cold {data * 1000:8.2f} ms  ({data / trivial:.2f}x)")
    print(f"standings HTML warm {cached * 1000:8.2f} ms  ({cached / trivial:.2f}x)")
    print(f"Mein Turnier        {mine_ratio:8.2f}x the trivial page")
    print(f"Mein Turnier        {queries_mine} queries")
    print(
        json.dumps(
            {
                "mine_ratio": round(mine_ratio, 2),
                "mine_queries": queries_mine,
                "queries_40": q40,
                "queries_2000": q2000,
                "html_ratio": round(html / trivial, 2),
                "json_ratio": round(data / trivial, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
