"""Rule sets: one frozen dataclass, one documented field per rule (docs/RULES.md §9).

The championship (docs/RULES.md §1-§8) is the default.  Regional variants change
only the fields listed in their preset; rules the engine does not model (the
four-court exchange, who deals after a game) are noted on the preset.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules a hand or game is played by.  Immutable; compare by value."""

    name: str
    """Preset name, written into records (``"championship"``)."""

    start_marks: int = 7
    """Marks each player starts a game with (§7)."""

    min_seats: int = 3
    """Fewest players at a table (§8: tables of 3 occur)."""

    max_seats: int = 4
    """Most players at a table; 4 cards each must fit the 32-card pack."""

    max_value: int = 7
    """Highest value a hand can be knocked to (§4 rule 3)."""

    knock_over_marks: int = 0
    """How far above its own marks a player may knock (§4 rule 4; Schröm: 1)."""

    two_marks_knock_three: bool = True
    """A player with exactly 2 marks may knock to 3 (§4 rule 4 exception)."""

    max_blind_knocks: int = 3
    """Blind knocks allowed per hand (§5); 0 forbids knocking blind."""

    hammer_knocks: bool = True
    """A player with 1 mark must open the hand with a blind knock to 2 (§6)."""

    hammer_knock_is_blind: bool = True
    """The hammer's compulsory knock counts towards ``max_blind_knocks`` (§5).

    Siwwe Ström makes the hand "automatically worth 2" instead, which is no
    player's blind knock.
    """

    winner_bonus: int = 7
    """Game points for the winner on top of one per mark left (§8)."""

    marks_count_up: bool = False
    """The table chalks marks lost, counting up to ``start_marks``, instead of
    marks left.  Presentation only: the engine always computes in marks left;
    see :meth:`tally`."""

    def __post_init__(self) -> None:
        # The engine packs seats and values into small bit fields.
        if not 2 <= self.min_seats <= self.max_seats <= 8:
            raise ValueError("seats must satisfy 2 <= min_seats <= max_seats <= 8")
        if not 1 <= self.max_value <= 15:
            raise ValueError("max_value must be 1-15")
        if not 1 <= self.start_marks <= 99:
            raise ValueError("start_marks must be 1-99")
        if min(self.knock_over_marks, self.max_blind_knocks, self.winner_bonus) < 0:
            raise ValueError("counts cannot be negative")

    def knock_cap(self, marks: int) -> int:
        """Return the highest value a player holding ``marks`` may knock to.

        Combines §4 rules 3 and 4; the hammer's compulsory knock is the
        engine's separate exception.
        """
        cap = marks + self.knock_over_marks
        if self.two_marks_knock_three and marks == 2:
            cap = max(cap, 3)
        return min(cap, self.max_value)

    def tally(self, marks_left: int) -> int:
        """Return the number the table chalks for a player with ``marks_left``."""
        return self.start_marks - marks_left if self.marks_count_up else marks_left


CHAMPIONSHIP = RuleSet(name="championship")

#: Schröm (Wipperfürth): 2-8 players, knock up to marks + 1.  Not modelled: the
#: optional four-court exchange.
SCHROEM = RuleSet(name="schroem", min_seats=2, max_seats=8, knock_over_marks=1)

#: Siwwe Ström / Sibbeschröm: marks count up from 0, out at 7; at 6 the hand
#: is automatically worth 2 and unwilling opponents pay 1 before the hand
#: (the engine's hammer knock, not counted as a blind knock).  Not modelled:
#: the secret four-court exchange.
SIWWE_STROEM = RuleSet(
    name="siwwe_stroem", marks_count_up=True, hammer_knock_is_blind=False
)

#: Marienheide: 5 marks, 2-5 players.  Not modelled: after a game the previous
#: loser deals first (the caller chooses each game's first dealer).
MARIENHEIDE = RuleSet(name="marienheide", start_marks=5, min_seats=2, max_seats=5)

PRESETS: dict[str, RuleSet] = {
    rules.name: rules for rules in (CHAMPIONSHIP, SCHROEM, SIWWE_STROEM, MARIENHEIDE)
}


def get_rules(name: str = "championship") -> RuleSet:
    """Return the preset called ``name``; raise KeyError naming the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise KeyError(f"unknown rule set {name!r} (known: {known})") from None


def points_for_game(marks_left: int, rules: RuleSet = CHAMPIONSHIP) -> int:
    """Return a player's game points: marks left + bonus for the winner, else 0.

    The winner is the only player still holding marks when a game ends, so
    ``marks_left > 0`` identifies it (docs/RULES.md §8: 8 to 14 in the championship).
    """
    return marks_left + rules.winner_bonus if marks_left > 0 else 0
