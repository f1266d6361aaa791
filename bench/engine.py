"""Benchmark of the rules engine (``scoring``), on one core.

Run from the repository root: ``python bench/engine.py [--seconds S]``.

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
- clone: ``HandState.clone()`` of hands in progress.
- web move: the engine's share of one move at a digital table: parse a
  stored hand record from JSON text, validate it, replay it, apply one legal
  action, and serialise the acting seat's ``view()`` as JSON.

The last line is one JSON object with the keys ``hands_per_s``,
``moves_per_s``, ``clone_us``, ``web_move_us``, ``baseline_hands_per_s`` and
``ratio`` (engine hands/s divided by baseline hands/s).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import DECK, HandRecord, HandState

MARKS = {1: 7, 2: 7, 3: 7, 4: 7}


def engine_hands(n: int, seed: int) -> tuple[float, int, dict[str, int]]:
    """Play ``n`` random full hands; return (seconds, moves, moves per act)."""
    rng = Random(seed)
    random = rng.random
    deal = HandState.deal
    moves = 0
    started = time.perf_counter()
    for _ in range(n):
        hand = deal(MARKS, 4, rng)
        legal = hand.legal_actions
        apply = hand.apply
        while not hand.finished:
            actions = legal()
            apply(actions[int(random() * len(actions))])
            moves += 1
        hand.outcome()
    seconds = time.perf_counter() - started
    return seconds, moves, {}


def act_mix(n: int, seed: int) -> dict[str, float]:
    """Share of each act among the moves of ``n`` random hands (untimed)."""
    rng = Random(seed)
    counts: dict[str, int] = {}
    for _ in range(n):
        hand = HandState.deal(MARKS, 4, rng)
        while not hand.finished:
            actions = hand.legal_actions()
            hand.apply(actions[int(rng.random() * len(actions))])
        for action in hand.history:
            counts[action.act] = counts.get(action.act, 0) + 1
    total = sum(counts.values())
    return {act: round(c / total, 3) for act, c in sorted(counts.items())}


def baseline_hands(n: int, seed: int) -> float:
    """Deal 16 of 32 cards, then 16 random picks; return seconds for ``n``."""
    rng = Random(seed)
    random = rng.random
    sample = rng.sample
    started = time.perf_counter()
    for _ in range(n):
        drawn = sample(DECK, 16)
        hands = [drawn[0:4], drawn[4:8], drawn[8:12], drawn[12:16]]
        for i in range(16):
            cards = hands[i & 3]
            cards.pop(int(random() * len(cards)))
    return time.perf_counter() - started


def mid_hands(n: int, seed: int) -> list[tuple[HandState, int]]:
    """``n`` random hands stopped at a uniformly chosen move before their end,
    each with the index of its next move."""
    rng = Random(seed)
    out = []
    while len(out) < n:
        hand = HandState.deal(MARKS, 4, rng)
        while not hand.finished:
            actions = hand.legal_actions()
            hand.apply(actions[int(rng.random() * len(actions))])
        stop = rng.randrange(len(hand.history))
        replay = HandState.start(MARKS, 4, hand.dealt)
        for action in hand.history[:stop]:
            replay.apply(action)
        out.append((replay, stop))
    return out


def clone_us(states: list[HandState], rounds: int) -> float:
    started = time.perf_counter()
    for _ in range(rounds):
        for state in states:
            state.clone()
    return (time.perf_counter() - started) / (rounds * len(states)) * 1e6


def web_move_us(states: list[HandState], rounds: int, seed: int) -> float:
    rng = Random(seed)
    jobs = []
    for state in states:
        record = json.dumps(HandRecord.of(state).to_json())
        actions = state.legal_actions()
        jobs.append((record, actions[rng.randrange(len(actions))]))
    started = time.perf_counter()
    for _ in range(rounds):
        for text, action in jobs:
            hand = HandRecord.from_json(json.loads(text)).replay()
            hand.apply(action)
            json.dumps(hand.view(action.seat))
    return (time.perf_counter() - started) / (rounds * len(jobs)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40_000, help="per round")
    parser.add_argument("--rounds", type=int, default=3, help="best of")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    # Alternate engine and baseline rounds and keep each one's best, so that
    # both see the same machine conditions.
    best_engine = best_base = float("inf")
    moves = 0
    for r in range(args.rounds):
        seconds, moves, _ = engine_hands(args.hands, args.seed + r)
        best_engine = min(best_engine, seconds / args.hands)
        moves_per_hand = moves / args.hands
        best_base = min(
            best_base, baseline_hands(args.hands, args.seed + r) / args.hands
        )
    hands_per_s = 1 / best_engine
    moves_per_s = hands_per_s * moves_per_hand
    base_per_s = 1 / best_base
    states = [state for state, _ in mid_hands(500, args.seed)]
    clone = min(clone_us(states, 20) for _ in range(args.rounds))
    web = min(web_move_us(states, 4, args.seed) for _ in range(args.rounds))
    history = sum(len(state.history) for state in states) / len(states)

    print("scoring engine benchmark (1 core, best of", args.rounds, "rounds)")
    print(
        "random full hand with knocking: deal 4 seats x 7 marks, then pick "
        "uniformly among all legal actions (plays, looks, blind/light knocks, "
        "answers) until the hand is over, then outcome()"
    )
    print(f"  moves per hand {moves_per_hand:.2f}, act mix {act_mix(2000, args.seed)}")
    print(f"  hands/s      {hands_per_s:10.0f}")
    print(f"  moves/s      {moves_per_s:10.0f}")
    print(f"clone() of hands in progress: {clone:.2f} us")
    print(
        "web move (json.loads + HandRecord.from_json + replay + apply one action"
        f" + json.dumps(view)), records of {history:.1f} actions on average:"
        f" {web:.1f} us"
    )
    print(
        f"baseline (deal 16 of 32 cards, then 16 random picks): {base_per_s:.0f}"
        " hands/s"
    )
    print(f"ratio engine / baseline: {hands_per_s / base_per_s:.3f}")
    print(
        json.dumps(
            {
                "hands_per_s": round(hands_per_s),
                "moves_per_s": round(moves_per_s),
                "clone_us": round(clone, 2),
                "web_move_us": round(web, 1),
                "baseline_hands_per_s": round(base_per_s),
                "ratio": round(hands_per_s / base_per_s, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
