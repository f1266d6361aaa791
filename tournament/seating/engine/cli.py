"""Command line: ``python -m tournament.seating --players N [options]``.

Prints ``{"series": [...], "quality": {...}}`` as JSON; players are 1..N.
Errors go to stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .api import MODES, seat
from .errors import SeatingError


def _load(path: str | None) -> Any:
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _ids(text: str) -> list[int]:
    return [int(p) for p in text.split(",") if p.strip()]


def _by_player(data: Any, what: str) -> dict[int, Any]:
    if not isinstance(data, dict):
        raise SeatingError("bad_file", f"{what}: expected a JSON object")
    try:
        return {int(k): v for k, v in data.items()}
    except ValueError as e:
        raise SeatingError("bad_file", f"{what}: keys must be player numbers") from e


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournament.seating",
        description="Seat a 7-Schräm tournament: players 1..N at tables of 3-4.",
    )
    parser.add_argument("--players", type=int, required=True, help="N")
    parser.add_argument("--series", type=int, default=5)
    parser.add_argument("--seed", default="0", help="int or text; same seed, same lot")
    parser.add_argument("--clubs", help="JSON file: {player: club}")
    parser.add_argument("--fixed", help="JSON file: list of series already played")
    parser.add_argument(
        "--withdrawn", type=_ids, default=[], help="comma list of players who left"
    )
    parser.add_argument("--mode", choices=MODES, default="lot")
    parser.add_argument("--totals", help="JSON file: {player: points} (standings)")
    args = parser.parse_args(argv)
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    try:
        fixed = _load(args.fixed) or []
        if not isinstance(fixed, list):
            raise SeatingError("bad_file", "--fixed: expected a JSON list of series")
        clubs = _by_player(_load(args.clubs) or {}, "--clubs")
        totals = _by_player(_load(args.totals) or {}, "--totals")
        gone = set(args.withdrawn)
        players = [p for p in range(1, args.players + 1) if p not in gone]
        if args.players < 1:
            players = []
        result = seat(
            players,
            series=args.series,
            seed=seed,
            clubs=clubs,
            fixed=fixed,
            withdrawn=gone,
            mode=args.mode,
            totals=totals,
        )
    except SeatingError as e:
        print(f"error: {e.code}: {e}", file=sys.stderr)
        return 2
    except (OSError, json.JSONDecodeError) as e:
        print(f"error: bad_file: {e}", file=sys.stderr)
        return 2
    json.dump(result.as_json(), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
