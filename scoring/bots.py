"""Bots that play from what their seat may see, never from the full state.

Every bot has ``choose(view)``: given ``view(seat)`` it returns one of the
seat's legal actions, or None to let the moment pass when the hand is not
waiting for this seat (``view["due"]`` false: a knock or look would be an
interrupt).  When due, it must act.

A bot may also state that it reads less, by having ``decide(seat, legal,
due, view) -> Action | None``: it gets the seat's legal actions (a non-empty
``legal_actions(seat)``, which shows no other seat's cards), whether the hand
waits for it, and ``view``, a function of no arguments returning
``view(seat)``, which it calls only if it needs more.  So hidden information
still reaches a bot only as that seat's legal actions and view (docs/CONTRIBUTING.md
§ Engines): it is never handed the hand.

A seat's view lists no card before the seat has looked (docs/RULES.md §5), but
its legal actions do list its plays when it is due to play: the rules take
a play as the look (§5: playing implies looking).  A bot that has not looked
may so play at once (the random bot always could); a person must look
first (``scoring.views.check_choosable``).  ``decide`` must choose
exactly what ``choose`` would from the view with ``legal`` listing the legal
actions it is handed, drawing the same random numbers -- the same view
whenever the seat has looked or has nothing to play -- so the two are
interchangeable.  ``scoring.simulate.next_bot_action`` asks each bot through
``decide`` when it has one, else through ``choose(view(seat))``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any, Protocol

from .actions import Action, action
from .cards import CARD_BY_NAME, Card

#: A seat's view, built only when called (see ``decide`` above).
ViewOf = Callable[[], Mapping[str, Any]]


class Bot(Protocol):
    """A bot: ``choose`` is required; ``decide`` (see the module docstring)
    is how a bot states that it needs less than the full view."""

    def choose(self, view: Mapping[str, Any]) -> Action | None:
        """Return a legal action of ``view["seat"]``, or None if not due."""
        ...


class RandomBot:
    """Uniformly random among the legal actions (and, when not due, "pass").

    It reads only its legal actions and whether it is due, so ``decide``
    never builds the view.  Handed its plays before it has looked, it may
    play one blindly at random (the play is its look); from a view, which
    lists no card then, it looks or knocks blind.
    """

    def __init__(self, rng: Random) -> None:
        self._rng = rng
        self._random = rng.random

    def choose(self, view: Mapping[str, Any]) -> Action | None:
        acts, cards = view["legal"]["acts"], view["legal"]["cards"]
        options = len(acts) + len(cards)
        i = int(self._rng.random() * (options + (not view["due"])))
        if i < len(acts):
            return action(view["seat"], acts[i])
        if i < options:
            return action(view["seat"], "play", CARD_BY_NAME[cards[i - len(acts)]])
        return None

    def decide(
        self, seat: int, legal: tuple[Action, ...], due: bool, view: ViewOf
    ) -> Action | None:
        # The same draw as ``choose``: there the options are the acts, then
        # the cards; ``legal`` lists the plays first, then the acts.
        n = len(legal)
        i = int(self._random() * (n + (not due)))
        if i >= n:
            return None
        if legal[0].card is not None:
            plays = n
            while legal[plays - 1].card is None:
                plays -= 1
            i += plays
            if i >= n:
                i -= n
        return legal[i]


class GreedyBot:
    """A sensible player.

    It looks at its cards first (never knocks blind), estimates the chance of
    winning the last trick from the cards it has seen, knocks when that chance
    is high, holds a knock only when holding costs less than folding on
    average, and plays its cards so as to keep the best one for the last
    trick.  As the hammer it makes the compulsory knock (the only legal
    action); against a knock to 2 it holds only with better than even odds,
    since folding costs just 1.
    """

    def __init__(
        self, knock_at: float = 0.62, sure: float = 0.95, against_knock: float = 0.6
    ) -> None:
        self._knock_at = knock_at
        self._sure = sure
        self._against_knock = against_knock

    def decide(
        self, seat: int, legal: tuple[Action, ...], due: bool, view: ViewOf
    ) -> Action | None:
        # A look is listed only while the seat has not looked, and then
        # ``choose`` looks.  Not due, with no knock to make, it passes.  Only
        # the rest needs the view.
        knock = False
        for a in legal:
            if a.act == "look":
                return a
            knock = knock or a.act == "knock"
        if not due and not knock:
            return None
        return self.choose(view())

    def choose(self, view: Mapping[str, Any]) -> Action | None:
        seat = view["seat"]
        acts = set(view["legal"]["acts"])
        plays = [CARD_BY_NAME[c] for c in view["legal"]["cards"]]
        if not acts and not plays:
            return None
        if view["cards"] is None:
            # Not looked yet: look first (also the only way to know anything),
            # except for the hammer's compulsory blind knock.
            if acts == {"knock"} and view["due"]:
                return action(seat, "knock")
            if "look" in acts:
                return action(seat, "look")
        if not view["due"] and "knock" not in acts:
            return None  # nothing to interrupt with
        mine = [CARD_BY_NAME[c] for c in view["cards"] or ()]
        table = _Table(view, mine)
        p = table.win_chance()
        value = view["value"]
        marks = view["marks"][str(seat)]
        if "knock" in acts and (
            p >= self._sure or (p >= self._knock_at and value < marks)
        ):
            return action(seat, "knock")
        if not view["due"]:
            return None
        if "hold" in acts:
            # A light knock signals strength: discount our chance against it.
            # A blind one says nothing about the knocker's cards.
            if not view["knocks"][-1]["blind"]:
                p *= self._against_knock
            hold_cost = (1.0 - p) * min(value, marks)
            fold_cost = min(value - 1, marks)
            act = "hold" if hold_cost < fold_cost else "fold"
            return action(seat, act)
        if plays:
            return action(seat, "play", table.pick(plays))
        return action(seat, sorted(acts)[0])


class _Table:
    """What a seat knows about the cards, from its view."""

    def __init__(self, view: Mapping[str, Any], mine: list[Card]) -> None:
        seat = view["seat"]
        self.mine = mine
        in_hand = set(view["in_hand"])
        seen = set(mine)
        tricks = view["tricks"]
        self.current: list[tuple[int, Card]] = []
        played_by: dict[int, int] = {}
        for trick in tricks:
            for s in trick["seats"]:
                played_by[s] = played_by.get(s, 0) + 1
            cards = [
                (s, CARD_BY_NAME[c])
                for s, c in zip(trick["seats"], trick["cards"], strict=True)
            ]
            seen.update(card for _, card in cards)
            if trick["winner"] is None:
                self.current = cards
        self.unknown = 32 - len(seen)
        self.opponents = [s for s in in_hand if s != seat]
        held = sum(4 - played_by.get(s, 0) for s in self.opponents)
        # Chance that a given unseen card sits with an opponent still in.
        self.q = held / self.unknown if self.unknown else 0.0
        self.seen = seen
        self.live = [(s, c) for s, c in self.current if s in in_hand]
        played = sum(1 for s, _ in self.live if s != seat)
        self.to_play_after = max(0, len(self.opponents) - played)

    def lead_chance(self, card: Card) -> float:
        """Chance that ``card``, led to a trick, is not beaten by a card of
        its suit held by an opponent still in the hand."""
        chance = 1.0
        top = (card | 7) + 1
        for higher in range(card + 1, top):
            if higher not in self.seen:
                chance *= 1.0 - self.q
        return chance

    def trick_chance(self, card: Card) -> float:
        """Chance that ``card`` played now wins the current trick."""
        if not self.current:
            return self.lead_chance(card)
        lead = self.current[0][1] >> 3
        if card >> 3 != lead:
            # Off suit wins only as the earliest live card (the lead is dead).
            return 0.0 if self.live else 0.3
        if any(c >> 3 == lead and c > card for _, c in self.live):
            return 0.0
        if not self.to_play_after:
            return 1.0
        return self.lead_chance(card)

    def win_chance(self) -> float:
        """Estimated chance of winning the hand (= the last trick)."""
        mine = self.mine
        if not mine:
            return 0.5  # already played the last card: unknown to us here
        if len(mine) == 1:
            return self.trick_chance(mine[0])
        best = max(self.lead_chance(c) for c in mine)
        # To use the best card we must lead the last trick: win the one before.
        share = 1.0 / (1 + len(self.opponents))
        second = sorted((self.lead_chance(c) for c in mine), reverse=True)[1]
        return best * (share + (1.0 - share) * second * 0.8)

    def pick(self, plays: list[Card]) -> Card:
        """Keep the best card for the last trick; try to win the trick before
        it with the other; otherwise get rid of the weakest card."""
        if len(plays) == 1:
            return plays[0]
        best = max(self.mine, key=self.lead_chance)
        others = [c for c in plays if c != best] or plays
        if len(self.mine) == 2:
            return max(others, key=self.trick_chance)
        return min(others, key=lambda c: (self.lead_chance(c), c & 7))


BOTS: dict[str, Callable[[Random], Bot]] = {
    "random": RandomBot,
    "greedy": lambda rng: GreedyBot(),
}
# The bot that plays unless another is chosen: the sensible one (it takes
# over a seat whose phone is gone, plays the practice and the demo tables).
DEFAULT_BOT = "greedy"


def make_bots(names: Sequence[str], seats: int, seed: int) -> dict[int, Bot]:
    """One bot per seat: ``names`` has one name (every seat) or one per seat."""
    if len(names) == 1:
        names = list(names) * seats
    if len(names) != seats:
        raise ValueError(f"need 1 or {seats} bot names, got {len(names)}")
    bots: dict[int, Bot] = {}
    for seat, name in enumerate(names, 1):
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
        bots[seat] = BOTS[name](Random(f"{seed}:bot:{seat}"))
    return bots
