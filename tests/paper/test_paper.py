"""Printed documents: one score sheet page per table with the right text,
struck strokes equal to the recorded losses, seating lists, table cards,
standings and certificates; the organizer's download pages and commands."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse

from tests.support.factories import EntryFactory, PlayerFactory, make_series
from tests.support.pdf import (
    expected_struck,
    needs_pdftotext,
    pdf_page_count,
    pdf_pages_text,
    pdf_words,
)
from tests.support.results import RESULTS, seated_with_results
from tournament.core.errors import UserError
from tournament.models import Player, Table
from tournament.paper import documents as paper_documents
from tournament.paper import layout, pdf
from tournament.paper import sheets as paper_sheets
from tournament.results.services import GameInput, result_enter

pytestmark = pytest.mark.django_db

SIZES = {1: 4, 2: 4, 3: 3}


# --- Score sheets -------------------------------------------------------------


@needs_pdftotext
def test_score_sheets_have_one_page_per_table(tournament, scored_series):
    for filled in (False, True):
        document = pdf.sheets_pdf(tournament=tournament, series_number=1, filled=filled)
        assert document.pages == 3
        assert pdf_page_count(document.content) == 3
        assert document.content.startswith(b"%PDF-")


@needs_pdftotext
def test_a_hundred_tables_make_a_hundred_pages_in_chunks(tournament):
    make_series(tournament, sizes=(4,) * 21 + (3, 3))
    progress = []
    document = pdf.sheets_pdf(
        tournament=tournament, series_number=1, progress=progress.append
    )
    assert document.pages == pdf_page_count(document.content) == 23
    assert progress == sorted(progress) and progress[-1] == 100
    assert len(progress) >= 3  # one step per chunk of 10 sheets
    # What every sheet says alike stands once in each chunk and prints on
    # each of its pages, once.
    for text in pdf_pages_text(document.content):
        flat = " ".join(text.split())
        for words in (
            "Spielliste",
            "SERIE 1 · TISCH",
            "Verlorene Schräm mit einem Strich durchstreichen",
            "SITZ · SPIELER",
            "7 SCHRÄM",
            "EINZELSPIELE",
            "PUNKTE",
            "SUMME UND UNTERSCHRIFT",
            "Jeden verlorenen Schräm durchstreichen.",
        ):
            assert flat.count(words) == 1, words


@needs_pdftotext
def test_score_sheet_text_names_tournament_series_table_seats_and_keeper(
    tournament, scored_series
):
    document = pdf.sheets_pdf(tournament=tournament, series_number=1)
    pages = pdf_pages_text(document.content)
    flowing = pdf_pages_text(document.content, layout=False)
    for number, text in enumerate(pages, 1):
        table = Table.objects.get(series=scored_series, number=number)
        flat = " ".join(text.split())
        assert "Spielliste" in flat
        assert tournament.name in flat
        assert "SERIE 1 · TISCH" in flat
        assert re.search(rf"\b{number}\b", text.split("Spiel")[0] + text[:400])
        # In reading order (a wrapped name's lines together; side by side,
        # the layout would interleave the boxes' lines).
        squashed = "".join(flowing[number - 1].split())
        for seat in table.seats.select_related("entry__player"):
            player = seat.entry.player
            # Every name whole, on each game row and in its box (long ones
            # shrunk or wrapped: test_long_names).
            whole = "".join(player.full_name.split())
            assert squashed.count(whole) >= 6, player.full_name
            assert f"Sitz {seat.number} · Startnr. {seat.entry.start_number}" in flat
        keeper = table.seats.order_by("-number").first()
        assert (
            f"Sitz {keeper.number} gibt zuerst und führt die Liste; sein Kästchen "
            "unten ist grau unterlegt." in flat
        )
        for label in ("7 SCHRÄM", "EINZELSPIELE", "PUNKTE", "SUMME UND UNTERSCHRIFT"):
            assert label in flat
        assert (
            "Verlorene Schräm mit einem Strich durchstreichen, von links nach rechts"
            in flat
        )


def test_filled_sheets_strike_exactly_the_recorded_losses(tournament, scored_series):
    """What the drawing strikes (the reader reads it back from the PDF:
    tests/paper/test_sheet_reader.py)."""
    data = paper_sheets.score_sheets(
        tournament=tournament, series=scored_series, filled=True
    )
    for sheet in data.sheets:
        struck = [row.struck for game in sheet.games for row in game.rows]
        assert struck == expected_struck(sheet.table, sheet.size)
        points = sheet.points_text.split("\n")
        for index, line in enumerate(points):
            game, seat = divmod(index, sheet.size)
            winner, marks = RESULTS[sheet.table][game]
            assert line == (str(marks + 7) if seat + 1 == winner else "")
        # In the drawing: one shape of strike tiles, a run per row with a
        # lost mark.
        shapes = re.findall(r'<path d="([^"]*)" fill="url\(#strike\)"/>', sheet.overlay)
        assert len(shapes) == 1
        assert shapes[0].count("z") == sum(1 for n in struck if n)


def test_a_wrong_result_would_fail_the_strike_check(tournament, scored_series):
    """The check above is not vacuous: change the stored result and the
    struck strokes follow the change."""
    table = Table.objects.get(series=scored_series, number=1)
    games = [(2, 6), *RESULTS[1][1:]]
    result_enter(
        actor=None,
        table=table,
        games=[GameInput(winner=w, marks=m) for w, m in games],
        mode="quick",
        revision=table.result_revision,
        reason="Korrektur",
        auto_confirm=True,
    )
    data = paper_sheets.score_sheets(
        tournament=tournament, series=scored_series, filled=True
    )
    struck = [row.struck for game in data.sheets[0].games for row in game.rows]
    assert struck != expected_struck(1, 4)
    assert struck[:4] == [7, 1, 7, 7]


@needs_pdftotext
def test_winners_points_stand_in_the_points_column(tournament, scored_series):
    document = pdf.sheets_pdf(tournament=tournament, series_number=1, filled=True)
    points = [str(m + 7) for _w, m in RESULTS[1]]
    # In the games' grid (below the head, above the players' boxes), right
    # of the strokes: the points column is 172–198 mm of the page.
    found = [
        (word, x)
        for word, x, y in pdf_words(document.content, 1)
        if 55 < y < 245 and x > 130
    ]
    assert sorted(w for w, _x in found) == sorted(points)
    assert all(172 < x < 198 for _w, x in found), found


def test_filled_sheet_of_an_unconfirmed_table_is_blank(tournament, organizer):
    series = seated_with_results(tournament, organizer, confirm=(1,))
    tournament.double_entry = True
    tournament.save()
    table = Table.objects.get(series=series, number=2)
    result_enter(  # waits for a second person: not on the filled sheet
        actor=organizer,
        table=table,
        games=[GameInput(winner=w, marks=m) for w, m in RESULTS[2]],
        mode="quick",
        revision=table.result_revision,
    )
    data = paper_sheets.score_sheets(tournament=tournament, series=series, filled=True)
    by_table = {s.table: s for s in data.sheets}
    assert by_table[1].confirmed and not by_table[2].confirmed
    assert all(r.struck == 0 for g in by_table[2].games for r in g.rows)
    assert all(p.total is None for p in by_table[2].players)
    assert [p.total for p in by_table[1].players] == [26, 10, 9, 8]


def test_tables_of_three_have_three_rows_per_game_and_seat_three_keeps(
    tournament, scored_series
):
    data = paper_sheets.score_sheets(
        tournament=tournament, series=scored_series, filled=False
    )
    three = data.sheets[2]
    assert three.size == 3 and three.keeper == 3
    assert all(len(g.rows) == 3 for g in three.games)
    assert [p.keeper for p in three.players] == [False, False, True]


def test_score_sheets_read_in_a_fixed_number_of_queries(
    tournament, organizer, django_assert_num_queries
):
    series = seated_with_results(tournament, organizer)
    with django_assert_num_queries(4):
        paper_sheets.score_sheets(tournament=tournament, series=series, filled=True)
    make_series(tournament, sizes=(4,) * 12, number=2)
    series2 = tournament.series.get(number=2)
    with django_assert_num_queries(2):
        paper_sheets.score_sheets(tournament=tournament, series=series2, filled=False)


def test_an_unseated_series_has_nothing_to_print(tournament):
    make_series(tournament, sizes=(4,), number=2, status="draft")
    with pytest.raises(UserError, match="Serie 2 ist nicht gesetzt"):
        pdf.sheets_pdf(tournament=tournament, series_number=2)
    with pytest.raises(UserError, match="noch keine Serie gesetzt"):
        pdf.seating_pdf(tournament=tournament)


# --- Seating lists, table cards ----------------------------------------------


@needs_pdftotext
def test_seating_lists_alphabetical_and_by_table(tournament):
    people = [
        ("Anna", "Zimmer"),
        ("Bernd", "Ahrens"),
        ("Carla", "Öztürk"),
        ("Dieter", "Ochs"),
        ("Erika", "Maus"),
        ("Fritz", "Ärger"),
        ("Gabi", "Bast"),
    ]
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            player=PlayerFactory(first_name=f, last_name=last),
        )
        for n, (f, last) in enumerate(people, 1)
    ]
    series = make_series(tournament, sizes=(4, 3), entries=entries)
    data = paper_documents.seating_lists(tournament=tournament, series=series)
    # DIN 5007: Ä and Ö sort with A and O.
    assert [line.name for group in data.letters for line in group.lines] == [
        "Ahrens, Bernd",
        "Ärger, Fritz",
        "Bast, Gabi",
        "Maus, Erika",
        "Ochs, Dieter",
        "Öztürk, Carla",
        "Zimmer, Anna",
    ]
    assert [g.letter for g in data.letters] == ["A", "B", "M", "O", "Z"]
    document = pdf.seating_pdf(tournament=tournament, series_number=1)
    assert document.pages == 2
    alpha, by_table = pdf_pages_text(document.content)
    flat = " ".join(alpha.split())
    assert "Sitzplan Serie 1" in flat and "Alphabetisch" in flat
    # Each name on one line with its table and seat.
    lines = alpha.splitlines()
    assert any(re.search(r"Zimmer, Anna \(1\)\s+Tisch 1 · Sitz 1", x) for x in lines)
    assert any(re.search(r"Ochs, Dieter \(4\)\s+Tisch 1 · Sitz 4", x) for x in lines)
    assert any(re.search(r"Bast, Gabi \(7\)\s+Tisch 2 · Sitz 3", x) for x in lines)
    table_text = " ".join(by_table.split())
    assert "Nach Tischen" in table_text
    assert "Tisch 2 (Dreiertisch)" in table_text
    assert "1 Zimmer, Anna (1)" in table_text


@needs_pdftotext
def test_table_cards_one_page_per_table_with_the_number(tournament, scored_series):
    document = pdf.cards_pdf(tournament=tournament)
    assert document.pages == 3
    for number, text in enumerate(pdf_pages_text(document.content), 1):
        assert "TISCH" in text
        assert re.search(rf"^\s*{number}\s*$", text, re.M)


def test_table_cards_before_seating_follow_the_field(tournament, entries):
    assert paper_documents.table_cards(tournament=tournament, series=None).numbers == [
        1,
        2,
    ]


# --- Standings, certificates -------------------------------------------------


@needs_pdftotext
def test_standings_overall_ladies_teams_with_the_time_of_the_state(
    tournament, scored_series
):
    from tests.support.factories import TeamFactory

    lady = Player.objects.get(entries__start_number=2)
    lady.category = Player.Category.LADIES
    lady.save()
    team = TeamFactory(tournament=tournament, name="Schrämclub Daun I")
    tournament.entries.filter(start_number__in=[1, 2]).update(team=team)
    document = pdf.standings_pdf(tournament=tournament)
    text = " ".join(" ".join(pdf_pages_text(document.content)).split())
    for title in ("Gesamtwertung", "Damenwertung", "Mannschaftswertung"):
        assert title in text
    assert re.search(r"Stand: \w+, \d+\. \w+ \d{4}, \d\d:\d\d Uhr", text)
    assert "Stand nach Serie 1 · 3 von 3 Tischen bestätigt" in text
    assert "Schrämclub Daun I" in text
    assert lady.full_name in text


def test_standings_leave_a_series_without_result_blank_not_zero(
    tournament, scored_series
):
    """Series 1 confirmed, the others not played yet: their cells are
    blank (None), while series 1 keeps every player's points, 0 included,
    as the workbook does."""
    data = paper_documents.standings_document(tournament=tournament)
    overall = data.parts[0].rows
    assert overall and tournament.series_count > 1
    for line in overall:
        assert line.series[0] == line.row.series_points[0]
        assert line.series[1:] == [None] * (tournament.series_count - 1)
    html = render_to_string(
        "pdf/standings.html", {"tournament": tournament, "data": data}
    )
    first = overall[0].row
    cells = re.search(rf'<td class="num">{first.start_number}</td>.*?</tr>', html, re.S)
    assert cells is not None
    empty = cells.group(0).count('<td class="num"></td>')
    assert empty == tournament.series_count - 1
    assert "None" not in html


@needs_pdftotext
def test_certificates_for_the_first_places(tournament, scored_series):
    document = pdf.certificates_pdf(tournament=tournament, top=3)
    rows = [r for r in paper_documents.certificates(tournament=tournament, top=3).rows]
    assert document.pages == len(rows) >= 3
    pages = pdf_pages_text(document.content)
    for row, text in zip(rows, pages, strict=True):
        flat = " ".join(text.split())
        assert "Urkunde" in flat and row.name in flat
        assert f"{row.rank}. Platz" in flat
        assert f"belegte mit {row.points} Punkten den" in flat


def test_certificates_need_results(tournament, entries):
    make_series(tournament, sizes=(4, 4), entries=entries)
    with pytest.raises(UserError, match="Noch keine bestätigten Ergebnisse"):
        pdf.certificates_pdf(tournament=tournament)


def test_pdf_templates_load_only_static_files():
    fetcher = layout.StaticFilesFetcher()
    for url in ("file:///etc/passwd", "http://example.org/x.css"):
        with pytest.raises(ValueError, match="only load static files"):
            fetcher.fetch(url)
    response = fetcher.fetch(layout.BASE_URL + "fonts/DejaVuSans.ttf")
    assert response.read(4) == b"\x00\x01\x00\x00"


# --- Pages and commands -------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "content_type"),
    [
        ("document=sheets&series=1", "application/pdf"),
        ("document=sheets&series=1&filled=on", "application/pdf"),
        ("document=seating&series=1", "application/pdf"),
        ("document=cards", "application/pdf"),
        ("document=standings", "application/pdf"),
        ("document=certificates&top=2", "application/pdf"),
        ("document=xlsx", "application/vnd.openxmlformats"),
    ],
)
def test_every_document_downloads_from_the_organizer_page(
    organizer_client, tournament, scored_series, query, content_type
):
    page = organizer_client.get(reverse("tournament:paper", args=[tournament.slug]))
    assert page.status_code == 200
    url = reverse("tournament:paper_download", args=[tournament.slug])
    # "Sofort öffnen" posts the document's form to the download address.
    assert f'formaction="{url}"' in page.content.decode()
    fields = dict(part.split("=") for part in query.split("&"))
    response = organizer_client.post(url, fields)
    assert response.status_code == 200
    assert response["Content-Type"].startswith(content_type)
    # The same fields as a query make a link to it.
    response = organizer_client.get(f"{url}?{query}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith(content_type)
    assert f'filename="{tournament.slug}-' in response["Content-Disposition"]


def test_manage_page_links_to_print_and_export(organizer_client, tournament):
    response = organizer_client.get(
        reverse("tournament:manage", args=[tournament.slug])
    )
    assert (
        reverse("tournament:paper", args=[tournament.slug]) in response.content.decode()
    )


def test_paper_pages_are_for_organizers_only(
    client, referee, tournament, scored_series
):
    url = reverse("tournament:paper", args=[tournament.slug])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(referee)
    assert client.get(url).status_code == 403
    download = reverse("tournament:paper_download", args=[tournament.slug])
    assert client.get(f"{download}?document=standings").status_code == 403


def test_a_document_that_cannot_be_made_says_why(
    organizer_client, tournament, scored_series
):
    url = reverse("tournament:paper_download", args=[tournament.slug])
    response = organizer_client.get(f"{url}?document=sheets&series=4", follow=True)
    assert "Serie 4 ist nicht gesetzt" in response.content.decode()
    response = organizer_client.get(f"{url}?document=nonsense", follow=True)
    assert "Unbekanntes Dokument" in response.content.decode()


@needs_pdftotext
def test_print_command_writes_each_document(tournament, scored_series, tmp_path):
    for document, pages in [
        ("sheets", 3),
        ("seating", 2),
        ("cards", 3),
        ("standings", None),
        ("certificates", None),
    ]:
        target = tmp_path / f"{document}.pdf"
        out = StringIO()
        call_command(
            "print", tournament.slug, document, "--series", "1", "--filled",
            "-o", str(target), stdout=out,
        )  # fmt: skip
        content = target.read_bytes()
        assert content.startswith(b"%PDF-")
        if pages is not None:
            assert pdf_page_count(content) == pages
        assert f"{pdf_page_count(content)} pages" in out.getvalue()


def test_print_command_refuses_an_unseated_series(tournament, scored_series, tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="Serie 2 ist nicht gesetzt"):
        call_command(
            "print", tournament.slug, "sheets", "--series", "2",
            "-o", str(tmp_path / "x.pdf"),
        )  # fmt: skip
