"""What follows from the start of a hand alone: validation and shared caches.

A hand starts from (rules, marks, dealer) and a deal.  ``table_for`` checks
the first three once and caches what follows from them (forehand, hammer,
knock caps); ``check_deal`` checks the deal.  Both raise RecordError with a
path, because impossible starts come from records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NoReturn

from .cards import Card, card_str
from .errors import RecordError
from .rules import RuleSet

_SEAT_KEYS = tuple(str(s) for s in range(1, 10))

#: SEATS_AFTER[n][s]: the other seat indices of an n-table, clockwise from s.
SEATS_AFTER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((s + k) % n for k in range(1, n)) for s in range(n)) if n else ()
    for n in range(9)
)


def check_deal(
    table: Table, cards: Mapping[int, Sequence[Card]]
) -> tuple[tuple[tuple[Card, ...], ...], list[int]]:
    """Return the deal and the card masks per seat index if ``cards`` gives
    4 distinct cards to exactly the seats of ``table`` with marks; else raise
    RecordError."""
    dealt: list[tuple[Card, ...]] = [()] * table.n
    masks = [0] * table.n
    full = 0
    try:
        for seat, hand in cards.items():
            a, b, c, d = hand
            mask = 1 << a | 1 << b | 1 << c | 1 << d
            if mask >> 32 or mask.bit_count() != 4 or full & mask:
                raise ValueError
            full |= mask
            if seat < 1 or not table.marks[seat - 1]:
                raise ValueError
            dealt[seat - 1] = (a, b, c, d)
            masks[seat - 1] = mask
    except (ValueError, TypeError, IndexError):
        _explain_deal(table, cards)
    if len(cards) != len(table.playing):
        _explain_deal(table, cards)
    return tuple(dealt), masks


def _explain_deal(table: Table, cards: Mapping[int, Sequence[Card]]) -> NoReturn:
    for s in range(table.n):
        if table.marks[s] and s + 1 not in cards:
            raise RecordError(f"cards.{s + 1}", "missing: the seat has marks")
    for seat in cards:
        if seat not in range(1, table.n + 1) or not table.marks[seat - 1]:
            raise RecordError(f"cards.{seat}", "only seats with marks get cards")
    seen: set[int] = set()
    for seat, hand in cards.items():
        if len(hand) != 4:
            raise RecordError(f"cards.{seat}", "each seat gets 4 cards")
        for i, card in enumerate(hand):
            if type(card) is not int or not 0 <= card < 32:
                raise RecordError(f"cards.{seat}[{i}]", f"no such card: {card!r}")
            if card in seen:
                raise RecordError(f"cards.{seat}[{i}]", f"{card_str(card)} dealt twice")
            seen.add(card)
    raise RecordError("cards", "impossible deal")  # not reached


class Table:
    """What follows from (rules, marks, dealer) alone, validated once and
    shared by every hand with the same start."""

    __slots__ = (
        "caps",
        "dealer",
        "forehand",
        "hammer",
        "in_hand",
        "knockers",
        "marks",
        "marks_json",
        "n",
        "playing",
        "rules",
    )

    def __init__(self, rules: RuleSet, marks: tuple[int, ...], dealer: int) -> None:
        # One pass over the seats: a game meets a new (marks, dealer) start
        # in about every third hand, so this runs often in simulations.
        n = len(marks)
        self.rules = rules
        self.n = n
        self.marks = marks
        self.marks_json = dict(zip(_SEAT_KEYS, marks, strict=False))  # for views
        self.dealer = dealer
        playing = []
        in_hand = 0
        caps = []
        # top[c]: the seats whose marks allow knocking up to c, no higher.
        top = [0] * (rules.max_value + 2)
        cap_of = rules.knock_cap
        for s, m in enumerate(marks):
            bit = 1 << s
            if m:
                playing.append(s)
                in_hand |= bit
            cap = cap_of(m)
            caps.append(cap)
            top[cap] |= bit
        self.playing = tuple(playing)
        self.in_hand = in_hand
        self.caps = tuple(caps)
        # knockers[v]: bit mask of the seats whose marks allow knocking to v.
        for v in range(rules.max_value, -1, -1):
            top[v] |= top[v + 1]
        self.knockers = tuple(top)
        # Forehand: first seat clockwise from the dealer that has marks (§2).
        after = SEATS_AFTER[n]
        self.forehand = forehand = next(s for s in after[dealer] if marks[s])
        # The hammer: first 1-mark seat clockwise from forehand (§6).
        self.hammer = -1
        if rules.hammer_knocks and 1 in marks:
            order = (forehand, *after[forehand])
            self.hammer = next((s for s in order if marks[s] == 1), -1)


_TABLES: dict[tuple[int, tuple[tuple[int, int], ...], int], Table] = {}
#: Bounded (a table is about 1 kB), but with room for the starts a long
#: simulation meets: a table of four under the championship rules has at
#: most 8 ** 4 marks × 4 dealers of them, and a miss (checks and a new
#: Table) costs more than dealing the hand.
_TABLES_LIMIT = 1 << 14


def table_for(rules: RuleSet, marks: Mapping[int, int], dealer: int) -> Table:
    """Return the validated, cached Table; raise RecordError if impossible."""
    if type(dealer) is not int:  # before it is hashed into the cache key
        raise RecordError("dealer", "expected a seat number")
    # Keyed by identity: hashing a RuleSet on every deal costs more than
    # the whole lookup; ``table.rules is rules`` guards against reused ids.
    key = (id(rules), tuple(marks.items()), dealer)
    table = _TABLES.get(key)
    if table is not None and table.rules is rules:
        return table
    n = len(marks)
    try:
        start = tuple(marks[s] for s in range(1, n + 1))
    except (KeyError, TypeError):
        raise RecordError("marks", "seats must be numbered 1..n") from None
    if not rules.min_seats <= n <= rules.max_seats:
        raise RecordError(
            "marks",
            f"{n} seats; {rules.name} is played by "
            f"{rules.min_seats}-{rules.max_seats} players",
        )
    for seat, m in enumerate(start, 1):
        if type(m) is not int or not 0 <= m <= rules.start_marks:
            raise RecordError(
                f"marks.{seat}", f"{m} marks is impossible (0-{rules.start_marks})"
            )
    if sum(1 for m in start if m) < 2:
        raise RecordError("marks", "a hand needs at least two seats with marks")
    if type(dealer) is not int or not 1 <= dealer <= n or not start[dealer - 1]:
        raise RecordError("dealer", f"dealer {dealer} is not a seat with marks")
    if len(_TABLES) >= _TABLES_LIMIT:
        _TABLES.clear()
    table = _TABLES[key] = Table(rules, start, dealer - 1)
    return table
