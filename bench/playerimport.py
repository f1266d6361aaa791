"""Player import benchmark: a club list of 400 players as .xlsx, .ods and
CSV (Windows-1252, semicolons), each read and checked into its preview
(the upload page's work: reading the file, finding its header, proposing
the mapping, checking every row against a tournament of 100 entries and
their persons), and the whole upload through the page as .xlsx. Best of
five, wall clock.

Last line: one JSON object with `xlsx_s`, `ods_s`, `csv_s`, `page_xlsx_s`.
"""

import io
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._django import setup

setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.test import Client  # noqa: E402
from openpyxl import Workbook  # noqa: E402

from tournament.models import Tournament  # noqa: E402
from tournament.registration.player_import import (  # noqa: E402
    check_players,
    propose_mapping,
    read_player_table,
)
from tournament.registration.services import PlayerData, entries_import  # noqa: E402

PLAYERS = 400
REPEAT = 5
HEADER = ["Lfd. Nr.", "Familienname", "Vorname", "Geb.-Datum", "Verein", "Klasse"]
CATEGORIES = ["", "Damen", "Senioren", "Jugend", "Seniorin", "U18"]


def rows() -> list[list[object]]:
    return [
        [
            i + 1,
            f"Müller{i}",
            f"Jürgen{i}",
            f"{1 + i % 28:02d}.0{1 + i % 9}.19{50 + i % 50}",
            f"Schrämclub {i % 40}",
            CATEGORIES[i % len(CATEGORIES)],
        ]
        for i in range(PLAYERS)
    ]


def xlsx() -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Meldeliste Rheinland-Meisterschaft"])
    sheet.append([])
    sheet.append(HEADER)
    for row in rows():
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def ods() -> bytes:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.support.workbooks import ods as write_ods

    return write_ods([HEADER, *rows()])


def csv() -> bytes:
    from tests.support.workbooks import csv_bytes

    return csv_bytes([HEADER, *rows()], encoding="cp1252")


def best(run) -> float:
    times = []
    for _ in range(REPEAT):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    tournament = Tournament.objects.create(
        name="Bench", slug="bench-import", date="2026-12-05"
    )
    entries_import(
        actor=None,
        tournament=tournament,
        rows=[PlayerData(f"Vorname{i}", f"Name{i}", f"Club {i}") for i in range(100)],
    )
    figures = {}
    for name, content, filename in (
        ("xlsx", xlsx(), "liste.xlsx"),
        ("ods", ods(), "liste.ods"),
        ("csv", csv(), "liste.csv"),
    ):

        def preview(content=content, filename=filename):
            table = read_player_table(
                io.BytesIO(content), size=len(content), filename=filename
            )
            result = check_players(table, propose_mapping(table), tournament=tournament)
            assert result.ok and len(result.rows) == PLAYERS, result.file_errors

        figures[f"{name}_s"] = round(best(preview), 3)
        print(
            f"{name}: {len(content) // 1024} KB, preview of {PLAYERS} rows "
            f"{figures[f'{name}_s']:.3f} s"
        )
    user = get_user_model().objects.create_user("bench-orga", password="x")
    user.groups.add(Group.objects.get_or_create(name="organizer")[0])
    client = Client()
    client.force_login(user)
    content = xlsx()
    url = f"/t/{tournament.slug}/verwaltung/spieler/import/"

    def page():
        response = client.post(url, {"file": SimpleUploadedFile("liste.xlsx", content)})
        assert b"400 Spieler bereit zum Import" in response.content

    figures["page_xlsx_s"] = round(best(page), 3)
    print(f"page (upload .xlsx to preview): {figures['page_xlsx_s']:.3f} s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
