"""Rules engine of Siebenschräm (7-Schräm): pure Python, standard library only.

Implements docs/RULES.md (the championship and regional rule sets) and the JSON
formats of docs/FORMATS.md.  Nothing here imports Django or any other part of the
project; ``tournament`` builds on this API.  Seats are numbered 1..n
everywhere; cards are small ints (see ``scoring.cards``) written ``"10H"``.

Rule sets (``scoring.rules``)
    ``RuleSet`` -- frozen dataclass, one documented field per rule;
    ``CHAMPIONSHIP`` (default), ``PRESETS`` (``championship``, ``schroem``,
    ``siwwe_stroem``, ``marienheide``), ``get_rules(name)``,
    ``points_for_game(marks_left, rules) -> int`` (marks + 7, or 0).

Cards and actions
    ``parse_card("10H") -> Card``, ``card_str(card) -> str``, ``DECK``;
    ``Action(seat, act, card=None)`` with act look/knock/hold/fold/play,
    ``action(seat, act, card=None)`` -> the interned Action.

A hand (``scoring.hand``): ``HandState``
    ``HandState.start(marks, dealer, cards, rules=CHAMPIONSHIP)`` (explicit
    deal) or ``HandState.deal(marks, dealer, rng, rules)`` (``random.Random``;
    chance is always an input).  The verbs:
    ``legal_actions(seat=None) -> tuple[Action, ...]`` (knocks and looks are
    interrupts: several seats may act at once; split into ``legal_plays()``
    and ``legal_without_plays()[seat]``), ``apply(action)`` (raises
    ``IllegalAction``, state unchanged), ``outcome() -> HandOutcome | None``,
    ``view(seat | None) -> dict`` (JSON-serialisable; only what that seat may
    see, no card of its own before it looks -- keys in ``scoring.views``;
    ``view_json`` gives it as text; ``scoring.views.check_choosable``
    refuses a person's play before his look), ``clone()``.  Also
    ``to_move()`` and read-only properties (``value``,
    ``finished``, ``in_hand``, ``looked``, ``folded``, ``tricks``, ``trick``,
    ``history``, ... listed in ``scoring.hand``); ``unplayed(seat)`` and
    ``dealt`` are hidden information (``dealt``: records only).

A game (``scoring.game``): ``GameState(seats=4, rules, first_dealer=None)``
    ``deal(rng)`` or ``start_hand(cards)``, then ``legal_actions()``,
    ``apply(action)`` (settles marks and passes the deal to the hand's
    winner), or ``apply_sheet(SheetLine) -> HandOutcome``;
    ``outcome() -> GameOutcome | None`` (winner, marks, points, hands,
    ``detail``), ``view(seat)``, ``clone()``, ``marks``, ``dealer``.

Sheet lines (``scoring.sheet``): referee entry from a paper score sheet
    ``SheetLine(value, winner, folded={}, penalty={})``;
    ``settle_sheet_line(line, marks, dealer, rules) -> HandOutcome``;
    ``game_from_sheet(lines, seats=4, rules, first_dealer=None) -> GameState``
    (3- or 4-seat tables).  Errors are ``SheetError`` with ``.line``, the
    1-based hand number.

Records (``scoring.records``), strict readers and canonical writers
    ``HandRecord`` / ``GameRecord`` (``from_json``/``to_json``,
    ``from_text``/``to_text``, ``replay``, ``of``), ``read_record(data)``
    (a hand or game record, by its ``format``); ``hand_result_json(hand)``
    and ``game_result_json(game, detail=False)`` give the outcome JSON of
    docs/FORMATS.md (nulls while still in progress).

Errors (``scoring.errors``), all ``ValueError``
    ``IllegalAction`` and ``SheetError`` carry ``.code`` (stable snake-case,
    e.g. ``knock_twice_in_a_row``), ``.rule`` (``"docs/RULES.md §4.2"``) and
    ``.message``; ``IllegalAction`` also ``.hand_index``/``.action_index``
    when replaying.  ``RULE_OF`` lists every code.  ``RecordError`` has
    ``.path`` into the JSON (``cards.2[3]``).

Bots and command line
    ``scoring.bots`` (``RandomBot``, ``GreedyBot``: ``choose(view)``, or
    ``decide(seat, legal, due, view)`` which builds the view only when
    needed), ``BOTS``, ``DEFAULT_BOT``, ``make_bots``; ``scoring.simulate``:
    ``simulate``, ``play_game``, ``play_hand`` and ``next_bot_action(hand,
    bots)`` (the bots' move at a table of people and bots); ``python -m
    scoring replay FILE`` and
    ``python -m scoring simulate --games N --seed S [--bot random|greedy]``.
"""

from .actions import Action, action
from .cards import DECK, Card, card_str, parse_card
from .errors import RULE_OF, IllegalAction, RecordError, RuleError, SheetError
from .game import GameState, game_from_sheet
from .hand import HandState
from .outcomes import GameOutcome, HandOutcome
from .records import (
    GameRecord,
    HandEntry,
    HandRecord,
    game_result_json,
    hand_result_json,
    read_record,
)
from .rules import CHAMPIONSHIP, PRESETS, RuleSet, get_rules, points_for_game
from .sheet import SheetLine, settle_sheet_line

__all__ = [
    "CHAMPIONSHIP",
    "DECK",
    "PRESETS",
    "RULE_OF",
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
    "game_result_json",
    "get_rules",
    "hand_result_json",
    "parse_card",
    "points_for_game",
    "read_record",
    "settle_sheet_line",
]
