"""Benchmark of the rules engine (``scoring``), on one core.

Run from the repository root: ``python bench/engine.py``.  Times are CPU
time of this process (``time.process_time``), so other load on the machine
does not count as engine time; each figure is the best of a few rounds.

Definitions (printed with the results):

- random full hand with knocking: deal a hand at a table of 4 with 7 marks
  each (``HandState.deal`` from a seeded ``random.Random``), then until the
  hand is over pick uniformly among *all* of ``legal_actions()`` -- plays,
  looks, knocks (blind and light) and answers of every seat -- and
  ``apply()`` it; finally ``outcome()``.  A move is one ``apply``.
- baseline: the same random source dealing 16 of the 32 cards
  (``rng.sample``) and then making 16 uniform random picks from the four
  hands, i.e. the least any random card hand costs in Python.  Both loops
  pick with ``seq[int(rng.random() * len(seq))]``.
- simulate: what ``python -m scoring simulate --bot random`` runs, timed
  around ``scoring.simulate.simulate(games, seed, ["random"])``: games at a
  table of 4 from 7 marks each, every seat a ``RandomBot``, each hand dealt
  by a ``GameState`` and played through ``play_game`` (interrupts offered to
  the other seats' bots before the seat due, as in a real game).  Its hands/s
  counts the hands of those games.
- clone: ``HandState.clone()`` of hands in progress.
- web move: the engine's share of one move at a digital table: parse a
  stored hand record from JSON text and validate it
  (``HandRecord.from_text``), replay it, apply one legal action, and
  serialise the acting seat's view as JSON (``view_json``).  The records are
  hands played by greedy bots, stopped at a uniformly random move.  For
  scale, the same with the plain ``json.loads``/``json.dumps`` is printed.

The last line is one JSON object with the keys ``hands_per_s``,
``moves_per_s``, ``clone_us``, ``web_move_us``, ``baseline_hands_per_s``,
``ratio`` (engine hands/s divided by baseline hands/s),
``simulate_hands_per_s`` and ``simulate_ratio`` (simulate hands/s divided by
the same baseline hands/s).  Engine, baseline and simulate rounds take turns,
so all three see the same machine conditions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import DECK, Action, HandRecord, HandState
from scoring.bots import make_bots
from scoring.simulate import play_hand, simulate

MARKS = {1: 7, 2: 7, 3: 7, 4: 7}
clock = time.process_time


def engine_hands(n: int, seed: int) -> tuple[float, int]:
    """Play ``n`` random full hands; return (seconds, moves)."""
    rng = Random(seed)
    random = rng.random
    deal = HandState.deal
    moves = 0
    started = clock()
    for _ in range(n):
        hand = deal(MARKS, 4, rng)
        legal = hand.legal_actions
        apply = hand.apply
        while actions := legal():
            apply(actions[int(random() * len(actions))])
            moves += 1
        hand.outcome()
    return clock() - started, moves


def baseline_hands(n: int, seed: int) -> float:
    """Deal 16 of 32 cards, then 16 random picks; return seconds for ``n``."""
    rng = Random(seed)
    random = rng.random
    sample = rng.sample
    started = clock()
    for _ in range(n):
        drawn = sample(DECK, 16)
        hands = [drawn[0:4], drawn[4:8], drawn[8:12], drawn[12:16]]
        for i in range(16):
            cards = hands[i & 3]
            cards.pop(int(random() * len(cards)))
    return clock() - started


def simulate_hands(games: int, seed: int) -> tuple[float, int]:
    """Run ``python -m scoring simulate --bot random``'s loop for ``games``
    games; return (seconds, hands)."""
    started = clock()
    result = simulate(games, seed, ["random"])
    return clock() - started, result.hands


def act_mix(n: int, seed: int) -> dict[str, float]:
    """Share of each act among the moves of ``n`` random hands (untimed)."""
    rng = Random(seed)
    counts: dict[str, int] = {}
    for _ in range(n):
        hand = HandState.deal(MARKS, 4, rng)
        while actions := hand.legal_actions():
            hand.apply(actions[int(rng.random() * len(actions))])
        for action in hand.history:
            counts[action.act] = counts.get(action.act, 0) + 1
    total = sum(counts.values())
    return {act: round(c / total, 3) for act, c in sorted(counts.items())}


def table_moves(n: int, seed: int) -> list[tuple[str, Action]]:
    """``n`` stored records of bot-played hands in progress, as JSON text,
    each with a legal next action of the seat the hand waits for."""
    rng = Random(seed)
    bots = make_bots(["greedy"], 4, seed)
    jobs: list[tuple[str, Action]] = []
    while len(jobs) < n:
        full = HandState.deal(MARKS, rng.randint(1, 4), rng)
        play_hand(full, bots)
        stop = rng.randrange(len(full.history))
        hand = HandState.start(MARKS, full.dealer, full.dealt)
        for action in full.history[:stop]:
            hand.apply(action)
        text = json.dumps(HandRecord.of(hand).to_json())
        jobs.append((text, full.history[stop]))
    return jobs


def web_move_us(jobs: list[tuple[str, Action]]) -> float:
    read = HandRecord.from_text
    started = clock()
    for text, action in jobs:
        hand = read(text).replay()
        hand.apply(action)
        hand.view_json(action.seat)
    return (clock() - started) / len(jobs) * 1e6


def web_move_plain_json_us(jobs: list[tuple[str, Action]]) -> float:
    loads, dumps, read = json.loads, json.dumps, HandRecord.from_json
    started = clock()
    for text, action in jobs:
        hand = read(loads(text)).replay()
        hand.apply(action)
        dumps(hand.view(action.seat))
    return (clock() - started) / len(jobs) * 1e6


def clone_us(states: list[HandState], rounds: int) -> float:
    started = clock()
    for _ in range(rounds):
        for state in states:
            state.clone()
    return (clock() - started) / (rounds * len(states)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="per round")
    parser.add_argument(
        "--games", type=int, default=2_000, help="simulated games per round"
    )
    parser.add_argument("--rounds", type=int, default=5, help="best of")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    # Alternate engine, baseline and simulate rounds and keep each one's
    # best, so that all see the same machine conditions.
    engine = base = float("inf")
    moves_per_hand = 0.0
    sim_per_s = 0.0
    for r in range(args.rounds):
        seconds, moves = engine_hands(args.hands, args.seed + r)
        if seconds < engine:
            engine, moves_per_hand = seconds, moves / args.hands
        base = min(base, baseline_hands(args.hands, args.seed + r))
        seconds, hands = simulate_hands(args.games, args.seed + r)
        sim_per_s = max(sim_per_s, hands / seconds)
    hands_per_s = args.hands / engine
    moves_per_s = hands_per_s * moves_per_hand
    base_per_s = args.hands / base

    jobs = table_moves(1000, args.seed)
    states = [HandRecord.from_json(json.loads(text)).replay() for text, _ in jobs]
    clone = min(clone_us(states, 20) for _ in range(args.rounds))
    web = min(web_move_us(jobs) for _ in range(args.rounds))
    plain = min(web_move_plain_json_us(jobs) for _ in range(args.rounds))
    length = sum(len(s.history) for s in states) / len(states)

    print(f"scoring engine benchmark: CPU time, best of {args.rounds} rounds")
    print(
        "random full hand with knocking = deal 4 seats x 7 marks, then pick "
        "uniformly among all legal actions of all seats (plays, looks, "
        "blind/light knocks, answers) until the hand is over, then outcome()"
    )
    print(f"  moves per hand {moves_per_hand:.2f}, act mix {act_mix(2000, 7)}")
    print(f"  hands/s  {hands_per_s:10.0f}")
    print(f"  moves/s  {moves_per_s:10.0f}")
    print(
        "simulate = python -m scoring simulate --bot random: "
        f"{args.games} games of 4 random bots per round: {sim_per_s:.0f} hands/s"
    )
    print(f"clone() of a hand in progress: {clone:.2f} us")
    print(
        "web move = HandRecord.from_text (parse + validate) + replay + apply + "
        f"view_json, bot-played records of {length:.1f} actions on average: "
        f"{web:.1f} us (with json.loads/json.dumps instead: {plain:.1f} us)"
    )
    print(f"baseline = deal 16 of 32 cards + 16 random picks: {base_per_s:.0f} hands/s")
    print(f"ratio engine / baseline: {hands_per_s / base_per_s:.3f}")
    print(f"ratio simulate / baseline: {sim_per_s / base_per_s:.3f}")
    print(
        json.dumps(
            {
                "hands_per_s": round(hands_per_s),
                "moves_per_s": round(moves_per_s),
                "clone_us": round(clone, 2),
                "web_move_us": round(web, 1),
                "baseline_hands_per_s": round(base_per_s),
                "ratio": round(hands_per_s / base_per_s, 3),
                "simulate_hands_per_s": round(sim_per_s),
                "simulate_ratio": round(sim_per_s / base_per_s, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
