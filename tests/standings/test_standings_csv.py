"""The standings as a CSV file German Excel opens with a double click, on
the standings page and from `manage.py standings --format csv`:
semicolons, UTF-8 with a byte-order mark, German headers, an unplayed
series empty (not 0), the withdrawal mark; and the files' names keep
their umlauts (RFC 5987) with an ASCII name beside them."""

import csv
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournament.core.download import ascii_name, content_disposition, file_name
from tournament.models import Entry
from tournament.registration.services import entry_withdraw
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db


def read(text):
    assert text.startswith("\ufeff")
    return list(csv.reader(StringIO(text[1:]), delimiter=";"))


def test_the_page_offers_the_standings_as_excel_csv(client, scored_series, organizer):
    tournament = scored_series.tournament
    withdrawn = Entry.objects.get(tournament=tournament, start_number=2)
    entry_withdraw(actor=organizer, entry=withdrawn, reason="Unwohl")
    page = client.get(reverse("tournament:standings", args=[tournament.slug]))
    url = reverse("tournament:standings_csv", args=[tournament.slug])
    assert url in page.content.decode()
    response = client.get(url)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="{tournament.slug}-tabelle.csv"'
    )
    text = response.content.decode("utf-8")
    assert "\r\n" in text
    rows = read(text)
    count = tournament.series_count
    assert rows[0] == [
        "Platz",
        "Startnummer",
        "Name",
        "Verein",
        "Kategorie",
        *[f"Serie {n}" for n in range(1, count + 1)],
        "Siege",
        "Punkte",
        "Abmeldung",
    ]
    expected = standings_rows(tournament, cached=False)
    assert [(int(r[0]), int(r[1]), r[2]) for r in rows[1:]] == [
        (r.rank, r.start_number, r.name) for r in expected
    ]
    for line, row in zip(rows[1:], expected, strict=True):
        assert line[5] == str(row.series_points[0])
        assert line[6 : 5 + count] == [""] * (count - 1)  # not played: empty
        assert line[-2] == str(row.points)
    marks = {int(r[1]): r[-1] for r in rows[1:]}
    assert marks[2] == "abgemeldet (nach Serie 1)"
    assert "Unwohl" not in text


def test_the_command_line_writes_the_same_file(client, scored_series):
    tournament = scored_series.tournament
    out = StringIO()
    call_command("standings", tournament.slug, "--format", "csv", stdout=out)
    url = reverse("tournament:standings_csv", args=[tournament.slug])
    assert out.getvalue() == client.get(url).content.decode("utf-8")


def test_file_names_keep_umlauts_with_an_ascii_name_beside():
    name = file_name(
        "rm-2025", "Spiellisten", "Serie", 1, "ausgefüllt", extension="pdf"
    )
    assert name == "rm-2025-spiellisten-serie-1-ausgefüllt.pdf"
    assert ascii_name(name) == "rm-2025-spiellisten-serie-1-ausgefuellt.pdf"
    assert content_disposition(name, attachment=False) == (
        'inline; filename="rm-2025-spiellisten-serie-1-ausgefuellt.pdf"; '
        "filename*=UTF-8''rm-2025-spiellisten-serie-1-ausgef%C3%BCllt.pdf"
    )
    assert content_disposition("a.xlsx") == 'attachment; filename="a.xlsx"'


def test_the_filled_sheets_download_under_their_german_name(
    organizer_client, scored_series
):
    tournament = scored_series.tournament
    url = reverse("tournament:paper_download", args=[tournament.slug])
    response = organizer_client.get(f"{url}?document=sheets&series=1&filled=on")
    assert response.status_code == 200
    header = response["Content-Disposition"]
    assert f'filename="{tournament.slug}-spiellisten-serie-1-ausgefuellt.pdf"' in header
    assert "filename*=UTF-8''" in header and "ausgef%C3%BCllt.pdf" in header
