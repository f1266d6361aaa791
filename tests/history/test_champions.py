"""The champions: a championship's winner once its standings are final,
earlier years from an imported workbook (previewed, all or nothing), the
all-time records, and the champions' JSON."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.history.helpers import person, played
from tests.support.workbooks import xlsx
from tournament.history.selectors import champions_page
from tournament.models import AuditEvent, PastChampion, TieBreak

pytestmark = pytest.mark.django_db

HEADER = ["Jahr", "Name", "Verein", "Punkte"]


@pytest.fixture
def anna():
    return person("Anna Jöbges")


@pytest.fixture
def bernd():
    return person("Bernd Thelen", "KSC Mayen")


def test_a_final_championship_names_its_winner(anna, bernd):
    played([(anna, 130), (bernd, 121)], year=2025)
    played([(anna, 110), (bernd, 140)], year=2026, finished=False)  # running
    played([(anna, 150), (bernd, 100)], year=2024, championship=False)
    (champion,) = champions_page().champions
    assert (champion.year, champion.name, champion.points) == (2025, "Anna Jöbges", 130)
    assert champion.person_id == anna.pk


def test_equal_first_places_are_both_champions_until_decided(anna, bernd):
    t = played([(anna, 130), (bernd, 130)], year=2025)
    assert [c.shared for c in champions_page().champions] == [True, True]
    TieBreak.objects.create(tournament=t, method="playoff", order=[2, 1])
    t.has_tiebreaks = True
    t.save(update_fields=["has_tiebreaks"])
    from django.core.cache import cache

    cache.clear()
    (champion,) = champions_page().champions
    assert champion.name == "Bernd Thelen"


def test_the_played_year_wins_over_the_imported_one_and_records(anna, bernd):
    played(
        [(anna, 130), (bernd, 121)],
        year=2025,
        series=[[30, 20, 20, 30, 30], [33, 22, 22, 22, 22]],
    )
    PastChampion.objects.create(year=2025, name="Jemand Anders", points=200)
    PastChampion.objects.create(year=1999, name="Anna Jöbges", points=131, person=anna)
    PastChampion.objects.create(year=1982, name="Karl Kaiser", club="SC Ulmen")
    page = champions_page()
    assert [(c.year, c.name) for c in page.champions] == [
        (2025, "Anna Jöbges"),
        (1999, "Anna Jöbges"),
        (1982, "Karl Kaiser"),
    ]
    assert page.most_titles == [("Anna Jöbges", "Schrämclub Daun", [1999, 2025])]
    assert page.best_total.value == 131
    assert page.best_series.value == 33
    assert page.best_series.holders == (("Bernd Thelen", 2025, 1),)


def test_champions_page_and_api(client, anna, bernd):
    played([(anna, 130), (bernd, 121)], year=2025)
    PastChampion.objects.create(year=1982, name="Karl Kaiser", club="SC Ulmen")
    page = client.get(reverse("tournament:champions")).content.decode()
    assert "Anna Jöbges" in page and "Karl Kaiser" in page and "Rekorde" in page
    data = client.get(reverse("tournament:api_champions")).json()
    assert data == {
        "champions": [
            {
                "year": 2025,
                "name": "Anna Jöbges",
                "club": "Schrämclub Daun",
                "points": 130,
                "slug": data["champions"][0]["slug"],
            },
            {
                "year": 1982,
                "name": "Karl Kaiser",
                "club": "SC Ulmen",
                "points": None,
                "slug": None,
            },
        ]
    }
    assert data["champions"][0]["slug"]


def test_champions_queries_do_not_grow_with_the_years(
    client, django_assert_max_num_queries, anna, bernd
):
    def count():
        from django.core.cache import cache
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("tournament:api_champions")).status_code == 200
        return len(queries)

    played([(anna, 130), (bernd, 121)], year=2020)
    few = count()
    for year in range(2000, 2012):
        others = [(person(f"Gast Nummer{year}{i}"), 50 + i) for i in range(10)]
        played([(anna, 100 + year % 7), (bernd, 90), *others], year=year)
    assert count() == few


# --- The import ---------------------------------------------------------------


def upload(client, content, name="meister.xlsx"):
    return client.post(
        reverse("tournament:champions_import"),
        {"file": SimpleUploadedFile(name, content)},
    )


def test_import_previews_then_replaces_the_list_on_confirmation(organizer_client, anna):
    PastChampion.objects.create(year=1990, name="Alt Eintrag")
    content = xlsx(
        [
            [1982, "Karl Kaiser", "SC Ulmen", 118],
            [1983, "Jöbges, Anna", "Schrämclub Daun", None],
            [1984, "Hans Müller", "", 120],
        ],
        header=HEADER,
    )
    response = upload(organizer_client, content)
    text = response.content.decode()
    assert "3 Meister bereit zum Import" in text
    assert "ersetzt den bisher importierten Meister" in text
    assert "Verknüpft mit Anna Jöbges" in text
    assert PastChampion.objects.count() == 1  # nothing written yet
    confirm = reverse("tournament:champions_import_confirm")
    response = organizer_client.post(
        confirm, {"token": response.context["token"]}, follow=True
    )
    assert "3 Meister importiert" in response.content.decode()
    assert sorted(PastChampion.objects.values_list("year", "name")) == [
        (1982, "Karl Kaiser"),
        (1983, "Anna Jöbges"),
        (1984, "Hans Müller"),
    ]
    assert PastChampion.objects.get(year=1983).person == anna
    event = AuditEvent.objects.get(action="champions.import")
    assert event.before == {"count": 1, "years": [1990]}
    assert event.after["years"] == [1982, 1983, 1984]
    # A preview counts once.
    response = organizer_client.post(confirm, {"token": "x"}, follow=True)
    assert "nicht mehr gültig" in response.content.decode()


def _state():
    return (
        sorted(PastChampion.objects.values_list("year", "name")),
        AuditEvent.objects.count(),
    )


@pytest.mark.parametrize(
    ("rows", "header", "messages"),
    [
        ([[1982, "Karl"]], ["Jahr", "Sieger"], ["Unbekannte Spalte „Sieger“"]),
        ([[1982, "Karl"]], ["Name", "Verein"], ["Die Spalte „Jahr“ fehlt."]),
        (
            [[1982, "Karl", "Kaiser"]],
            ["Jahr", "Name", "Nachname"],
            ["entweder „Name“ oder „Vorname“ und „Nachname“"],
        ),
        ([], HEADER, ["Das Blatt enthält keine Meister."]),
        ([], None, ["Das Blatt ist leer"]),
        (
            [
                ["neunzehn", "Karl Kaiser", "", 10],
                [1983, "", "", -3],
                [1850, "Hans", "", "viele"],
                [1984, "Anna", "", 1],
                [1984, "ANNA", "", 2],
            ],
            HEADER,
            [
                "Jahr „neunzehn“ ist keine Jahreszahl.",
                "Name fehlt.",
                "Punkte „-3“ sind keine ganze Zahl ab 0.",
                "Jahr 1850 liegt nicht zwischen 1900",
                "Punkte „viele“ sind keine ganze Zahl ab 0.",
                "ANNA steht für 1984 schon in Zeile 5.",
                "4 Zeilen haben Fehler.",
            ],
        ),
    ],
)
def test_bad_workbooks_are_refused_all_at_once_and_write_nothing(
    organizer_client, rows, header, messages
):
    PastChampion.objects.create(year=1990, name="Alt Eintrag")
    before = _state()
    response = upload(organizer_client, xlsx(rows, header=header))
    text = response.content.decode()
    for message in messages:
        assert message in text
    assert "Jetzt importieren" not in text
    assert organizer_client.session.get("champions_import") is None
    assert _state() == before


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"not a zip", "meister.xlsx", "keine lesbare Excel-Datei"),
        (xlsx([[1982, "Karl"]], header=["Jahr", "Name"]), "meister.csv", "Dateityp"),
    ],
)
def test_unreadable_files_write_nothing(organizer_client, content, name, message):
    before = _state()
    response = upload(organizer_client, content, name)
    assert message in response.content.decode()
    assert _state() == before


def test_a_year_played_on_the_site_is_a_warning_not_an_error(organizer_client, anna):
    played([(anna, 130)], year=2025)
    response = upload(organizer_client, xlsx([[2025, "Jemand", "", 99]], header=HEADER))
    text = response.content.decode()
    assert "2025 ist auf der Seite gespielt" in text
    assert "Jetzt importieren" in text
