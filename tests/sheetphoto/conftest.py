import pytest

from tests.support.factories import make_series
from tests.support.results import RESULTS
from tests.support.sheetphotos import sheet_photo
from tournament.models import Table


@pytest.fixture
def photo_table(tournament, var_dir):
    """Series 1 released, tables 1 (start numbers 1–4) and 2 (5–8) of four,
    entry at the table on; photos kept under the test's own VAR_DIR."""
    tournament.table_entry = "one"
    tournament.save()
    series = make_series(tournament, sizes=(4, 4))
    return Table.objects.get(series=series, number=1)


@pytest.fixture
def other_table(photo_table):
    return Table.objects.get(series=photo_table.series, number=2)


# Table 1's games (winner seat, marks kept); game 3 is kept wrong on its
# sheet, so the reader flags it.
GAMES = RESULTS[1]
UNSURE = 3


@pytest.fixture
def photo(photo_table):
    """A phone's photo of table 1's sheet, game 3 unsure."""
    return sheet_photo(photo_table, GAMES, seed=2, unsure=UNSURE)
