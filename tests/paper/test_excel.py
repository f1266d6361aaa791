"""The results workbook and the import of its Games sheet: a clean workbook,
export → import → identical standings, and bad workbooks refused with clear
messages and nothing written."""

import shutil
import subprocess
from io import BytesIO, StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from tests.support.factories import EntryFactory, TournamentFactory, make_series
from tests.support.results import (
    RESULTS,
    games,
    results_written,
    seated_with_results,
)
from tests.support.workbooks import GAMES_HEADER, xlsx
from tournament.core.errors import UserError
from tournament.models import AuditEvent, GameScore, Job, ResultVersion, Seat, Table
from tournament.paper import jobs
from tournament.paper.games_import import games_import_apply, parse_games_workbook
from tournament.paper.workbook import results_workbook
from tournament.results.services import GameInput, result_enter
from tournament.standings.selectors import standings_rows

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("var_dir")]

SWAP = {1: 2, 2: 1, 3: 3}


@pytest.fixture
def scored(tournament, organizer):
    """Two series with every table confirmed (series 2 re-uses the results
    of series 1, shuffled between the tables of four)."""
    seated_with_results(tournament, organizer)
    entries = list(tournament.entries.order_by("-start_number"))
    series2 = make_series(tournament, sizes=(4, 4, 3), number=2, entries=entries)
    for table in Table.objects.filter(series=series2):
        result_enter(
            actor=organizer,
            table=table,
            games=games(RESULTS[SWAP[table.number]]),
            mode="quick",
            revision=table.result_revision,
            auto_confirm=True,
        )
    return tournament


def standings(tournament):
    return [
        (r.rank, r.start_number, r.name, r.points, r.games_won, r.series_points)
        for r in standings_rows(tournament, cached=False)
    ]


def twin(tournament):
    """Another tournament with the same players and the same seating, but
    no results: a tournament scored elsewhere."""
    other = TournamentFactory(slug="twin", name="Zwilling")
    by_number = {
        e.start_number: EntryFactory(
            tournament=other, player=e.player, start_number=e.start_number
        )
        for e in tournament.entries.all()
    }
    for series in tournament.series.order_by("number"):
        seats = Seat.objects.filter(series=series).order_by("table__number", "number")
        sizes = list(series.tables.order_by("number").values_list("size", flat=True))
        make_series(
            other,
            sizes=sizes,
            number=series.number,
            entries=[by_number[s.entry.start_number] for s in seats],
        )
    return other


def parse(content, tournament, filename="ergebnisse.xlsx"):
    return parse_games_workbook(
        BytesIO(content), size=len(content), filename=filename, tournament=tournament
    )


def games_workbook(rows, header=GAMES_HEADER, title="Spiele"):
    return xlsx(rows, header=header, title=title)


def exported_rows(tournament):
    sheet = load_workbook(BytesIO(results_workbook(tournament=tournament)))["Spiele"]
    return [list(r) for r in sheet.iter_rows(min_row=2, values_only=True)]


# --- The workbook --------------------------------------------------------------


def test_results_workbook_has_clean_sheets(scored):
    workbook = load_workbook(BytesIO(results_workbook(tournament=scored)))
    assert workbook.sheetnames == [
        "Spieler",
        "Setzung Serie 1",
        "Setzung Serie 2",
        "Spiele",
        "Tabelle",
    ]
    for sheet in workbook.worksheets:
        assert sheet.freeze_panes == "A2"
        assert sheet.auto_filter.ref == sheet.dimensions
        assert all(cell.font.bold for cell in sheet[1])
        assert all(sheet.column_dimensions[c].width >= 8 for c in "ABC")
    games = workbook["Spiele"]
    assert [c.value for c in games[1]] == GAMES_HEADER
    assert games.max_row == 1 + 2 * 5 * (4 + 4 + 3)
    first = [c.value for c in games[2]]
    assert first[:5] == [1, 1, 1, 1, 1]
    assert first[6:] == [5, 12]  # seat 1 won game 1 with 5 marks kept
    assert all(games.cell(row=2, column=c).number_format == "0" for c in (1, 5, 8))
    assert all(isinstance(games.cell(row=2, column=c).value, int) for c in (1, 7, 8))
    table = workbook["Tabelle"]
    assert [c.value for c in table[1]][:3] == ["Platz", "Startnummer", "Name"]
    assert table.cell(row=2, column=1).value == 1
    assert workbook.properties.creator == "Siebenschräm"


def test_the_standings_sheet_holds_the_standings_numbers_as_values(scored):
    """Read as a program that does not recalculate reads it (openpyxl with
    `data_only`: the stored values only): every number is the standings'
    own; series 3-5, not played, are blank, not 0; no formula anywhere."""
    content = results_workbook(tournament=scored)
    workbook = load_workbook(BytesIO(content), data_only=True)
    sheet = workbook["Tabelle"]
    header = [c.value for c in sheet[1]]
    assert header[5:13] == [f"Serie {n}" for n in range(1, 6)] + [
        "Siege",
        "Punkte",
        "Abmeldung",
    ]
    rows = standings_rows(scored, cached=False)
    read = [[c.value for c in line] for line in sheet.iter_rows(min_row=2)]
    assert [(r[0], r[1], r[2], r[11], r[10]) for r in read] == [
        (r.rank, r.start_number, r.name, r.points, r.games_won) for r in rows
    ]
    for line, row in zip(read, rows, strict=True):
        assert line[5:7] == row.series_points[:2]
        assert line[7:10] == [None, None, None]
    formulas = load_workbook(BytesIO(content))
    assert not [
        c.coordinate
        for ws in formulas.worksheets
        for line in ws.iter_rows()
        for c in line
        if c.data_type == "f"
    ]


def test_the_workbook_has_the_pdfs_tables_and_the_withdrawal_mark(scored, organizer):
    """Overall, each category with players, the teams, as the standings PDF;
    a withdrawn player carries the standings' mark, never the reason the
    desk typed."""
    from tournament.models import Entry, Team
    from tournament.registration.services import entry_withdraw

    entries = list(scored.entries.order_by("start_number"))
    for entry in entries[:3]:
        entry.player.category = "ladies"
        entry.player.save()
    team = Team.objects.create(tournament=scored, name="Asse Daun")
    Entry.objects.filter(pk__in=[e.pk for e in entries[:2]]).update(team=team)
    entry_withdraw(
        actor=organizer,
        entry=entries[4],
        reason="Unwohl, nach Hause gefahren",
    )
    mark = Entry.objects.get(pk=entries[4].pk).withdrawal_text
    assert mark == "abgemeldet (nach Serie 2)"
    content = results_workbook(tournament=scored)
    assert b"Unwohl" not in content
    workbook = load_workbook(BytesIO(content), data_only=True)
    assert workbook.sheetnames[-3:] == ["Tabelle", "Damenwertung", "Mannschaftswertung"]
    rows = {r.start_number: r for r in standings_rows(scored, cached=False)}
    ladies = workbook["Damenwertung"]
    assert sorted(line[1].value for line in ladies.iter_rows(min_row=2)) == [
        e.start_number for e in entries[:3]
    ]
    for line in ladies.iter_rows(min_row=2):
        assert line[0].value == rows[line[1].value].rank  # the overall place
        assert line[11].value == rows[line[1].value].points
    teams = [[c.value for c in line] for line in workbook["Mannschaftswertung"]]
    assert teams[0] == ["Platz", "Mannschaft", "Punkte", "Spieler"]
    assert teams[1][:3] == [
        1,
        "Asse Daun",
        rows[entries[0].start_number].points + rows[entries[1].start_number].points,
    ]
    table = {
        line[1].value: line[12].value
        for line in workbook["Tabelle"].iter_rows(min_row=2)
    }
    assert table[entries[4].start_number] == mark
    assert table[entries[0].start_number] is None
    players = {
        line[0].value: line[7].value
        for line in workbook["Spieler"].iter_rows(min_row=2)
    }
    assert players[entries[4].start_number] == mark


def test_every_sheet_prints_on_a4_as_wide_as_the_page(scored):
    workbook = load_workbook(BytesIO(results_workbook(tournament=scored)))
    for sheet in workbook.worksheets:
        setup = sheet.page_setup
        assert str(setup.paperSize) == sheet.PAPERSIZE_A4, sheet.title
        assert (setup.fitToWidth, setup.fitToHeight) == (1, 0), sheet.title
        assert sheet.sheet_properties.pageSetUpPr.fitToPage, sheet.title
        assert sheet.print_title_rows == "$1:$1", sheet.title
    assert workbook["Tabelle"].page_setup.orientation == "landscape"
    assert workbook["Setzung Serie 1"].page_setup.orientation == "portrait"


def test_a_player_without_a_result_in_a_series_has_a_blank_not_a_zero(scored):
    """Series 2 entered for all tables but one: its players are blank for
    series 2 (no result yet), everybody else shows what they scored, 0
    included."""
    series2 = scored.series.get(number=2)
    open_table = Table.objects.get(series=series2, number=3)
    waiting = set(open_table.seats.values_list("entry__start_number", flat=True))
    ResultVersion.objects.filter(table=open_table).delete()
    GameScore.objects.filter(table=open_table).delete()
    sheet = load_workbook(BytesIO(results_workbook(tournament=scored)))["Tabelle"]
    for line in sheet.iter_rows(min_row=2):
        number, series2_points = line[1].value, line[6].value
        if number in waiting:
            assert series2_points is None, number
        else:
            assert isinstance(series2_points, int), number


def test_export_command_writes_the_workbook(scored, tmp_path):
    target = tmp_path / "ergebnisse.xlsx"
    out = StringIO()
    call_command("export", scored.slug, "-o", str(target), stdout=out)
    assert "Spiele" in load_workbook(target).sheetnames
    assert str(target) in out.getvalue()


# --- Round trip ------------------------------------------------------------------


def test_export_import_gives_identical_standings(scored, organizer):
    content = results_workbook(tournament=scored)
    other = twin(scored)
    assert all(r[3] == 0 for r in standings(other))
    preview = parse(content, other)
    assert preview.ok, preview.errors
    assert [t.action for t in preview.tables] == ["new"] * 6
    count = games_import_apply(
        actor=organizer,
        tournament=other,
        tables=preview.payload(),
        filename="ergebnisse.xlsx",
    )
    assert count == 6
    assert standings(other) == standings(scored)
    versions = ResultVersion.objects.filter(table__series__tournament=other)
    assert {(v.mode, v.status) for v in versions} == {("import", "confirmed")}
    assert (
        AuditEvent.objects.filter(tournament=other, action="result.enter").count() == 6
    )
    assert AuditEvent.objects.filter(tournament=other, action="results.import").exists()


def test_reimporting_the_own_export_changes_nothing(scored):
    preview = parse(results_workbook(tournament=scored), scored)
    assert preview.ok
    assert {t.action for t in preview.tables} == {"same"}
    assert preview.to_import == []


def test_a_changed_game_replaces_the_confirmed_result_with_a_reason(scored, organizer):
    rows = exported_rows(scored)
    # Series 1, table 1, game 1: seat 2 wins with 6 marks instead of seat 1.
    for row in rows[:4]:
        row[6], row[7] = (6, 13) if row[3] == 2 else (0, 0)
    preview = parse(games_workbook(rows), scored)
    assert preview.ok, preview.errors
    changed = preview.to_import
    assert [(t.series, t.table, t.action) for t in changed] == [(1, 1, "replace")]
    before = standings(scored)
    games_import_apply(
        actor=organizer, tournament=scored, tables=preview.payload(), filename="x.xlsx"
    )
    assert standings(scored) != before
    version = ResultVersion.objects.get(
        table__series__number=1, table__number=1, status="confirmed"
    )
    assert version.mode == "import" and version.reason == "Import aus x.xlsx"
    assert AuditEvent.objects.filter(action="result.correct").count() == 1


# --- Bad workbooks ---------------------------------------------------------------


def _set(rows, index, **changes):
    columns = {
        c: i for i, c in enumerate(["s", "t", "g", "p", "n", "name", "m", "pts"])
    }
    rows = [list(r) for r in rows]
    for key, value in changes.items():
        rows[index][columns[key]] = value
    return rows


BAD = {
    "start-number-elsewhere": (
        lambda rows: _set(rows, 0, n=99),
        "Zeile 2: auf Serie 1, Tisch 1, Sitz 1 sitzt Startnummer 1, nicht 99",
    ),
    "two-winners": (
        lambda rows: _set(rows, 1, m=3, pts=10),
        "Serie 1, Tisch 1: Spiel 1: mehrere Spieler haben noch Schräm (Sitze 1, 2)",
    ),
    "no-winner": (
        lambda rows: _set(rows, 0, m=0, pts=0),
        "Serie 1, Tisch 1: Spiel 1: niemand hat noch Schräm",
    ),
    "missing-row": (
        lambda rows: rows[1:],
        "Serie 1, Tisch 1: Spiel 1: es fehlen Zeilen für Sitz 1",
    ),
    "eight-marks": (
        lambda rows: _set(rows, 0, m=8, pts=15),
        "Zeile 2: 8 Schräm übrig – möglich sind 0 bis 7",
    ),
    "points-do-not-fit": (
        lambda rows: _set(rows, 0, pts=11),
        "Zeile 2: 11 Punkte passen nicht zu 5 Schräm übrig (das gibt 12 Punkte)",
    ),
    "duplicate-row": (
        lambda rows: [*rows, rows[0]],
        "Serie 1, Tisch 1, Spiel 1, Sitz 1 steht schon in Zeile 2",
    ),
    "unknown-table": (
        lambda rows: _set(rows, 0, t=9),
        "Zeile 2: Serie 1 hat keinen Tisch 9",
    ),
    "unknown-series": (
        lambda rows: _set(rows, 0, s=7),
        "Zeile 2: Serie 7 gibt es in diesem Turnier nicht",
    ),
    "seat-four-at-a-three": (
        lambda rows: _set(rows, 40, p=4, n=11),
        "an Tisch 3 der Serie 1 gibt es keinen Sitz 4",
    ),
    "text-in-a-number": (
        lambda rows: _set(rows, 0, g="eins"),
        "Zeile 2: Spiel fehlt oder ist keine ganze Zahl",
    ),
    "game-six": (
        lambda rows: _set(rows, 0, g=6),
        "Zeile 2: Spiel 6 gibt es nicht (1 bis 5)",
    ),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_rows_are_refused_with_a_clear_message_and_nothing_written(
    scored, organizer, case
):
    other = twin(scored)
    change, message = BAD[case]
    rows = change(exported_rows(scored))
    before = results_written()
    preview = parse(games_workbook(rows), other)
    assert not preview.ok
    assert any(message in e for e in preview.errors), preview.errors
    assert preview.payload() is not None  # previews never write
    assert results_written() == before


def test_the_games_sheet_reads_as_csv_and_with_formatted_empty_rows(scored):
    """The Games sheet as German Excel saves it as CSV, and as a workbook
    formatted far below its last row, previews as the workbook does."""
    from openpyxl.styles import Font

    from tests.support.workbooks import csv_bytes

    rows = exported_rows(scored)
    content = csv_bytes([GAMES_HEADER, *rows], encoding="cp1252")
    preview = parse(content, scored, filename="spiele.csv")
    assert preview.ok, preview.errors
    assert {t.action for t in preview.tables} == {"same"}
    workbook = load_workbook(BytesIO(games_workbook(rows)))
    sheet = workbook.active
    for line in range(sheet.max_row + 1, 60_000, 7):
        sheet.cell(row=line, column=1).font = Font(bold=True)
    buffer = BytesIO()
    workbook.save(buffer)
    preview = parse(buffer.getvalue(), scored)
    assert preview.ok, preview.errors
    assert preview.rows == len(rows)


@pytest.mark.parametrize(
    ("content", "filename", "message"),
    [
        (b"not a zip", "spiele.xlsx", "Die Datei ist beschädigt"),
        (b"%PDF-1.7\n", "spiele.pdf", "Falscher Dateityp"),
        (b"a,b\n1,2\n", "spiele.csv", "Kein Blatt „Spiele“ gefunden"),
        (
            games_workbook([[1, 1]], header=["Serie", "Tisch"]),
            "spiele.xlsx",
            "Kein Blatt „Spiele“ gefunden",
        ),
        (games_workbook([]), "spiele.xlsx", "enthält keine Zeilen"),
    ],
    ids=["corrupt", "pdf", "csv-without-games", "missing-columns", "empty"],
)
def test_bad_files_are_refused(tournament, content, filename, message):
    preview = parse(content, tournament, filename=filename)
    assert not preview.ok
    assert any(message in e for e in preview.file_errors), preview.file_errors


def test_an_unreleased_series_takes_no_import(tournament, entries):
    make_series(tournament, sizes=(4, 4), entries=entries, status="seated")
    rows = [
        [1, t, g, p, (t - 1) * 4 + p, "", 5 if p == 1 else 0, 12 if p == 1 else 0]
        for t in (1, 2)
        for g in range(1, 6)
        for p in range(1, 5)
    ]
    preview = parse(games_workbook(rows), tournament)
    assert "Serie 1 ist noch nicht veröffentlicht." in " ".join(preview.errors)


def test_english_headers_and_any_column_order_are_read(scored):
    other = twin(scored)
    rows = exported_rows(scored)
    header = [
        "Points",
        "Marks kept",
        "Name",
        "Start number",
        "Seat",
        "Game",
        "Table",
        "Series",
    ]
    preview = parse(
        games_workbook([list(reversed(r)) for r in rows], header=header, title="Games"),
        other,
    )
    assert preview.ok, preview.errors
    assert len(preview.to_import) == 6


def test_a_workbook_whose_seat_column_is_still_platz_is_read(scored):
    """Workbooks written before the seat was called "Sitz" import alike."""
    header = ["Platz" if h == "Sitz" else h for h in GAMES_HEADER]
    assert header != GAMES_HEADER
    preview = parse(games_workbook(exported_rows(scored), header=header), twin(scored))
    assert preview.ok, preview.errors
    assert len(preview.to_import) == 6


def test_the_import_is_all_or_nothing(scored, organizer):
    """A table entered by a referee after the preview: the import stops and
    no table of it is written."""
    other = twin(scored)
    preview = parse(results_workbook(tournament=scored), other)
    table = Table.objects.get(series__tournament=other, series__number=2, number=3)
    result_enter(
        actor=organizer,
        table=table,
        games=[GameInput(winner=1, marks=1)] * 5,
        mode="quick",
        revision=table.result_revision,
        auto_confirm=True,
    )
    before = results_written()
    with pytest.raises(UserError, match=r"Serie 2, Tisch 3: .*inzwischen"):
        games_import_apply(
            actor=organizer, tournament=other, tables=preview.payload(), filename="x"
        )
    assert results_written() == before
    assert not ResultVersion.objects.filter(mode="import").exists()


# --- Through the pages -----------------------------------------------------------


def test_import_through_the_pages_previews_then_imports_in_a_job(
    client, organizer, scored, django_capture_on_commit_callbacks
):
    other = twin(scored)
    client.force_login(organizer)
    url = reverse("tournament:games_import", args=[other.slug])
    content = results_workbook(tournament=scored)
    response = client.post(
        url, {"file": SimpleUploadedFile("ergebnisse.xlsx", content)}
    )
    text = response.content.decode()
    assert "6 Tischergebnisse bereit zum Import" in text
    assert "Noch ist nichts gespeichert" in text
    assert not ResultVersion.objects.filter(table__series__tournament=other).exists()
    confirm = reverse("tournament:games_import_confirm", args=[other.slug])
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(confirm, {"token": response.context["token"]})
    job = Job.objects.get(kind="games_import")
    assert response["Location"].endswith(f"/auftrag/{job.pk}/")
    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == "done", job.message
    assert job.message == "6 Tischergebnisse importiert und bestätigt."
    assert standings(other) == standings(scored)
    # The same preview cannot be imported twice.
    response = client.post(confirm, {"token": "again"}, follow=True)
    assert "nicht mehr gültig" in response.content.decode()


def test_a_bad_upload_shows_the_errors_on_the_page(organizer_client, scored):
    other = twin(scored)
    rows = _set(exported_rows(scored), 0, n=99)
    url = reverse("tournament:games_import", args=[other.slug])
    response = organizer_client.post(
        url, {"file": SimpleUploadedFile("x.xlsx", games_workbook(rows))}
    )
    text = response.content.decode()
    assert "Die Datei kann nicht importiert werden" in text
    assert "sitzt Startnummer 1, nicht 99" in text
    assert "Jetzt importieren" not in text


def test_a_failed_import_job_writes_nothing(scored, organizer):
    other = twin(scored)
    payload = parse(results_workbook(tournament=scored), other).payload()
    payload[-1]["games"][0] = [1, 9]  # tampered with after the preview
    job = jobs.job_start(
        actor=organizer,
        tournament=other,
        kind="games_import",
        label="x",
        params={"tables": payload, "filename": "x.xlsx", "actor": organizer.pk},
    )
    before = results_written()
    jobs.job_run(job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    assert "höchstens 7 Schräm" in job.message
    assert results_written() == before


def test_the_workbook_reads_in_a_fixed_number_of_queries(
    scored, django_assert_num_queries
):
    results_workbook(tournament=scored)  # warm the standings cache
    with django_assert_num_queries(4):  # players, seats, games, teams
        results_workbook(tournament=scored)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice not installed")
def test_libreoffice_opens_the_workbook_and_its_copy_imports_back(scored, tmp_path):
    """LibreOffice reads every sheet (numbers as numbers, umlauts intact), and
    a copy it saves again imports back unchanged."""
    source = tmp_path / "ergebnisse.xlsx"
    source.write_bytes(results_workbook(tournament=scored))
    profile = f"-env:UserInstallation=file://{tmp_path}/lo-profile"
    subprocess.run(
        ["soffice", profile, "--headless", "--norestore", "--convert-to",
         "csv:Text - txt - csv (StarCalc):59,34,76,1,,1031,false,true,false,"
         "false,false,-1", "--outdir", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    games = (tmp_path / "ergebnisse-Spiele.csv").read_text(encoding="utf-8")
    header, first = games.splitlines()[:2]
    assert header == ";".join(GAMES_HEADER)
    fields = first.split(";")
    assert fields[:5] == ["1"] * 5 and fields[6:] == ["5", "12"]
    copy = tmp_path / "copy"
    subprocess.run(
        ["soffice", profile, "--headless", "--norestore", "--convert-to",
         "xlsx:Calc MS Excel 2007 XML", "--outdir", str(copy), str(source)],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    preview = parse((copy / "ergebnisse.xlsx").read_bytes(), scored)
    assert preview.ok, preview.errors
    assert {t.action for t in preview.tables} == {"same"}
