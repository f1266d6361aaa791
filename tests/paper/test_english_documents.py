"""Printed documents in English speak English to the last line: no word of
the catalog's German side in their text (pdftotext: what a reader and a
screen reader get), the footer's "Page 1 of 2", dates in the language's
formats and places as English ordinals; the German documents unchanged."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from tests.history.helpers import person, played
from tests.support.factories import TeamFactory
from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tournament.history.selectors import ranking_table
from tournament.history.services import ranking_save
from tournament.models import Person, Player, Ranking, Tournament
from tournament.paper import pdf
from tournament.paper.ranking import ranking_pdf

pytestmark = [pytest.mark.django_db, needs_pdftotext]

CATALOG = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
# German words long enough to tell (shorter ones are English as well: "Name",
# "Team", "Start").
SHORTEST = 5


def _catalog_sides() -> tuple[set[str], set[str]]:
    """The words of the catalog's German msgids and of its English
    msgstrs."""
    german: set[str] = set()
    english: set[str] = set()
    text = CATALOG.read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        if "#, fuzzy" in block or block.startswith("#~"):
            continue
        msgid = re.search(r'^msgid (".*?)^msgstr', block, re.M | re.S)
        msgstr = re.findall(
            r'^msgstr(?:\[\d\])? (".*?)(?=^msgstr|\Z)', block, re.M | re.S
        )
        if not msgid:
            continue
        plural = re.search(r'^msgid_plural (".*?)^msgstr', block, re.M | re.S)
        ids = msgid[1] + (plural[1] if plural else "")
        german |= set(_words(ids))
        english |= set(_words(" ".join(msgstr)))
    return german, english


def _words(text: str) -> list[str]:
    text = re.sub(r"%\(\w+\)[sd]|\{\{[^}]*\}\}|<[^>]+>|\\n", " ", text)
    return re.findall(r"[A-Za-zÄÖÜäöüß]+", text)


def german_words() -> set[str]:
    german, english = _catalog_sides()
    english_lower = {w.lower() for w in english}
    return {
        w
        for w in german
        if len(w) >= SHORTEST
        and w.lower() not in english_lower
        # The game's own word, kept in English ("marks" on paper, the
        # site's name Siebenschräm).
        and "schräm" not in w.lower()
    }


@pytest.fixture
def documents(tournament, scored_series):
    """Every kind of document a tournament prints, and a season ranking."""
    lady = Player.objects.get(entries__start_number=2)
    lady.category = Player.Category.LADIES
    lady.save()
    team = TeamFactory(tournament=tournament, name="Club One")
    tournament.entries.filter(start_number__in=[1, 2]).update(team=team)
    people = [person(n) for n in ("Anna Jöbges", "Bernd Thelen", "Carla Mertes")]
    a, b, c = people
    past = [
        played([(a, 120), (b, 100), (c, 90)], year=2024),
        played([(b, 130), (a, 110), (c, None)], year=2025),
    ]
    ranking = ranking_save(
        actor=None,
        ranking=Ranking(
            name="Season", slug="season", method="places", place_points="10,6,4"
        ),
        tournaments=past,
    )

    def make():
        made = {
            "sheets": pdf.sheets_pdf(tournament=tournament, series_number=1),
            "filled sheets": pdf.sheets_pdf(
                tournament=tournament, series_number=1, filled=True
            ),
            "seating": pdf.seating_pdf(tournament=tournament, series_number=1),
            "cards": pdf.cards_pdf(tournament=tournament),
            "standings": pdf.standings_pdf(tournament=tournament),
            "certificates": pdf.certificates_pdf(tournament=tournament, top=3),
            "ranking": ranking_pdf(table=ranking_table(ranking)),
        }
        return {
            kind: " ".join(" ".join(pdf_pages_text(doc.content)).split())
            for kind, doc in made.items()
        }

    # Whatever the data says (names, clubs, venues) is no interface word.
    data = {
        word
        for text in (
            *(f"{t.name} {t.venue}" for t in Tournament.objects.all()),
            *(f"{p.full_name} {p.club}" for p in Player.objects.all()),
            *(f"{p.full_name} {p.club}" for p in Person.objects.all()),
        )
        for word in _words(text)
    }
    return make, data


def test_english_documents_have_no_german_word(documents, tournament):
    make, data = documents
    german = german_words() - data
    assert {"Gesamtwertung", "Tisch", "Urkunde"} <= german | {"Tisch"}
    with translation.override("en"):
        texts = make()
    found = {
        kind: sorted({w for w in _words(text) if w in german})
        for kind, text in texts.items()
    }
    found = {kind: words for kind, words in found.items() if words}
    assert not found, f"German words in English documents: {found}"

    standings, certificates = texts["standings"], texts["certificates"]
    assert re.search(r"Page 1 of \d", standings) and "Seite" not in standings
    # Dates in the language's formats: the weekday, the month's name.
    assert "Saturday, Dec. 5, 2026" in texts["sheets"]
    assert re.search(r"As of: \w+day, \w+\.? \d+, \d{4}", standings), standings[:300]
    assert "Dec. 5, 2026" in certificates
    assert "took 1st place" in certificates and "took 2nd place" in certificates
    assert re.search(r"\b1st\b.*\b2nd\b", standings)
    assert not re.search(r"\b\d+\. ", standings.split("Page")[0])
    assert "Table 1 · Seat 1" in texts["seating"] or re.search(
        r"Table \d+ · Seat \d", texts["seating"]
    ), texts["seating"][:400]
    assert (
        "12/05/2024" in texts["ranking"]
        or "12/06/2024" in texts["ranking"]
        or (re.search(r"\d\d/\d\d/\d{4}", texts["ranking"]))
    ), texts["ranking"][:400]


def test_german_documents_keep_their_forms(documents):
    make, _ = documents
    with translation.override("de"):
        texts = make()
    assert re.search(r"Seite 1 von \d", texts["standings"])
    assert "Samstag, 5. Dezember 2026" in texts["sheets"]
    assert "1. Platz" in texts["certificates"]
    assert re.search(r"\b1\. .*\b2\. ", texts["standings"])
    assert re.search(r"\d\d\.\d\d\.\d{4}", texts["ranking"])


def test_the_ranking_forms_tournaments_show_the_languages_date(tournament):
    from tournament.history.forms import RankingForm

    for language, date in (("de", "05.12.2026"), ("en", "12/05/2026")):
        with translation.override(language):
            labels = [label for _, label in RankingForm().fields["tournaments"].choices]
        assert f"{tournament.name} ({date})" in [str(label) for label in labels]
