"""One "Stand": the printed standings and the page count the same series
and tables, from the standings' own state, whatever else is drawn."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import EntryFactory, make_series
from tests.support.pdf import needs_pdftotext, pdf_pages_text
from tests.support.results import FIVE
from tournament.models import Table
from tournament.paper import pdf
from tournament.results.services import result_enter

pytestmark = pytest.mark.django_db


def confirm_all(series, actor):
    for table in Table.objects.filter(series=series):
        result_enter(
            actor=actor,
            table=table,
            games=FIVE,
            mode="quick",
            revision=table.result_revision,
            auto_confirm=True,
        )


@pytest.fixture
def two_played_third_drawn(tournament, organizer, django_capture_on_commit_callbacks):
    """Series 1 and 2 confirmed (two tables each), series 3 drawn but not
    released (two tables, nothing entered)."""
    entries = [
        EntryFactory(tournament=tournament, start_number=n, checked_in=True)
        for n in range(1, 9)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for number in (1, 2):
            series = make_series(tournament, (4, 4), number=number, entries=entries)
            confirm_all(series, organizer)
        make_series(tournament, (4, 4), number=3, status="seated", entries=entries)
    return tournament


def flat(text):
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


@needs_pdftotext
def test_the_pdf_and_the_page_show_the_same_stand(client, two_played_third_drawn):
    tournament = two_played_third_drawn
    page = flat(
        client.get(
            reverse("tournament:standings", kwargs={"slug": tournament.slug})
        ).content.decode()
    )
    stand = "Stand nach Serie 2 · 2 von 2 Tischen bestätigt"
    assert stand in page
    document = pdf.standings_pdf(tournament=tournament)
    printed = " ".join(" ".join(pdf_pages_text(document.content)).split())
    assert stand in printed
    # The drawn series 3 is no part of the state: not "4 von 6".
    assert "von 6" not in printed
    assert "VORLÄUFIG – der Endstand steht nach 5 Serien fest." in printed
