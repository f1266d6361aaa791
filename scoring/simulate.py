"""Bot-against-bot games, for the command line and for tests.

Interrupts are offered fairly: before the seat the hand waits for acts, every
other seat with a legal look or knock is asked, clockwise from the seat after
it; the first that acts wins the moment, then the hand is asked again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from .actions import Action
from .bots import Bot, make_bots
from .game import GameState
from .hand import HandState
from .rules import CHAMPIONSHIP, RuleSet


@dataclass
class SimResult:
    """Totals of a simulation; ``wins`` per seat."""

    games: int = 0
    hands: int = 0
    wins: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The object ``python -m scoring simulate`` prints."""
        return {
            "games": self.games,
            "hands": self.hands,
            "hands_per_game": round(self.hands / self.games, 3) if self.games else 0,
            "win_rate_by_seat": {
                str(s): round(w / self.games, 4) if self.games else 0
                for s, w in sorted(self.wins.items())
            },
            "hands_per_s": round(self.hands / self.seconds) if self.seconds else 0,
        }


def play_hand(
    hand: HandState,
    bots: Mapping[int, Bot],
    apply: Callable[[Action], None] | None = None,
) -> None:
    """Let the bots play ``hand`` to its end, each seeing only its view.

    ``apply`` (default ``hand.apply``) lets a game apply the actions, so that
    it settles marks when the hand ends.
    """
    do = hand.apply if apply is None else apply
    n = hand.seats
    while True:
        move = hand.to_move()
        if move is None:
            return
        due = move[0]
        others = {a.seat for a in hand.legal_actions() if a.seat != due}
        acted = False
        for k in range(1, n):
            seat = (due + k - 1) % n + 1
            if seat in others:
                chosen = bots[seat].choose(hand.view(seat))
                if chosen is not None:
                    do(chosen)
                    acted = True
                    break
        if not acted:
            chosen = bots[due].choose(hand.view(due))
            if chosen is None:
                raise RuntimeError(f"bot of seat {due} did not act when due")
            do(chosen)


def play_game(game: GameState, bots: Mapping[int, Bot], rng: Random) -> int:
    """Deal with ``rng`` and play until the game is over; return the winner."""
    while True:
        outcome = game.outcome()
        if outcome is not None:
            return outcome.winner
        play_hand(game.deal(rng), bots, game.apply)


def simulate(
    games: int,
    seed: int,
    bots: Sequence[str] = ("random",),
    seats: int = 4,
    rules: RuleSet = CHAMPIONSHIP,
) -> SimResult:
    """Play ``games`` games in a row, each first dealt by the previous winner
    (the first by the highest seat), all chance drawn from ``seed``."""
    players = make_bots(bots, seats, seed)
    rng = Random(f"{seed}:deal")
    result = SimResult(wins={seat: 0 for seat in range(1, seats + 1)})
    dealer = seats
    started = time.perf_counter()
    for _ in range(games):
        game = GameState(seats, rules, first_dealer=dealer)
        dealer = play_game(game, players, rng)
        result.games += 1
        result.hands += len(game.detail)
        result.wins[dealer] += 1
    result.seconds = time.perf_counter() - started
    return result
