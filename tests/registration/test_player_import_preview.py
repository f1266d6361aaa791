"""The import preview shows every column it read, also for a row with
errors; the template workbook has the import's columns and imports back."""

from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from tests.support.factories import EntryFactory
from tests.support.workbooks import PLAYER_HEADER, import_confirmation, xlsx
from tournament.models import Entry

pytestmark = pytest.mark.django_db


def workbook(rows, header=PLAYER_HEADER):
    return xlsx(rows, header=header)


def upload(client, tournament, content):
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    return client.post(url, {"file": SimpleUploadedFile("spieler.xlsx", content)})


def test_the_preview_shows_every_column_read_with_the_category(
    organizer_client, tournament
):
    content = workbook(
        [
            [1, "Anna", "Thelen", "KSC Mayen", "Mayen", "dame"],
            [2, "Hubert", "Mertes", "", "Daun", ""],
        ]
    )
    response = upload(organizer_client, tournament, content)
    preview = response.context["preview"]
    assert preview.headings == [
        "Startnummer",
        "Vorname",
        "Nachname",
        "Verein",
        "Ort",
        "Kategorie",
    ]
    assert [r.shown for r in preview.rows] == [
        ["1", "Anna", "Thelen", "KSC Mayen", "Mayen", "Damen (dame)"],
        ["2", "Hubert", "Mertes", "", "Daun", "Offen"],
    ]
    text = response.content.decode()
    assert "<th>Kategorie</th>" in text
    assert '<td data-label="Kategorie">Damen (dame)</td>' in text


def test_a_row_with_errors_still_shows_what_it_says(organizer_client, tournament):
    EntryFactory(tournament=tournament, start_number=1)
    content = workbook([[1, "Anna", "Thelen", "KSC Mayen", "", "Profis"]])
    response = upload(organizer_client, tournament, content)
    (row,) = response.context["preview"].rows
    assert row.shown == ["1", "Anna", "Thelen", "KSC Mayen", "", "Profis"]
    text = response.content.decode()
    assert '<td data-label="Kategorie">Profis</td>' in text
    assert "Unbekannte Kategorie" in text


def test_each_column_of_the_file_is_mapped_or_left_aside(organizer_client, tournament):
    content = workbook(
        [["Anna", "Thelen", "Asse", "ja"]],
        header=["Vorname", "Nachname", "Mannschaft", "anwesend"],
    )
    response = upload(organizer_client, tournament, content)
    preview = response.context["preview"]
    assert preview.headings == ["Vorname", "Nachname", "Mannschaft"]
    assert [(c.header, c.field) for c in preview.mapping] == [
        ("Vorname", "first_name"),
        ("Nachname", "last_name"),
        ("Mannschaft", "team"),
        ("anwesend", None),
    ]
    text = response.content.decode()
    assert '<option value="" selected>nicht übernehmen</option>' in text


def test_the_template_workbook_has_the_import_columns_and_imports_back(
    organizer_client, tournament
):
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    page = organizer_client.get(url).content.decode()
    assert f'href="{url}?vorlage=1"' in page
    response = organizer_client.get(url, {"vorlage": "1"})
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "spielerliste-vorlage.xlsx" in response["Content-Disposition"]
    book = load_workbook(BytesIO(response.content))
    sheet = book.worksheets[0]
    header = [c.value for c in sheet[1]]
    assert header == [
        "Startnummer",
        "Vorname",
        "Nachname",
        "Verein",
        "Ort",
        "Kategorie",
    ]
    assert sheet.max_row == 1 and sheet.freeze_panes == "A2"
    (choice,) = sheet.data_validations.dataValidation
    assert choice.formula1 == '"Offen,Damen,Senioren,Jugend"'
    assert "Hinweise" in book.sheetnames
    # Filled in as a club would, it imports.
    sheet.append([None, "Anna", "Jöbges", "Schrämclub Daun", "Daun", "Damen"])
    filled = BytesIO()
    book.save(filled)
    preview = upload(organizer_client, tournament, filled.getvalue())
    assert preview.context["preview"].ok
    organizer_client.post(
        reverse("tournament:import_confirm", kwargs={"slug": tournament.slug}),
        import_confirmation(preview),
    )
    assert Entry.objects.get(tournament=tournament).player.category == "ladies"


def test_the_template_is_for_organizers_only(client, referee, tournament):
    client.force_login(referee)
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    assert client.get(url, {"vorlage": "1"}).status_code == 403
