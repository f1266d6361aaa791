"""The progress of the tables: counts read as German (one table, one
waiting entry), and the legend shows colours, not numbers a volunteer
would take for tables."""

import re

import pytest

from tests.support.factories import make_series
from tests.support.results import enter
from tournament.live.fragments import FRAGMENTS, FragmentKey, region
from tournament.models import Table

pytestmark = pytest.mark.django_db


def html_of(tournament, name):
    html = region(tournament, FragmentKey(FRAGMENTS[name], {}), "de").html
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()), html


def test_one_waiting_entry_is_singular(tournament, referee):
    series = make_series(tournament, sizes=(4, 4))
    enter(Table.objects.get(series=series, number=1), referee)
    text, _html = html_of(tournament, "progress")
    assert "0 von 2 Tischen bestätigt · 1 wartet auf Bestätigung" in text


def test_one_table_is_singular_too(tournament, referee):
    series = make_series(tournament, sizes=(4,))
    enter(Table.objects.get(series=series, number=1), referee)
    text, _html = html_of(tournament, "progress")
    assert "0 von 1 Tisch bestätigt · 1 wartet auf Bestätigung" in text
    text, _html = html_of(tournament, "progress-public")
    assert "0 von 1 Tisch fertig" in text


def test_the_legend_shows_colours_not_table_numbers(tournament):
    make_series(tournament, sizes=(4, 4))
    text, html = html_of(tournament, "progress")
    legend = html[html.index('<ul class="chip-legend') : html.index("</ul>")]
    assert re.findall(r'class="chip-swatch swatch-(\w+)"', legend) == [
        "missing",
        "pending",
        "confirmed",
    ]
    assert not re.search(r">\s*\d+\s*<", legend)  # no number in a square
    assert "fehlt wartet auf Bestätigung bestätigt" in text
    # The projector's view has no waiting entries to explain.
    _text, public = html_of(tournament, "progress-public")
    assert "chip-legend" not in public
