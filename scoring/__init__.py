"""Rules engine of Siebenschräm (7-Schräm), pure Python, standard library only."""

from .actions import Action, action
from .cards import DECK, Card, card_str, parse_card
from .errors import IllegalAction, RecordError, RuleError, SheetError
from .game import GameState, game_from_sheet
from .hand import HandState
from .outcomes import GameOutcome, HandOutcome
from .records import GameRecord, HandEntry, HandRecord, read_record
from .rules import CHAMPIONSHIP, PRESETS, RuleSet, get_rules, points_for_game
from .sheet import SheetLine, settle_sheet_line

__all__ = [
    "CHAMPIONSHIP",
    "DECK",
    "PRESETS",
    "Action",
    "Card",
    "GameOutcome",
    "GameRecord",
    "GameState",
    "HandEntry",
    "HandOutcome",
    "HandRecord",
    "HandState",
    "IllegalAction",
    "RecordError",
    "RuleError",
    "RuleSet",
    "SheetError",
    "SheetLine",
    "action",
    "card_str",
    "game_from_sheet",
    "get_rules",
    "parse_card",
    "points_for_game",
    "read_record",
    "settle_sheet_line",
]
