"""Bot-against-bot games, for the command line and for tests, and the bots'
move at a table where some seats are people (``next_bot_action``).

Interrupts are offered fairly: before the seat the hand waits for acts, every
other seat with a legal look or knock is asked, clockwise from the seat after
it; the first that acts wins the moment, then the hand is asked again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from random import Random
from typing import Any

from .actions import Action
from .bots import Bot, ViewOf, make_bots
from .game import GameState
from .hand import HandState
from .rules import CHAMPIONSHIP, RuleSet

#: _SEATS_AFTER[n][seat]: the other seats of an n-table, clockwise after seat.
_SEATS_AFTER = tuple(
    tuple(tuple((s + k - 1) % n + 1 for k in range(1, n)) for s in range(n + 1))
    for n in range(9)
)


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


#: How ``_next_action`` asks one bot: (seat, legal, due, view) -> choice.
_Decide = Callable[[int, tuple[Action, ...], bool, ViewOf], Action | None]


def _decider(bot: Bot) -> _Decide:
    """Return ``bot.decide`` if the bot has one, else an adapter that hands
    ``choose`` the full view (see ``scoring.bots``)."""
    decide: _Decide | None = getattr(bot, "decide", None)
    if decide is not None:
        return decide
    choose = bot.choose

    def by_view(
        seat: int, legal: tuple[Action, ...], due: bool, view: ViewOf
    ) -> Action | None:
        return choose(view())

    return by_view


def _deciders(bots: Mapping[int, Bot], seats: int) -> list[_Decide | None]:
    """The deciders indexed by seat number (None: no bot at that seat)."""
    out: list[_Decide | None] = [None] * (seats + 1)
    for seat, bot in bots.items():
        if 1 <= seat <= seats:
            out[seat] = _decider(bot)
    return out


def _bot_actions(
    hand: HandState,
    deciders: Sequence[_Decide | None],
    views: Sequence[ViewOf],
) -> Iterator[Action | None]:
    """Yield the action the bots make at each moment of ``hand``, None when
    the seat the hand waits for has no bot or its bot did not act; stop when
    the hand is over.  The caller applies each action before asking for the
    next (a generator, so a played-out hand pays no call per move)."""
    to_move = hand.to_move
    without_plays = hand.legal_without_plays
    legal_plays = hand.legal_plays
    after = _SEATS_AFTER[hand.seats]
    while (move := to_move()) is not None:
        due = move[0]
        # Each bot gets its own seat's legal actions and ``views[seat - 1]``,
        # which builds that seat's view: never the hand (docs/CONTRIBUTING.md
        # § Engines).
        legal = without_plays()  # the seats not due have no plays
        for seat in after[due]:
            acts = legal[seat]
            if acts:
                decide = deciders[seat]
                if decide is not None:
                    chosen = decide(seat, acts, False, views[seat - 1])
                    if chosen is not None:
                        break
        else:
            decide = deciders[due]
            chosen = (
                None
                if decide is None
                else decide(due, legal_plays() + legal[due], True, views[due - 1])
            )
        yield chosen


def _views(hand: HandState) -> list[ViewOf]:
    """``views[seat - 1]()`` builds ``hand.view(seat)``."""
    view = hand.view
    return [partial(view, seat) for seat in range(1, hand.seats + 1)]


def _hand_view(game: GameState, seat: int) -> Mapping[str, Any]:
    hand = game.hand
    assert hand is not None, "no hand dealt"
    return hand.view(seat)


def _game_views(game: GameState) -> list[ViewOf]:
    """``views[seat - 1]()`` builds ``seat``'s view of the game's current
    hand: made once per game, not once per hand."""
    return [partial(_hand_view, game, seat) for seat in range(1, game.seats + 1)]


def next_bot_action(hand: HandState, bots: Mapping[int, Bot]) -> Action | None:
    """Return the action the bots make now, or None when the hand is over or
    waits for a seat without a bot (that no bot interrupts).

    ``bots`` maps seats to bots (some seats may have none).  Before the seat
    the hand waits for, every other seat with a bot and a legal look or
    knock is asked, clockwise from the seat after it, and the first that
    acts wins the moment; else the due seat's bot is asked.  A bot with
    ``decide`` is asked through it (handed its legal actions: a seat due
    to play that has not looked gets its plays, a play being its look),
    else with ``choose(hand.view(seat))``; see ``scoring.bots``.
    """
    deciders = _deciders(bots, hand.seats)
    return next(_bot_actions(hand, deciders, _views(hand)), None)


def play_hand(
    hand: HandState,
    bots: Mapping[int, Bot],
    apply: Callable[[Action], None] | None = None,
) -> None:
    """Let the bots (one per seat) play ``hand`` to its end, each move as
    ``next_bot_action`` makes it: no bot sees more than its seat's view.

    ``apply`` (default ``hand.apply``) lets a game apply the actions, so that
    it settles marks when the hand ends.
    """
    _play_hand(hand, _deciders(bots, hand.seats), _views(hand), apply)


def _play_hand(
    hand: HandState,
    deciders: Sequence[_Decide | None],
    views: Sequence[ViewOf],
    apply: Callable[[Action], None] | None,
) -> None:
    do = hand.apply if apply is None else apply
    for chosen in _bot_actions(hand, deciders, views):
        if chosen is None:
            move = hand.to_move()
            assert move is not None
            raise RuntimeError(f"bot of seat {move[0]} did not act when due")
        do(chosen)


def play_game(game: GameState, bots: Mapping[int, Bot], rng: Random) -> int:
    """Deal with ``rng`` and play until the game is over; return the winner."""
    deciders = _deciders(bots, game.seats)
    views = _game_views(game)
    while True:
        outcome = game.outcome()
        if outcome is not None:
            return outcome.winner
        _play_hand(game.deal(rng), deciders, views, game.apply)


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
