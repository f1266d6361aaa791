"""Results as the tests enter them: the five games most tests use, entering
and confirming a table through the result services, the quick entry form a
referee's browser posts, and a series with every table's result confirmed."""

from collections.abc import Iterable, Sequence
from typing import Any

from tests.support.factories import make_series
from tournament.models import AuditEvent, GameScore, ResultVersion, Table
from tournament.results.services import GameInput, result_confirm, result_enter
from tournament.tableentry.services import result_enter_by_player


def games(pairs: Iterable[tuple[int, int]]) -> list[GameInput]:
    """Quick-entry games from (winner seat, marks kept) pairs."""
    return [GameInput(winner=w, marks=m) for w, m in pairs]


# Five games of a table of four, as (winner seat, marks kept). With 7 marks
# and a bonus of 7: seat 1 wins games 1 and 3 (12 + 14 = 26 points), seat 2
# game 2 (10), seat 4 game 4 (8), seat 3 game 5 (9).
FIVE_PAIRS = [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)]
FIVE = games(FIVE_PAIRS)

# Series 1 of `seated_with_results`, per table: the five games.
RESULTS = {
    1: FIVE_PAIRS,
    2: [(4, 2), (4, 6), (2, 1), (1, 4), (3, 7)],
    3: [(3, 1), (1, 2), (2, 5), (3, 3), (1, 6)],  # a table of three
}


def enter(
    table: Table, actor: Any, games: Sequence[GameInput] = FIVE, **kwargs: Any
) -> ResultVersion:
    """`actor` enters the table's games quickly, at its current revision
    (further keywords, e.g. `reason`, go to `result_enter`)."""
    table.refresh_from_db()
    return result_enter(
        actor=actor,
        table=table,
        games=games,
        mode="quick",
        revision=table.result_revision,
        **kwargs,
    )


def player_enters(
    world: Any,
    number: int,
    games_: Sequence[GameInput] = FIVE,
    table: Table | None = None,
) -> ResultVersion:
    """The player with start number `number` of the `at_table` world
    (tests/tableentry/conftest.py) enters the games of his table (table 1
    unless `table`) from his phone, quickly, at its current revision."""
    table = table or world.t1
    table.refresh_from_db()
    return result_enter_by_player(
        player=world.p[number],
        table=table,
        games=games_,
        mode="quick",
        revision=table.result_revision,
    )


def confirm(version: ResultVersion, actor: Any) -> None:
    """`actor` confirms a waiting version at its table's current revision."""
    version.table.refresh_from_db()
    result_confirm(actor=actor, version=version, revision=version.table.result_revision)


def results_written() -> tuple[int, int, int]:
    """What a result save writes, counted: versions, game scores and
    result audit rows (equal before and after: nothing was written)."""
    return (
        ResultVersion.objects.count(),
        GameScore.objects.count(),
        AuditEvent.objects.filter(action__startswith="result").count(),
    )


def quick_form(
    games: Sequence[GameInput], *, revision: int, **fields: Any
) -> dict[str, Any]:
    """The fields a referee's browser posts for these games in the quick
    entry form (further fields, e.g. `reason`, as given)."""
    data: dict[str, Any] = {"mode": "quick", "revision": revision, **fields}
    for number, game in enumerate(games, 1):
        data[f"g{number}_winner"] = str(game.winner)
        data[f"g{number}_marks"] = str(game.marks)
    return data


def seated_with_results(tournament, actor, *, confirm=(1, 2, 3)):
    """Series 1 with tables of 4, 4 and 3; the given tables' RESULTS entered
    and confirmed through the result service."""
    series = make_series(tournament, sizes=(4, 4, 3))
    for number in confirm:
        table = Table.objects.get(series=series, number=number)
        result_enter(
            actor=actor,
            table=table,
            games=games(RESULTS[number]),
            mode="quick",
            revision=table.result_revision,
            auto_confirm=True,
        )
    return series
