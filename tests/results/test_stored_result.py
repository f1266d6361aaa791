"""A table's result is kept as the record docs/FORMATS.md § Stored games
describes, whether entered quickly or as a sheet, and read
back through its type: every game's keys are among those `StoredGame`
declares, the required ones always there."""

import json

import pytest

from tests.support.factories import TournamentFactory, make_series
from tests.support.results import FIVE_PAIRS, enter, games
from tests.support.servers import ROOT
from tournament.models import ResultVersion, Table
from tournament.models.results import StoredGame, StoredResult
from tournament.results.services import GameInput, result_enter

pytestmark = pytest.mark.django_db

REQUIRED = StoredGame.__required_keys__
DECLARED = REQUIRED | StoredGame.__optional_keys__


def kept(version: ResultVersion) -> ResultVersion:
    return ResultVersion.objects.get(pk=version.pk)


@pytest.fixture
def table(referee):
    tournament = TournamentFactory(double_entry=False)
    series = make_series(tournament, sizes=(4,))
    return Table.objects.get(series=series, number=1)


def check(version: ResultVersion) -> None:
    assert set(version.data) <= set(StoredResult.__annotations__)
    for game in version.games:
        assert REQUIRED <= set(game) <= DECLARED, game


def test_a_quick_entry_keeps_winner_marks_and_points(table, referee):
    version = kept(enter(table, referee, games(FIVE_PAIRS)))
    check(version)
    assert [(g["winner"], g["marks"]) for g in version.games] == FIVE_PAIRS
    assert [g.get("points") for g in version.games] == [12, 10, 14, 8, 9]
    assert not any("hands" in g for g in version.games)


def test_a_sheet_entry_keeps_its_lines_as_well(table, referee):
    # Seat 4 deals, so seat 1 leads; one hand at value 7 costs everyone else
    # all 7 marks: seat 1 wins each game keeping all of his.
    line = {"sheet": {"value": 7, "folded": {}, "winner": 1}}
    sheet = [GameInput(hands=(line,)) for _ in range(5)]
    table.refresh_from_db()
    version = kept(
        result_enter(
            actor=referee,
            table=table,
            games=sheet,
            mode="sheet",
            revision=table.result_revision,
        )
    )
    check(version)
    assert [(g["winner"], g["marks"], g["hands"]) for g in version.games] == [
        (1, 7, [line])
    ] * 5


def test_the_formats_page_shows_a_stored_result_of_this_shape():
    page = (ROOT / "docs/FORMATS.md").read_text(encoding="utf-8")
    section = page.split("## Stored games", 1)[1].split("\n## ", 1)[0]
    example = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    assert set(example) <= set(StoredResult.__annotations__)
    for game in example["games"]:
        assert REQUIRED <= set(game) <= DECLARED, game
