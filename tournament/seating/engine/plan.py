"""The table plan: how many tables of four and of three a field needs."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SeatingError


@dataclass(frozen=True)
class TablePlan:
    """Tables of one series: ``fours`` tables of 4 and ``threes`` tables of 3."""

    players: int
    fours: int
    threes: int

    @property
    def tables(self) -> int:
        return self.fours + self.threes

    @property
    def sizes(self) -> list[int]:
        """Table sizes in table order: the tables of 4 first."""
        return [4] * self.fours + [3] * self.threes

    def three_bound(self, series: int) -> int:
        """The fewest 3-table sittings the unluckiest player can be held to.

        ``series * threes`` tables of 3 have ``3 * series * threes`` seats, so
        somebody sits at ⌈that / players⌉ of them; a good seating reaches it.
        """
        return -(-3 * series * self.threes // self.players)


def table_plan(players: int) -> TablePlan:
    """As many tables of 4 as possible; tables of 3 only as arithmetic forces.

    N ≡ 0, 3, 2, 1 (mod 4) gives 0, 1, 2, 3 tables of 3. Raises
    :class:`SeatingError` for fields no series can seat (fewer than 3, or 5).
    """
    if players < 3:
        raise SeatingError(
            "too_few_players",
            f"{players} players cannot fill a table; at least 3 are needed.",
            players=players,
        )
    if players == 5:
        raise SeatingError(
            "five_players",
            "5 players cannot be split into tables of 3 and 4.",
            players=players,
        )
    threes = -players % 4
    return TablePlan(players, (players - 3 * threes) // 4, threes)
