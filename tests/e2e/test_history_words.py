"""The history pages as a phone (360 px) and the laptop (1366 px) show
them, in Chromium: a person's points per series are explained where they
are shown (the phone's line under the tournament says what its numbers
are; the legend of the laptop's S1, S2 … columns goes with the columns),
and a champion's club is not followed by a bare link "Tabelle"."""

import re

import pytest
from django.core.cache import cache

from tests.history.helpers import person, played

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": 360, "laptop": 1366}


@pytest.fixture
def years():
    cache.clear()
    anna = person("Anna Jöbges", "Eifeler Schrämer Cochem")
    bernd = person("Bernd Thelen", "KSC Mayen")
    played(
        [(anna, 130), (bernd, 121)],
        year=2024,
        series=[[30, 25, 25, 25, 25], [21, 25, 25, 25, 25]],
        name="Rheinland-Meisterschaft 2024",
    )
    return anna


@pytest.mark.parametrize("size", SIZES)
def test_the_person_page_explains_its_series_points_where_they_show(
    live_server, browser, shot, years, size
):
    context = browser.new_context(
        viewport={"width": SIZES[size], "height": 800}, locale="de-DE"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/personen/{years.pk}/")
    shot(page, f"person-{size}")
    legend = page.get_by_text("S1, S2 …: Punkte je Serie.")
    inline = page.locator(".series-inline")
    if size == "phone":
        assert inline.is_visible()
        assert re.match(r"Punkte je Serie: [–\d]", inline.inner_text())
        assert not legend.is_visible()
        assert not page.get_by_role("columnheader", name="S1").is_visible()
    else:
        assert not inline.is_visible()
        assert legend.is_visible()
        assert page.get_by_role("columnheader", name="S1").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_champions_table_link_says_whose_table_it_is(
    live_server, browser, shot, years, size
):
    context = browser.new_context(
        viewport={"width": SIZES[size], "height": 800}, locale="de-DE"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/meister/")
    shot(page, f"champions-{size}")
    row = page.locator(".champions-list tbody tr").first
    assert "Eifeler Schrämer Cochem" in row.inner_text()
    assert "· Tabelle" not in row.inner_text()
    link = row.get_by_role("link", name=re.compile(r"^Tabelle: Rheinland"))
    assert link.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]
    context.close()
