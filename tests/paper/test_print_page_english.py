"""The print page in English counts a series' tables in English: "Series 1
(2 tables)", not "Series 1 (2 Tables)" (a capitalised German noun put
word for word), and one table is "1 table"."""

import re

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("var_dir")]


def options(client, tournament) -> list[str]:
    page = client.get(reverse("tournament:paper", args=[tournament.slug]))
    return [
        " ".join(o.split())
        for o in re.findall(r"<option[^>]*>([^<]*)</option>", page.content.decode())
    ]


def test_the_series_choice_counts_tables_in_english(
    organizer_client, tournament, scored_series
):
    organizer_client.cookies["django_language"] = "en"
    tables = scored_series.tables.count()
    shown = options(organizer_client, tournament)
    assert f"Series 1 ({tables} tables)" in shown, shown
    assert not any("Tables" in o for o in shown)


def test_and_in_german(organizer_client, tournament, scored_series):
    tables = scored_series.tables.count()
    assert f"Serie 1 ({tables} Tische)" in options(organizer_client, tournament)
