"""The demo's games, played by the rules module's bots."""

import zlib
from random import Random

from scoring.bots import DEFAULT_BOT, make_bots
from scoring.game import GameState
from scoring.simulate import play_game
from tournament.core.rules import tournament_rules
from tournament.models import Tournament


def bot_games(
    *, table_size: int, tournament: Tournament, seed: str, bot: str = DEFAULT_BOT
) -> list[dict[str, int]]:
    """A table's games played by rules-module bots (demo, practice): the
    winner's seat and marks per game. The highest seat deals first, then
    each game's winner deals the next (docs/RULES.md §2)."""
    rules = tournament_rules(tournament)
    bots = make_bots([bot], table_size, zlib.crc32(seed.encode()))
    rng = Random(f"{seed}:deal")
    out = []
    dealer = table_size
    for _game in range(tournament.games_per_series):
        game = GameState(table_size, rules, first_dealer=dealer)
        dealer = play_game(game, bots, rng)
        outcome = game.outcome()
        assert outcome is not None
        out.append({"winner": outcome.winner, "marks": outcome.marks[outcome.winner]})
    return out
