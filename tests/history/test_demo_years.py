"""The issue's acceptance run: two demo years with the same players are 40
persons with two tournaments each, and two champions."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_two_demo_years_are_the_same_forty_persons(client):
    for slug, date in (("a", "2025-12-13"), ("b", "2026-12-12")):
        out = StringIO()
        call_command(
            "demo",
            "--slug",
            slug,
            "--date",
            date,
            "--players",
            "40",
            "--seed",
            "7",
            "--complete",
            "5",
            stdout=out,
        )
        assert "(the final standings)" in out.getvalue()
    # Every person who played: the two who never arrive did not.
    persons = client.get(reverse("tournament:api_persons")).json()["persons"]
    assert len(persons) == 38
    assert {p["tournaments"] for p in persons} == {2}
    champions = client.get(reverse("tournament:api_champions")).json()["champions"]
    # Seating is drawn by lot, so an equal first place (two champions of one
    # year, as the rules allow) can happen; each year is there, newest first.
    years = [(c["year"], c["slug"]) for c in champions]
    assert list(dict.fromkeys(years)) == [(2026, "b"), (2025, "a")]
    # The demo's season ranking: the two who never arrive have no result.
    rows = client.get(reverse("tournament:api_ranking", args=["demo-wertung"]))
    assert len(rows.json()["rows"]) == 38
