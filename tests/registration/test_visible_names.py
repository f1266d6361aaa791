"""Names keep no invisible or direction-changing characters (issue 15.8):
"Anna\u202egnp.exe" prints as "Annaexe.png", and a name of nothing but
zero-width spaces looks empty on every list."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.support.workbooks import xlsx
from tournament.core.text import visible_text
from tournament.models import Entry, Team, Tournament

pytestmark = pytest.mark.django_db

RLO = "\u202e"  # right-to-left override
ZWSP = "\u200b"  # zero-width space


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        (f"Anna{RLO}gnp.exe", "Annagnp.exe"),
        (f"{ZWSP}Jöbges{ZWSP}", "Jöbges"),
        ("Jo\u0308bges", "Jöbges"),  # o + combining diaeresis: one form
        ("Müller  -\tLüdenscheidt ", "Müller - Lüdenscheidt"),
        (f"{ZWSP}\u2066\u2069\ufeff", ""),
        ("Ĳssel O'Brien-Łukasz", "Ĳssel O'Brien-Łukasz"),
    ],
)
def test_visible_text(typed, kept):
    assert visible_text(typed) == kept


def desk(client, tournament, **fields):
    data = {"first_name": "Anna", "last_name": "Weber", "category": "open"}
    data.update(fields)
    url = reverse("tournament:entry_create", kwargs={"slug": tournament.slug})
    return client.post(url, data)


def test_the_desk_keeps_the_name_people_see(organizer_client, tournament):
    desk(organizer_client, tournament, first_name=f"Anna{RLO}gnp.exe")
    assert Entry.objects.get().player.first_name == "Annagnp.exe"


def test_a_name_of_invisible_characters_is_refused_beside_its_field(
    organizer_client, tournament
):
    page = desk(organizer_client, tournament, last_name=ZWSP * 3)
    assert page.status_code == 200
    assert "nur aus unsichtbaren Zeichen" in page.content.decode()
    assert not Entry.objects.exists()


def test_teams_and_tournaments_too(organizer_client, tournament):
    url = reverse("tournament:team_create", kwargs={"slug": tournament.slug})
    page = organizer_client.post(url, {"name": ZWSP})
    assert "nur aus unsichtbaren Zeichen" in page.content.decode()
    organizer_client.post(url, {"name": f"Die{RLO} Asse"})
    assert Team.objects.get().name == "Die Asse"
    edit = reverse("tournament:tournament_edit", kwargs={"slug": tournament.slug})
    page = organizer_client.get(edit)
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v not in (None, False)}
    data.update(name=f"RM{RLO} 2026", referees=[])
    organizer_client.post(edit, data)
    assert Tournament.objects.get(pk=tournament.pk).name == "RM 2026"


def test_the_player_import_keeps_visible_names(organizer_client, tournament):
    content = xlsx(
        [[f"Anna{RLO}gnp.exe", f"{ZWSP}Weber"]], header=["Vorname", "Nachname"]
    )
    url = reverse("tournament:import_upload", kwargs={"slug": tournament.slug})
    page = organizer_client.post(url, {"file": SimpleUploadedFile("s.xlsx", content)})
    assert "Annagnp.exe" in page.content.decode()
    assert RLO not in page.content.decode()
