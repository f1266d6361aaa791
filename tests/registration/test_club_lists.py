"""The player import over a folder of club lists (`club_lists.py`): every
format a club's program writes, headers under a title, extra columns,
hidden rows, formula errors, a player twice; each with what the preview
must say. Nothing wrong imports without a word."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.registration.club_lists import CLUB_LISTS, ClubList, write_folder
from tests.support.factories import TournamentFactory
from tests.support.workbooks import import_confirmation
from tournament.core.errors import UserError
from tournament.models import Entry, Person, Player
from tournament.registration.player_import import (
    check_players,
    propose_mapping,
    read_player_table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The folder of club lists, written once."""
    paths = write_folder(tmp_path_factory.mktemp("vereinslisten"))
    return {path.name: path for path in paths}


def _preview(path, tournament, take_hidden=False):
    content = path.read_bytes()
    with path.open("rb") as upload:
        table = read_player_table(upload, size=len(content), filename=path.name)
    return check_players(
        table, propose_mapping(table), tournament=tournament, take_hidden=take_hidden
    )


def _row(preview, line):
    (row,) = [r for r in preview.rows if r.line == line]
    return row


@pytest.mark.parametrize("club_list", CLUB_LISTS, ids=[c.name for c in CLUB_LISTS])
def test_every_club_list_previews_as_expected(files, club_list: ClubList):
    tournament = TournamentFactory()
    path = files[club_list.name]
    if club_list.refused:
        with pytest.raises(UserError) as refused:
            _preview(path, tournament)
        assert club_list.refused in refused.value.message
        return
    preview = _preview(path, tournament)
    assert not preview.file_errors and not preview.mapping_errors
    assert len(preview.rows) == club_list.rows
    assert preview.ok == club_list.ok, [(r.line, r.errors) for r in preview.rows]
    assert len(preview.hidden_lines) == club_list.hidden
    assert preview.duplicates == club_list.duplicates
    if club_list.sheet is not None:
        assert preview.sheet == club_list.sheet
    if club_list.header_row is not None:
        assert preview.header_row == club_list.header_row
    if club_list.mapping:
        assert {c.header: c.field for c in preview.mapping} == club_list.mapping
    for line, key, value in club_list.expect:
        row = _row(preview, line)
        if key == "error":
            assert any(value in e for e in row.errors), row.errors
        elif key == "warning":
            assert any(value in w for w in row.warnings), row.warnings
        else:
            assert row.data is not None, row.errors
            assert getattr(row.data, key) == value


def test_hidden_rows_are_taken_only_when_asked(files, organizer_client):
    tournament = TournamentFactory()
    path = files["gefiltert.xlsx"]
    assert len(_preview(path, tournament, take_hidden=True).rows) == 22
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    response = organizer_client.post(
        url, {"file": SimpleUploadedFile(path.name, path.read_bytes())}
    )
    text = response.content.decode()
    assert "In der Datei sind 17 Zeilen ausgeblendet oder weggefiltert" in text
    assert "Übernommen werden nur die sichtbaren Zeilen." in text
    confirm = reverse("tournament:import_confirm", kwargs={"slug": tournament.slug})
    # Ticking the box shows the preview again before anything is imported.
    data = {**import_confirmation(response), "ausgeblendete": "1"}
    response = organizer_client.post(confirm, data)
    assert Entry.objects.count() == 0
    assert len(response.context["preview"].rows) == 22
    organizer_client.post(confirm, data)
    assert tournament.entries.count() == 22


def test_a_player_twice_in_the_file_is_one_person_and_one_entry(
    files, organizer_client
):
    tournament = TournamentFactory()
    path = files["doppelt.xlsx"]
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    response = organizer_client.post(
        url, {"file": SimpleUploadedFile(path.name, path.read_bytes())}
    )
    assert "doppelt in der Datei, Zeilen 4 und 17" in response.content.decode()
    confirm = reverse("tournament:import_confirm", kwargs={"slug": tournament.slug})
    organizer_client.post(confirm, import_confirmation(response))
    assert tournament.entries.count() == 16
    assert Person.objects.filter(last_name="Müller").count() == 1


def test_the_same_name_twice_in_one_list_is_listed_for_review(organizer_client):
    """Two of one name with different clubs: two persons, the second for the
    organizer to decide on ("Personen prüfen"), never silently a new one."""
    tournament = TournamentFactory()
    from tests.support.workbooks import xlsx

    content = xlsx(
        [["Hans", "Müller", "SC Daun"], ["Hans", "Müller", "KSC Mayen"]],
        header=["Vorname", "Nachname", "Verein"],
    )
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    response = organizer_client.post(
        url, {"file": SimpleUploadedFile("liste.xlsx", content)}
    )
    confirm = reverse("tournament:import_confirm", kwargs={"slug": tournament.slug})
    organizer_client.post(confirm, import_confirmation(response))
    players = Player.objects.filter(last_name="Müller").order_by("club")
    assert [p.person_review for p in players] == [True, False]
    review = organizer_client.get(reverse("tournament:person_review"))
    assert "Müller" in review.content.decode()


def test_a_cell_far_out_costs_nothing_or_is_refused():
    """One cell in the last row and column of an .xls, or far out in an
    .ods, must not make the reader hold a sheet of millions of cells."""
    import io
    import time

    import xlwt
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    workbook = xlwt.Workbook()
    sheet = workbook.add_sheet("Liste")
    for c, text in enumerate(["Vorname", "Nachname"]):
        sheet.write(0, c, text)
        sheet.write(1, c, "Anna" if c == 0 else "Thelen")
    sheet.write(65535, 255, "x")
    buffer = io.BytesIO()
    workbook.save(buffer)
    content = buffer.getvalue()
    started = time.perf_counter()
    table = read_player_table(io.BytesIO(content), size=len(content), filename="a.xls")
    assert time.perf_counter() - started < 5
    assert [line for line, _c, _h in table.rows] == [2]

    document = OpenDocumentSpreadsheet()
    ods_table = Table(name="Liste")
    for texts in (["Vorname", "Nachname"], ["Anna", "Thelen"]):
        row = TableRow()
        for text in texts:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=text))
            row.addElement(cell)
        ods_table.addElement(row)
    ods_table.addElement(TableRow(numberrowsrepeated=1_000_000))
    far = TableRow()
    cell = TableCell(valuetype="string")
    cell.addElement(P(text="x"))
    far.addElement(cell)
    ods_table.addElement(far)
    document.spreadsheet.addElement(ods_table)
    buffer = io.BytesIO()
    document.write(buffer)
    content = buffer.getvalue()
    with pytest.raises(UserError, match="Die Tabelle reicht zu weit"):
        read_player_table(io.BytesIO(content), size=len(content), filename="a.ods")
