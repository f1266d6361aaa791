"""Paper benchmark (issue 7): the score sheets of one series of 100 tables
(400 players, every table's result confirmed, so the sheets are filled and
struck), beside WeasyPrint rendering 100 plain pages in the same run.

A plain page is what WeasyPrint does without us: an A4 page of running text
(a heading and four paragraphs, about 35 lines) through the same base
stylesheet and vendored fonts, no template logic, no data, WeasyPrint as it
comes. The sheets are timed from the database to PDF bytes (queries,
templates, layout in chunks, writing), the plain pages from an HTML string;
best of three, wall clock. For comparison, the plain pages are also timed
with the garbage collector paused as our layout does
(tournament.paper.layout), and the CPU time of each in this process is
shown: the sheets are laid out in the layout process, so theirs is what
the server's own interpreter spends on them (queries and templates).

Last line: one JSON object with `sheets_s`, `plain_s` and `ratio`.
"""

import datetime
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._django import setup

setup()

from django.template import engines  # noqa: E402
from django.utils import translation  # noqa: E402
from weasyprint import CSS, HTML  # noqa: E402
from weasyprint.text.fonts import FontConfiguration  # noqa: E402

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
from tournament.paper import layout, pdf  # noqa: E402

TABLES = 100
REPEAT = 3
PARAGRAPH = (
    "Seat four keeps the score sheet and deals the first hand. Every player "
    "starts with seven marks, chalked as seven strokes; a lost mark is struck. "
    "The winner of a game scores the marks still held plus a bonus of seven, "
    "everyone else scores nothing, and the standings add up all twenty-five "
    "games of the five series. "
) * 2


def build() -> Tournament:
    """400 players at 100 tables of series 1, each table's five games
    confirmed (rows written in bulk: the services are not the point)."""
    rng = random.Random(7)
    tournament = Tournament.objects.create(
        name="Rheinland-Meisterschaft (Benchmark)",
        slug="bench",
        date=datetime.date(2026, 12, 5),
        venue="Ulmen",
    )
    persons = Person.objects.bulk_create(
        Person(
            first_name=f"Vorname{i}", last_name=f"Nachname{i}", club=f"Club {i % 30}"
        )
        for i in range(4 * TABLES)
    )
    Player.objects.bulk_create(
        Player(first_name=p.first_name, last_name=p.last_name, club=p.club, person=p)
        for p in persons
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=i + 1)
        for i, p in enumerate(Player.objects.order_by("id"))
    )
    series = Series.objects.create(
        tournament=tournament, number=1, status=Series.Status.COMPLETE
    )
    tables = Table.objects.bulk_create(
        Table(series=series, number=t + 1, size=4) for t in range(TABLES)
    )
    seats, versions, scores = [], [], []
    for t, table in enumerate(tables):
        group = entries[4 * t : 4 * t + 4]
        seats += [
            Seat(series=series, table=table, number=s + 1, entry=e)
            for s, e in enumerate(group)
        ]
        games = [
            {"winner": rng.randint(1, 4), "marks": rng.randint(1, 7)} for _ in range(5)
        ]
        versions.append(
            ResultVersion(
                table=table,
                number=1,
                status=ResultVersion.Status.CONFIRMED,
                mode=ResultVersion.Mode.QUICK,
                data={"games": games},
            )
        )
    Seat.objects.bulk_create(seats)
    versions = ResultVersion.objects.bulk_create(versions)
    for t, (table, version) in enumerate(zip(tables, versions, strict=True)):
        for number, game in enumerate(version.data["games"], 1):
            for s, entry in enumerate(entries[4 * t : 4 * t + 4], 1):
                won = s == game["winner"]
                scores.append(
                    GameScore(
                        series=series,
                        table=table,
                        version=version,
                        entry=entry,
                        game=number,
                        seat=s,
                        won=won,
                        marks=game["marks"] if won else 0,
                        points=game["marks"] + 7 if won else 0,
                    )
                )
    GameScore.objects.bulk_create(scores, batch_size=2000)
    return tournament


def plain_html(pages: int) -> str:
    """Plain pages through the documents' own base template and fonts."""
    body = "".join(
        f'<section class="{"section" if i else ""}"><h2>Seite {i + 1}</h2>'
        + "".join(f"<p>{PARAGRAPH}</p>" for _ in range(4))
        + "</section>"
        for i in range(pages)
    )
    template = engines["django"].from_string(
        '{% extends "pdf/base.html" %}{% block content %}{{ body|safe }}{% endblock %}'
    )
    return template.render({"title": "plain", "language": "de", "body": body})


def best(run: Callable[[], int]) -> tuple[float, float, int]:
    """Best wall and CPU time of REPEAT runs, and the pages made."""
    walls, cpus, pages = [], [], 0
    for _ in range(REPEAT):
        start, cpu = time.perf_counter(), time.process_time()
        pages = run()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), pages


def main() -> None:
    translation.activate("de")
    tournament = build()
    html = plain_html(TABLES)
    assert "<section" in html

    def plain() -> int:
        font_config = FontConfiguration()
        fetcher = layout.StaticFilesFetcher()
        stylesheets = [
            CSS(
                string=text,
                base_url=layout.BASE_URL,
                url_fetcher=fetcher,
                font_config=font_config,
            )
            for text in pdf.style_texts([], {})
        ]
        document = HTML(
            string=html, base_url=layout.BASE_URL, url_fetcher=fetcher
        ).render(stylesheets=stylesheets, font_config=font_config)
        document.write_pdf()
        return len(document.pages)

    def sheets() -> int:
        return pdf.sheets_pdf(tournament=tournament, series_number=1, filled=True).pages

    def blank() -> int:
        return pdf.sheets_pdf(tournament=tournament, series_number=1).pages

    def plain_gc_paused() -> int:
        with layout.gc_paused():
            return plain()

    plain()  # warm up fonts, templates, imports
    plain_s, plain_cpu, plain_pages = best(plain)
    paused_s, paused_cpu, _pages = best(plain_gc_paused)
    sheets_s, sheets_cpu, sheet_pages = best(sheets)
    blank_s, blank_cpu, blank_pages = best(blank)
    assert sheet_pages == blank_pages == TABLES, (sheet_pages, blank_pages)
    assert plain_pages == TABLES, plain_pages
    for label, wall, cpu in [
        ("plain pages (WeasyPrint as is)", plain_s, plain_cpu),
        ("plain pages (GC paused)", paused_s, paused_cpu),
        ("score sheets, filled", sheets_s, sheets_cpu),
        ("score sheets, blank", blank_s, blank_cpu),
    ]:
        print(f"{label:31s} {TABLES} pages {wall:6.2f} s  (CPU here {cpu:5.2f} s)")
    print(f"ratio filled/plain {sheets_s / plain_s:.2f}", end="")
    print(f"  (against GC-paused plain pages {sheets_s / paused_s:.2f})")
    print(f"ratio blank/plain  {blank_s / plain_s:.2f}")
    print(
        json.dumps(
            {
                "sheets_s": round(sheets_s, 2),
                "plain_s": round(plain_s, 2),
                "ratio": round(sheets_s / plain_s, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
