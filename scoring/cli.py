"""Command line: ``python -m scoring replay FILE`` and ``... simulate``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .errors import IllegalAction, RecordError, SheetError
from .records import GameRecord, game_result_json, hand_result_json, read_record
from .rules import PRESETS, get_rules
from .simulate import simulate


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    replay = commands.add_parser(
        "replay", help="replay a hand or game record and print its outcome JSON"
    )
    replay.add_argument("file", help="a siebenschraem.hand/1 or .game/1 JSON file")
    replay.add_argument(
        "--detail", action="store_true", help="games: add the per-hand outcomes"
    )

    sim = commands.add_parser("simulate", help="bot games; prints one JSON object")
    sim.add_argument("--games", type=int, required=True)
    sim.add_argument("--seed", type=int, required=True)
    sim.add_argument(
        "--bot",
        default="random",
        help="random or greedy for every seat, or one per seat: greedy,random,...",
    )
    sim.add_argument("--seats", type=int, default=4)
    sim.add_argument("--rules", default="championship", choices=sorted(PRESETS))

    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file, args.detail)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        result = simulate(
            args.games,
            args.seed,
            args.bot.split(","),
            seats=args.seats,
            rules=get_rules(args.rules),
        )
    except ValueError as err:  # unknown bot, impossible table
        parser.error(str(err))
    print(json.dumps(result.to_json()))
    return 0


def _replay(path: str, detail: bool) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as err:
        print(f"error: {path}: cannot read JSON: {err}", file=sys.stderr)
        return 1
    try:
        record = read_record(data)
        if isinstance(record, GameRecord):
            outcome = game_result_json(record.replay(), detail)
        else:
            outcome = hand_result_json(record.replay())
    except RecordError as err:
        print(f"error: {path}: invalid record: {err}", file=sys.stderr)
        return 1
    except (IllegalAction, SheetError) as err:
        print(
            f"error: {path}: illegal: {err.where() or 'record'}: {err.message} "
            f"(rule {err.rule}, code {err.code})",
            file=sys.stderr,
        )
        return 1
    print(json.dumps(outcome))
    return 0
