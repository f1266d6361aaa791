"""The adapter between a digital table's row and `scoring`.

A digital table stores one game record (docs/FORMATS.md § Game record) per
game started. This module turns them into game states, applies actions,
deals, asks the bots, and gives each seat its view -- the only way a player
sees anything of the game (docs/CONTRIBUTING.md § Engines). It knows nothing
of requests, sockets or users.
"""

import datetime
import random
import secrets
from collections.abc import Mapping
from typing import Any

from scoring.actions import Action, action
from scoring.bots import BOTS, Bot
from scoring.cards import CARD_NAMES, parse_card
from scoring.game import GameState
from scoring.hand import HandState
from scoring.records import GameRecord
from scoring.rules import RuleSet
from scoring.simulate import next_bot_action
from scoring.views import check_choosable
from tournament.core.rules import rule_set
from tournament.digital.faces import face
from tournament.models import DigitalTable
from tournament.models.results import StoredGame

# The acts a player may send (scoring.actions.ACTS).
ACTS = ("look", "knock", "hold", "fold", "play")


def rules_of(table: DigitalTable) -> RuleSet:
    """The rule set the table plays (its tournament's when it was made)."""
    return rule_set(
        preset=table.rules, start_marks=table.start_marks, win_bonus=table.win_bonus
    )


def _rng(table: DigitalTable) -> random.Random:
    """The deal's chance: the system's, unless a test fixed a seed."""
    if table.deal_seed:
        hands = sum(len(g["hands"]) for g in table.games)
        return random.Random(f"{table.deal_seed}:{len(table.games)}:{hands}")
    return random.Random(secrets.randbits(128))


# The row's last record and its game, replayed, kept on the row (a bot's
# move asks for the game, then applies to it).
_REPLAYED = "_replayed"


def current_game(table: DigitalTable) -> GameState | None:
    """The game in progress (or the last one), replayed from its record --
    once per record: a bot's move asks for it, then applies to it."""
    if not table.games:
        return None
    record = table.games[-1]
    cached: tuple[dict[str, Any], GameState] | None = getattr(table, _REPLAYED, None)
    if cached is not None and cached[0] is record:
        return cached[1].clone()
    game = GameRecord.from_json(record).replay()
    setattr(table, _REPLAYED, (record, game))
    return game.clone()


def finished_games(table: DigitalTable) -> list[StoredGame]:
    """Winner, marks and the winner's points of every finished game, in
    order (the points as the rules count them: the page shows them)."""
    out = []
    for index in range(len(table.games)):
        result = _game_result(table, index)
        if result is not None:
            out.append(result)
    return out


def _game_result(table: DigitalTable, index: int) -> StoredGame | None:
    key = (table.pk, table.created_at, index)
    if key in _RESULTS:
        return _RESULTS[key]
    outcome = GameRecord.from_json(table.games[index]).replay().outcome()
    if outcome is None:
        return None
    result: StoredGame = {
        "winner": outcome.winner,
        "marks": outcome.marks[outcome.winner],
        "points": outcome.points[outcome.winner],
    }
    if table.pk is not None:
        # A finished game never changes again: replay it once per process.
        if len(_RESULTS) > 4096:
            _RESULTS.clear()
        _RESULTS[key] = result
    return result


# By (row id, its creation time, game index).
_RESULTS: dict[tuple[int | None, datetime.datetime, int], StoredGame] = {}


def start(table: DigitalTable) -> None:
    """Deal the first hand of the table's first game (the highest seat
    deals, docs/RULES.md §2)."""
    game = GameState(table.size, rules_of(table), first_dealer=table.size)
    game.deal(_rng(table))
    table.games = [GameRecord.of(game).to_json()]


def parse_action(seat: int, act: Any, card: Any) -> Action:
    """The action a message asks for; ValueError if it names no action."""
    if act not in ACTS:
        raise ValueError("unknown act")
    if act == "play":
        if not isinstance(card, str) or len(card) > 3:
            raise ValueError("no card")
        return action(seat, act, parse_card(card))
    if card is not None:
        raise ValueError("a card only goes with play")
    return action(seat, act)


def check_chosen(table: DigitalTable, act: Action) -> None:
    """Refuse (IllegalAction "look_first") a person's play before his look:
    his page showed no card to choose, and the rules' refusal of the card
    would tell him what he holds (`scoring.views.check_choosable`)."""
    game = current_game(table)
    hand = game.hand if game is not None else None
    if hand is not None and not hand.finished:
        check_choosable(hand, act)


def apply(table: DigitalTable, act: Action) -> str | None:
    """Apply `act` through the rules (IllegalAction if they forbid it); deal
    the next hand or start the next game when one ends. Returns "game" when
    a game ended, "table" when the table's last game did, else None."""
    game = current_game(table)
    if game is None:
        raise ValueError("the table has not started")
    game.apply(act)
    ended = None
    if not game.in_progress:
        outcome = game.outcome()
        if outcome is None:
            game.deal(_rng(table))
        elif len(table.games) < table.games_total:
            ended = "game"
        else:
            ended = "table"
    table.games[-1] = GameRecord.of(game).to_json()
    setattr(table, _REPLAYED, (table.games[-1], game))
    if ended == "game":
        assert outcome is not None
        # The winner of a game deals the first hand of the next (docs/RULES.md §2).
        following = GameState(table.size, rules_of(table), outcome.winner)
        following.deal(_rng(table))
        table.games.append(GameRecord.of(following).to_json())
    return ended


def bot_action(table: DigitalTable, bots: Mapping[int, str]) -> Action | None:
    """The move one of the bots makes now, or None while they wait for a
    person: the rules module's `next_bot_action` (before the seat the hand
    waits for, the other bots may interrupt, clockwise after it)."""
    game = current_game(table)
    hand = game.hand if game is not None else None
    if hand is None or hand.finished or not bots:
        return None
    return next_bot_action(
        hand, {seat: _bot(table, name, seat) for seat, name in bots.items()}
    )


def due_seat(table: DigitalTable) -> int | None:
    """The seat the hand waits for (to play, to answer a knock, or the
    hammer's knock); None when no hand waits."""
    game = current_game(table)
    hand = game.hand if game is not None else None
    if hand is None or hand.finished:
        return None
    move = hand.to_move()
    return None if move is None else move[0]


def _bot(table: DigitalTable, name: str, seat: int) -> Bot:
    # A bot keeps no memory between moves: everything it needs is its view.
    return BOTS[name](random.Random(f"{table.pk}:{table.version}:{seat}"))


def _last_hand(table: DigitalTable, game: GameState) -> HandState | None:
    """The hand finished last while the next is being played (the next is
    dealt at once); None when the game itself is over: its view shows it."""
    if not game.in_progress:
        return None
    if not game.played and len(table.games) > 1:
        game = GameRecord.from_json(table.games[-2]).replay()
    hands = [h for h in game.played if isinstance(h, HandState)]
    return hands[-1] if hands else None


def seat_view(table: DigitalTable, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) may see of the table: the current
    game's view, the last finished hand (so the last trick and who won it
    stay on screen while the next hand is dealt), and the games so far."""
    game = current_game(table)
    if game is None:
        return {"game": None, "history": [], "last_hand": None, "games": []}
    last = _last_hand(table, game)
    hand = game.hand
    return {
        "game": game.view(seat),
        # Every action is public (a played card is on the table): the
        # hand's story in order, for the page's history.
        "history": [] if hand is None else [a.to_json() for a in hand.history],
        "game_number": len(table.games),
        "last_hand": None if last is None else last.view(seat),
        "games": finished_games(table),
    }


def full_record(table: DigitalTable) -> list[dict[str, Any]]:
    """Every game's full record (cards included): only for finished games'
    replays and the kept result, never for a seat during play."""
    return list(table.games)


class StillPlaying(Exception):
    """The game is not over: its record would show cards still in hands."""


def replay(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game hand by hand, every card shown: the deal, each
    action in order, the tricks and the outcome. Raises StillPlaying for a
    game in progress."""
    game_record = GameRecord.from_json(record)
    game = game_record.replay()
    if game.outcome() is None:
        raise StillPlaying
    hands = []
    for number, hand in enumerate(game.played, 1):
        if not isinstance(hand, HandState):
            continue
        view = hand.view(None)
        hands.append(
            {
                "number": number,
                "dealer": view["dealer"],
                "marks": {int(s): m for s, m in view["marks"].items()},
                "cards": {
                    seat: [face(CARD_NAMES[c]) for c in cards]
                    for seat, cards in sorted(hand.dealt.items())
                },
                "steps": [
                    {
                        "seat": a.seat,
                        "act": a.act,
                        "card": None if a.card is None else face(CARD_NAMES[a.card]),
                    }
                    for a in hand.history
                ],
                "tricks": [
                    {
                        "plays": [
                            (seat, face(card))
                            for seat, card in zip(t["seats"], t["cards"], strict=True)
                        ],
                        "winner": t["winner"],
                    }
                    for t in view["tricks"]
                ],
                "outcome": view["outcome"],
            }
        )
    return hands
