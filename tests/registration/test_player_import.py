"""Player import from .xlsx: every malformed workbook gets a clear German
message per row and leaves the database unchanged."""

from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from tests.support.factories import EntryFactory, TournamentFactory
from tests.support.workbooks import PLAYER_HEADER, import_confirmation, xlsx
from tournament.models import AuditEvent, Entry, Player

pytestmark = pytest.mark.django_db


def workbook(rows, header=PLAYER_HEADER):
    return xlsx(rows, header=header)


def upload(client, tournament, content, name="spieler.xlsx"):
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    return client.post(url, {"file": SimpleUploadedFile(name, content)})


def db_state():
    return (Entry.objects.count(), Player.objects.count(), AuditEvent.objects.count())


def test_valid_workbook_previews_then_imports_on_confirmation(
    organizer_client, tournament
):
    content = workbook(
        [
            [1, "Anna", "Thelen", "KSC Mayen", "Mayen", "Damen"],
            [None, "Hubert", "Mertes", "", "Daun", ""],
        ]
    )
    response = upload(organizer_client, tournament, content)
    assert response.status_code == 200
    text = response.content.decode()
    assert "2 Spieler bereit zum Import" in text
    assert Entry.objects.count() == 0  # nothing written before confirmation
    first = response
    confirm = reverse("tournament:import_confirm", kwargs={"slug": tournament.slug})
    response = organizer_client.post(confirm, import_confirmation(first), follow=True)
    assert "2 Spieler importiert" in response.content.decode()
    anna = Entry.objects.get(start_number=1)
    assert anna.player.category == Player.Category.LADIES
    assert Entry.objects.get(player__last_name="Mertes").start_number == 2
    # the same preview cannot be imported twice
    response = organizer_client.post(confirm, import_confirmation(first), follow=True)
    assert "nicht mehr gültig" in response.content.decode()
    assert Entry.objects.count() == 2


@pytest.mark.parametrize(
    ("rows", "header", "message"),
    [
        ([[1, "", "Thelen", "", "", ""]], PLAYER_HEADER, "Vorname fehlt."),
        ([[1, "Anna", "", "", "", ""]], PLAYER_HEADER, "Nachname fehlt."),
        (
            [[4, "Anna", "Thelen", "", "", ""], [4, "Gerda", "Lenz", "", "", ""]],
            PLAYER_HEADER,
            "Startnummer 4 steht schon in Zeile 2.",
        ),
        (
            [[9, "Anna", "Thelen", "", "", ""]],
            PLAYER_HEADER,
            "Startnummer 9 ist im Turnier",
        ),
        (
            [["x", "Anna", "Thelen", "", "", ""]],
            PLAYER_HEADER,
            "keine positive ganze Zahl",
        ),
        (
            [[1, "Anna", "Thelen", "", "", "Profis"]],
            PLAYER_HEADER,
            "Unbekannte Kategorie",
        ),
        (
            [[1, "Thelen", "Daun"]],
            ["Startnummer", "Nachname", "Verein"],
            "Keine Spalte ist „Vorname“ zugeordnet",
        ),
        ([], None, "Keine Überschriftenzeile gefunden"),
        ([], PLAYER_HEADER, "Die Liste enthält keine Spieler."),
    ],
    ids=[
        "missing-first-name",
        "missing-last-name",
        "duplicate-number-in-file",
        "number-taken-in-tournament",
        "bad-number",
        "unknown-category",
        "missing-column",
        "empty-sheet",
        "header-only",
    ],
)
def test_malformed_workbook_is_refused_with_a_message_and_nothing_written(
    organizer_client, tournament, rows, header, message
):
    EntryFactory(tournament=tournament, start_number=9)
    before = db_state()
    response = upload(organizer_client, tournament, workbook(rows, header))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert "Jetzt importieren" not in response.content.decode()
    assert db_state() == before


def test_row_errors_name_the_sheet_row(organizer_client, tournament):
    content = workbook(
        [[1, "Anna", "Thelen", "", "", ""], [], [2, "", "Lenz", "", "", ""]]
    )
    response = upload(organizer_client, tournament, content)
    rows = response.context["preview"].rows
    assert [(r.line, r.errors) for r in rows if r.errors] == [(4, ["Vorname fehlt."])]


def test_wrong_file_type_is_refused(organizer_client, tournament):
    before = db_state()
    response = upload(organizer_client, tournament, b"%PDF-1.7\n", "liste.pdf")
    text = response.content.decode()
    assert "Falscher Dateityp" in text and ".xlsx, .xls" in text and ".ods" in text
    response = upload(organizer_client, tournament, b"not a zip at all", "kaputt.xlsx")
    assert "Die Datei ist beschädigt" in response.content.decode()
    assert db_state() == before


def test_a_50_mb_file_is_refused_without_reading_it(organizer_client, tournament):
    before = db_state()
    content = b"\0" * (50 * 1024 * 1024)
    response = upload(organizer_client, tournament, content)
    assert "Die Datei ist zu groß (50 MB)" in response.content.decode()
    assert db_state() == before


def test_duplicate_name_is_a_warning_not_an_error(organizer_client, tournament):
    EntryFactory(
        tournament=tournament,
        start_number=9,
        player__first_name="Anna",
        player__last_name="Thelen",
    )
    response = upload(
        organizer_client, tournament, workbook([[1, "Anna", "Thelen", "", "", ""]])
    )
    text = response.content.decode()
    assert "schon gemeldet" in text and "Jetzt importieren" in text


def test_export_reimports_into_another_tournament(organizer_client, tournament):
    for n in (1, 2, 5):
        EntryFactory(tournament=tournament, start_number=n, player__category="ladies")
    url = reverse("tournament:entry_export", kwargs={"slug": tournament.slug})
    response = organizer_client.get(url)
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(BytesIO(response.content)).active
    assert sheet.freeze_panes == "A2"
    assert sheet["A1"].font.bold
    other = TournamentFactory(slug="other")
    response = upload(organizer_client, other, response.content)
    assert response.context["preview"].ok
    confirm = reverse("tournament:import_confirm", kwargs={"slug": other.slug})
    organizer_client.post(confirm, import_confirmation(response))
    numbers = sorted(other.entries.values_list("start_number", flat=True))
    assert numbers == [1, 2, 5]
    assert set(other.entries.values_list("player__category", flat=True)) == {"ladies"}


def test_import_needs_an_organizer(client, referee, tournament):
    client.force_login(referee)
    response = upload(client, tournament, workbook([[1, "A", "B", "", "", ""]]))
    assert response.status_code == 403
    assert Entry.objects.count() == 0


def test_the_exported_player_list_reimports_unchanged(organizer_client, tournament):
    """Start numbers, names, clubs, towns, categories and teams come back
    as they were; the export's own columns (anwesend, abgemeldet) are left
    aside."""
    from tournament.models import Team

    team = Team.objects.create(tournament=tournament, name="Asse Daun")
    for n, category in ((3, "ladies"), (5, "seniors"), (8, "youth"), (9, "open")):
        entry = EntryFactory(
            tournament=tournament,
            start_number=n,
            player__category=category,
            player__club="Schrämfreunde Daun",
            player__town="Daun-Weiersbach",
            checked_in=n == 3,
        )
        if n in (3, 5):
            entry.team = team
            entry.save()

    def players(of):
        return sorted(
            of.entries.values_list(
                "start_number",
                "player__first_name",
                "player__last_name",
                "player__club",
                "player__town",
                "player__category",
                "team__name",
            )
        )

    url = reverse("tournament:entry_export", kwargs={"slug": tournament.slug})
    content = organizer_client.get(url).content
    other = TournamentFactory(slug="neu")
    response = upload(organizer_client, other, content)
    preview = response.context["preview"]
    assert preview.ok, [(r.line, r.errors) for r in preview.rows]
    assert {c.header: c.field for c in preview.mapping} == {
        "Startnummer": "start_number",
        "Vorname": "first_name",
        "Nachname": "last_name",
        "Verein": "club",
        "Ort": "town",
        "Kategorie": "category",
        "Mannschaft": "team",
        "anwesend": None,
        "abgemeldet": None,
    }
    confirm = reverse("tournament:import_confirm", kwargs={"slug": other.slug})
    organizer_client.post(confirm, import_confirmation(response))
    assert players(other) == players(tournament)
    event = AuditEvent.objects.get(action="entry.import", tournament=other)
    assert event.after["teams"] == {"Asse Daun": [3, 5]}
    protocol = organizer_client.get(
        reverse("tournament:audit_log", kwargs={"slug": other.slug})
    )
    assert protocol.status_code == 200
