"""One hand of 7-Schräm as a state machine (docs/RULES.md §2-§7).

Verbs: ``legal_actions()``, ``apply(action)``, ``outcome()``, ``view(seat)``,
``clone()``.  Seats are 1-based in every public name; inside, the state works
with 0-based seat indices, bit masks and tuples so that a random playout and a
``clone()`` stay cheap (see bench/engine.py).  Knocks and looks are
interrupts: ``legal_actions()`` lists the actions of every seat that may act
now, not only of the seat the hand is waiting for.

Everything else is read through properties and methods that return fresh or
immutable values (nothing outside this module reads a private field):

- public to every seat: ``rules``, ``seats``, ``dealer``, ``forehand``,
  ``start_marks`` (and ``start_marks_json``), ``value``, ``finished``,
  ``in_hand``, ``looked``, ``folded``, ``last_knocker``, ``blind_knocks``,
  ``history``, ``tricks``, ``trick``, ``to_move()``, ``loss_so_far()``,
  ``legal_without_plays()``;
- one seat's secret, for that seat only: ``unplayed(seat)``, and the plays
  of the seat due to play (in ``legal_actions()``, ``legal_actions(seat)``
  and ``legal_plays()``) -- its view shows neither before it has looked;
- for records only, never for players: ``dealt``.

``view(seat)`` (``scoring.views``) combines them into what a seat may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, NoReturn

from .actions import FOLD, HOLD, KNOCK, LOOK, MAX_SEATS, PLAYS_BY_BYTE, Action
from .cards import DECK, SUIT_MASK, Card, cards_of
from .errors import IllegalAction
from .jsonio import encode
from .outcomes import HandOutcome
from .rules import CHAMPIONSHIP, RuleSet
from .setup import SEATS_AFTER, Table, check_deal, table_for
from .views import hand_view

#: A finished trick: (seats in play order, their cards, the winning seat).
Trick = tuple[tuple[int, ...], tuple[Card, ...], int]

#: _SEATS_IN[mask]: the seat numbers whose bits (seat - 1) are set, ascending.
_SEATS_IN = tuple(
    tuple(s + 1 for s in range(MAX_SEATS) if mask >> s & 1)
    for mask in range(1 << MAX_SEATS)
)


class HandState:
    """The full state of one hand, including every seat's hidden cards.

    Never hand this object to a player: use ``view(seat)``.  Build it with
    ``HandState.start`` (explicit cards) or ``HandState.deal`` (from a
    ``random.Random``).
    """

    __slots__ = (
        "_blind_knocks",
        "_caps",
        "_dealer",
        "_dealt",
        "_forehand",
        "_hammer",
        "_hands",
        "_history",
        "_in_hand",
        "_last_knocker",
        "_looked",
        "_loss",
        "_marks",
        "_n",
        "_played_mask",
        "_queue",
        "_rules",
        "_table",
        "_trick_cards",
        "_trick_seats",
        "_tricks",
        "_turn",
        "_value",
        "_winner",
    )

    _table: Table  # what follows from rules, marks and dealer (shared)
    _rules: RuleSet
    _n: int
    _marks: tuple[int, ...]  # marks at the start of the hand, per seat index
    _dealt: tuple[tuple[Card, ...], ...]  # the deal as given; () for seats out
    _caps: tuple[int, ...]  # highest value each seat may knock to
    _dealer: int
    _forehand: int
    _hands: list[int]  # unplayed cards per seat index, as bit masks
    _in_hand: int  # bit mask of seats neither out of the game nor folded
    _looked: int  # bit mask of seats that have looked (or played)
    _value: int
    _last_knocker: int  # seat index of the most recent knock, -1 if none
    _blind_knocks: int
    _queue: tuple[int, ...]  # seats still to answer the waiting knock, in order
    _hammer: int  # seat that must knock first (§6), -1 if none or done
    _turn: int  # seat due to play when no knock is waiting
    _trick_seats: tuple[int, ...]  # seat numbers (1-based), as in ``tricks``
    _trick_cards: tuple[Card, ...]
    _played_mask: int  # seats that have played to the current trick
    _tricks: list[Trick]
    _loss: list[int]
    _winner: int  # seat index, -1 while the hand runs
    _history: list[Action]

    # -- construction -----------------------------------------------------

    @classmethod
    def start(
        cls,
        marks: Mapping[int, int],
        dealer: int,
        cards: Mapping[int, Sequence[Card]],
        rules: RuleSet = CHAMPIONSHIP,
    ) -> HandState:
        """Start a hand from an explicit deal; raise RecordError if impossible.

        ``marks`` names every seat 1..n of the table (0 = out of the game);
        ``cards`` gives 4 distinct cards to exactly the seats with marks.
        """
        table = table_for(rules, marks, dealer)
        return cls._new(table, *check_deal(table, cards))

    @classmethod
    def deal(
        cls,
        marks: Mapping[int, int],
        dealer: int,
        rng: Random,
        rules: RuleSet = CHAMPIONSHIP,
    ) -> HandState:
        """Deal from a uniformly shuffled pack drawn with ``rng`` and start.

        Raises RecordError for impossible ``marks`` or ``dealer``.
        """
        table = table_for(rules, marks, dealer)
        k = 4 * len(table.playing)
        drawn = _sample(rng, k) if type(rng) is Random else rng.sample(DECK, k)
        dealt: list[tuple[Card, ...]] = [()] * table.n
        masks = [0] * table.n
        i = 0
        for s in table.playing:
            dealt[s] = a, b, c, d = drawn[i], drawn[i + 1], drawn[i + 2], drawn[i + 3]
            masks[s] = 1 << a | 1 << b | 1 << c | 1 << d
            i += 4
        return cls._new(table, tuple(dealt), masks)

    @classmethod
    def _new(
        cls, table: Table, dealt: tuple[tuple[Card, ...], ...], masks: list[int]
    ) -> HandState:
        # Trusted inputs (checked by ``_table`` and ``start``): keep this lean,
        # it runs once per hand of every simulation.
        self = cls.__new__(cls)
        self._table = table
        self._rules = table.rules
        self._n = table.n
        self._marks = table.marks
        self._dealt = dealt
        self._caps = table.caps
        self._dealer = table.dealer
        self._forehand = table.forehand
        self._hammer = table.hammer
        self._turn = table.forehand
        self._in_hand = table.in_hand
        self._hands = masks
        self._looked = 0
        self._value = 1
        self._last_knocker = -1
        self._blind_knocks = 0
        self._queue = ()
        self._trick_seats = ()
        self._trick_cards = ()
        self._played_mask = 0
        self._tricks = []
        self._loss = [0] * table.n
        self._winner = -1
        self._history = []
        return self

    def clone(self) -> HandState:
        """Return an independent copy (a handful of list copies, no deepcopy)."""
        c = HandState.__new__(HandState)
        c._table = self._table
        c._rules = self._rules
        c._n = self._n
        c._marks = self._marks
        c._dealt = self._dealt
        c._caps = self._caps
        c._dealer = self._dealer
        c._forehand = self._forehand
        c._hands = self._hands.copy()
        c._in_hand = self._in_hand
        c._looked = self._looked
        c._value = self._value
        c._last_knocker = self._last_knocker
        c._blind_knocks = self._blind_knocks
        c._queue = self._queue
        c._hammer = self._hammer
        c._turn = self._turn
        c._trick_seats = self._trick_seats
        c._trick_cards = self._trick_cards
        c._played_mask = self._played_mask
        c._tricks = self._tricks.copy()
        c._loss = self._loss.copy()
        c._winner = self._winner
        c._history = self._history.copy()
        return c

    # -- reading ------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """The rules the hand is played by."""
        return self._rules

    @property
    def seats(self) -> int:
        """Number of seats at the table (seats are 1..seats)."""
        return self._n

    @property
    def dealer(self) -> int:
        """The seat that dealt."""
        return self._dealer + 1

    @property
    def forehand(self) -> int:
        """The seat that leads the first trick (§2)."""
        return self._forehand + 1

    @property
    def value(self) -> int:
        """What the hand is worth now: 1 plus the knocks so far."""
        return self._value

    @property
    def finished(self) -> bool:
        """Whether the hand is over (``outcome()`` is not None)."""
        return self._winner >= 0

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats still in the hand, ascending: they had marks at the start
        and have not folded."""
        return _SEATS_IN[self._in_hand]

    @property
    def looked(self) -> tuple[int, ...]:
        """Seats that have looked at their cards (playing one counts),
        ascending.  Public: the table sees who looks."""
        return _SEATS_IN[self._looked]

    @property
    def folded(self) -> dict[int, int]:
        """Seats that folded, each with the marks it paid on folding (the
        value before the knock it folded to, at most its marks)."""
        gone = self._table.in_hand & ~self._in_hand
        if not gone:
            return {}
        loss = self._loss
        return {s: loss[s - 1] for s in _SEATS_IN[gone]}

    @property
    def last_knocker(self) -> int | None:
        """Seat of the most recent knock, None before the first."""
        return self._last_knocker + 1 if self._last_knocker >= 0 else None

    @property
    def blind_knocks(self) -> int:
        """Knocks made so far by seats that had not looked (docs/RULES.md §5; the
        hammer's if the rules count it)."""
        return self._blind_knocks

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks in order, each ``(seats, cards, winner)``:
        the seats in play order, the cards they played (face up, a folded
        seat's too), the seat that won it."""
        return tuple(self._tricks)

    @property
    def trick(self) -> tuple[tuple[int, ...], tuple[Card, ...]]:
        """The trick in progress as ``(seats, cards)`` in play order; both
        empty between tricks."""
        return self._trick_seats, self._trick_cards

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
        return tuple(self._history)

    @property
    def start_marks(self) -> dict[int, int]:
        """Marks of every seat at the start of the hand."""
        return {s + 1: m for s, m in enumerate(self._marks)}

    @property
    def start_marks_json(self) -> dict[str, int]:
        """``start_marks`` keyed by seat number as text, as in JSON (a fresh
        dict, kept ready: every view shows it)."""
        return dict(self._table.marks_json)

    @property
    def dealt(self) -> dict[int, tuple[Card, ...]]:
        """The deal (hidden information: for records, never for players)."""
        return {s + 1: cards for s, cards in enumerate(self._dealt) if cards}

    def unplayed(self, seat: int) -> list[Card]:
        """Return ``seat``'s unplayed cards (hidden information)."""
        return cards_of(self._hands[seat - 1])

    def to_move(self) -> tuple[int, str] | None:
        """Return (seat, "knock" | "answer" | "play") the hand waits for, or
        None when it is over.  Other seats may still interrupt with a knock or
        a look (see ``legal_actions``)."""
        if self._winner >= 0:
            return None
        if self._hammer >= 0:
            return self._hammer + 1, "knock"
        if self._queue:
            return self._queue[0] + 1, "answer"
        return self._turn + 1, "play"

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Return every action that ``apply`` accepts now (of ``seat`` only, if
        given).  Several seats may appear: knocks and looks are interrupts.

        Plays come first (in card order), then the answer due, then looks and
        knocks clockwise from seat 1; ``seat``'s actions are in the same
        order.  Only the seat due to play has plays: they show its own cards.
        """
        if seat is not None:
            split = self.legal_without_plays()
            if not 0 < seat <= self._n:
                return ()
            t = seat - 1
            if t != self._turn or self._queue or self._hammer >= 0 or self._winner >= 0:
                return split[seat]
            return self._plays(t) + split[seat]
        if self._winner >= 0:
            return ()
        if self._hammer >= 0:
            return (KNOCK[self._hammer],)
        tail = _INTERRUPTS.get(key := self._key())
        if tail is None:
            tail = _interrupts(key)
        if self._queue:
            return tail
        return self._plays(self._turn) + tail

    def legal_without_plays(self) -> tuple[tuple[Action, ...], ...]:
        """Return every seat's legal actions except plays, indexed by seat
        number (index 0 is empty): for each seat not due to play exactly
        ``legal_actions(seat)``, so a table of bots asks this once a move and
        ``legal_actions`` only of the seat due.  Shows no cards: hand each
        seat its own entry."""
        n = self._n
        if self._winner >= 0:
            return _NOTHING[n]
        if self._hammer >= 0:
            return _HAMMER_ONLY[n][self._hammer]
        key = self._key()
        split = _SEAT_INTERRUPTS[n].get(key)
        if split is None:
            split = _seat_interrupts(key, n)
        return split

    def legal_plays(self) -> tuple[Action, ...]:
        """Return the plays ``apply`` accepts now, in card order: all of the
        seat due to play; none while the hammer must knock or a knock waits
        for answers, or once the hand is over.  Hidden information: hand them
        only to that seat.  With ``legal_without_plays()`` this is
        ``legal_actions()`` split by seat."""
        if self._winner >= 0 or self._hammer >= 0 or self._queue:
            return ()
        return self._plays(self._turn)

    def _key(self) -> int:
        """Pack what the answers, looks and knocks of this moment depend on
        into one int (the layout is explained at ``_interrupts``), so that
        they are computed once and reused across hands."""
        queue = self._queue
        if queue:
            return self._in_hand | self._looked << 8 | (queue[0] + 1) << 16 | 1 << 29
        return (
            self._in_hand
            | self._looked << 8
            | (self._last_knocker + 1) << 16
            | self._table.knockers[self._value + 1] << 20
            | (self._blind_knocks < self._rules.max_blind_knocks) << 28
        )

    def _plays(self, t: int) -> tuple[Action, ...]:
        """The legal plays of seat index ``t`` (the seat due to play)."""
        h = self._hands[t]
        by_suit = PLAYS_BY_BYTE[t]
        if self._trick_cards:
            suit = self._trick_cards[0] >> 3
            plays = by_suit[suit][h >> (suit << 3) & 255]
            if plays:
                return plays  # must follow suit
        return (
            by_suit[0][h & 255]
            + by_suit[1][h >> 8 & 255]
            + by_suit[2][h >> 16 & 255]
            + by_suit[3][h >> 24]
        )

    def outcome(self) -> HandOutcome | None:
        """Return the result once the hand is over, else None."""
        if self._winner < 0:
            return None
        marks = self._marks
        loss = self._loss
        losses = {}
        left = {}
        out = []
        for i in range(self._n):
            seat = i + 1
            losses[seat] = x = loss[i]
            left[seat] = m = marks[i] - x
            if not m:
                out.append(seat)
        winner = self._winner + 1
        return HandOutcome(winner, self._value, losses, left, tuple(out), winner)

    def loss_so_far(self) -> dict[int, int]:
        """Marks charged so far (folds are charged at once), per seat."""
        return {s + 1: loss for s, loss in enumerate(self._loss)}

    def view(self, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may see, as a JSON-serialisable dict (None: a
        spectator).  Never contains another seat's unplayed cards; see
        ``scoring.views`` for the keys."""
        return hand_view(self, seat)

    def view_json(self, seat: int | None) -> str:
        """Return ``view(seat)`` as JSON text, as ``json.dumps`` writes it."""
        return encode(hand_view(self, seat))

    # -- acting -------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action`` or raise IllegalAction (state unchanged) naming
        the rule it breaks."""
        # The common cases are inlined (no helper calls): this runs for every
        # move of every simulated hand.
        s = action.seat - 1
        if self._winner >= 0 or not 0 <= s < self._n:
            self._reject(action)
        bit = 1 << s
        if self._hammer >= 0 or not self._in_hand & bit:
            self._apply_special(action, s, bit)
            return
        act = action.act
        if act == "play":
            if self._queue:
                raise IllegalAction(
                    "play_during_answers",
                    f"seat {self._queue[0] + 1} must first answer the knock",
                    action,
                )
            if s != self._turn:
                raise IllegalAction(
                    "play_out_of_turn", f"seat {self._turn + 1} is to play", action
                )
            card = action.card
            if card is None or not 0 <= card < 32:
                raise IllegalAction("bad_action", "a play needs a card", action)
            cbit = 1 << card
            h = self._hands[s]
            if not h & cbit:
                raise IllegalAction("card_not_in_hand", "card not in hand", action)
            trick = self._trick_cards
            if trick:
                suit = SUIT_MASK[trick[0] >> 3]
                if h & suit and not cbit & suit:
                    raise IllegalAction(
                        "must_follow_suit", "must follow the suit led", action
                    )
            self._hands[s] = h ^ cbit
            self._looked |= bit  # playing a card implies looking (§5)
            self._trick_seats += (s + 1,)
            self._trick_cards = (*trick, card)
            self._played_mask |= bit
            self._history.append(action)
            self._advance(s)
            return
        if action.card is not None:
            raise IllegalAction("bad_action", "only a play carries a card", action)
        if act == "hold" or act == "fold":
            queue = self._queue
            if not queue:
                raise IllegalAction(
                    "no_knock_to_answer", "no knock is waiting for answers", action
                )
            if queue[0] != s:
                raise IllegalAction(
                    "answer_out_of_turn", f"seat {queue[0] + 1} answers next", action
                )
            self._history.append(action)
            self._queue = queue = queue[1:]
            if act == "fold":
                # A fold costs the value before the knock, charged at once.
                m = self._marks[s]
                self._loss[s] = self._value - 1 if self._value <= m else m
                self._in_hand ^= bit
                if self._in_hand == 1 << self._last_knocker:
                    self._finish(self._last_knocker)  # every opponent folded
                    return
            if not queue and not self._in_hand >> self._turn & 1:
                # Play resumes where it stopped; a folded seat due is skipped.
                self._advance(self._turn)
        elif act == "knock":
            if self._queue:
                raise IllegalAction(
                    "knock_during_answers",
                    "no knock while a knock is waiting for answers",
                    action,
                )
            if s == self._last_knocker:
                raise IllegalAction(
                    "knock_twice_in_a_row", "made the most recent knock", action
                )
            nv = self._value + 1
            if nv > self._caps[s]:
                self._reject_knock(action, s, nv)
            if not self._looked & bit:
                if self._blind_knocks >= self._rules.max_blind_knocks:
                    raise IllegalAction(
                        "blind_knock_limit",
                        f"{self._rules.max_blind_knocks} blind knocks made; look first",
                        action,
                    )
                self._blind_knocks += 1
            self._knocked(s, nv, action)
        elif act == "look":
            if self._looked & bit:
                raise IllegalAction("already_looked", "already looked", action)
            self._looked |= bit
            self._history.append(action)
        else:
            raise IllegalAction("bad_action", f"unknown act {act!r}", action)

    def _reject(self, action: Action) -> NoReturn:
        if self._winner >= 0:
            raise IllegalAction("hand_finished", "the hand is over", action)
        raise IllegalAction("unknown_seat", "no such seat at this table", action)

    def _reject_knock(self, action: Action, s: int, nv: int) -> NoReturn:
        if nv > self._rules.max_value:
            raise IllegalAction(
                "knock_above_max_value",
                f"the value cannot exceed {self._rules.max_value}",
                action,
            )
        raise IllegalAction(
            "knock_above_marks",
            f"with {self._marks[s]} marks seat {s + 1} "
            f"may knock to {self._caps[s]} at most",
            action,
        )

    def _apply_special(self, action: Action, s: int, bit: int) -> None:
        """Seats not in the hand, and the hammer's compulsory opening knock."""
        if not self._in_hand & bit:
            if not self._marks[s]:
                raise IllegalAction(
                    "seat_out_of_game", "a seat with no marks is out", action
                )
            raise IllegalAction(
                "seat_folded", "a folded player takes no further part", action
            )
        if s != self._hammer or action.act != "knock" or action.card is not None:
            raise IllegalAction(
                "hammer_must_knock",
                f"seat {self._hammer + 1} has 1 mark and must first knock blind to 2",
                action,
            )
        # Legal above the hammer's marks, and blind by definition (§6).
        self._hammer = -1
        if self._rules.hammer_knock_is_blind:
            self._blind_knocks += 1
        self._knocked(s, self._value + 1, action)

    def _knocked(self, s: int, value: int, action: Action) -> None:
        self._value = value
        self._last_knocker = s
        # Opponents still in answer in order, clockwise from the knocker's left.
        key = self._n << 11 | s << 8 | self._in_hand
        queue = _QUEUES.get(key)
        if queue is None:
            im = self._in_hand
            queue = _QUEUES[key] = tuple(
                t for t in SEATS_AFTER[self._n][s] if im >> t & 1
            )
        self._queue = queue
        self._history.append(action)

    def _advance(self, s: int) -> None:
        """Pass the turn clockwise from ``s`` to the next seat still in the
        hand that has not played to this trick, or close the trick."""
        todo = self._in_hand & ~self._played_mask
        if not todo:
            self._close_trick()
            return
        n = self._n
        s += 1
        if s == n:
            s = 0
        while not todo >> s & 1:
            s += 1
            if s == n:
                s = 0
        self._turn = s

    def _close_trick(self) -> None:
        seats = self._trick_seats  # seat numbers, 1-based
        cards = self._trick_cards
        im = self._in_hand
        lead = cards[0] >> 3
        winner = first = best = -1
        for i, seat in enumerate(seats):
            if im >> (seat - 1) & 1:
                card = cards[i]
                if card >> 3 == lead and card > best:
                    best = card
                    winner = seat
                elif first < 0:
                    first = seat
        # Dead cards (folded players) fix the suit but cannot win (§4).
        if winner < 0:
            winner = first
        self._tricks.append((seats, cards, winner))
        self._trick_seats = ()
        self._trick_cards = ()
        self._played_mask = 0
        if len(self._tricks) == 4:
            self._finish(winner - 1)
        else:
            self._turn = winner - 1

    def _finish(self, winner: int) -> None:
        self._winner = winner
        self._queue = ()
        value = self._value
        marks = self._marks
        loss = self._loss
        rest = self._in_hand & ~(1 << winner)
        for s in range(self._n):
            if rest >> s & 1:
                loss[s] = value if value < marks[s] else marks[s]


#: _BITS[m]: the random bits ``Random`` draws for a number below m.
_BITS = tuple(m.bit_length() for m in range(len(DECK) + 1))


def _sample(rng: Random, k: int) -> list[Card]:
    """``rng.sample(DECK, k)``: the same cards from the same draws, without a
    method call per card (a random hand spends much of its time dealing).

    CPython's algorithm for a population this small: take a uniformly
    random index among the cards not yet drawn (``getrandbits`` of the
    index's bit length, again while too large), then fill its place with
    the last of them. ``test_deal_draws_as_random_sample`` fails if a
    Python version draws differently."""
    getrandbits = rng.getrandbits
    pool = list(DECK)
    drawn = []
    for m in range(len(pool), len(pool) - k, -1):
        bits = _BITS[m]
        j = getrandbits(bits)
        while j >= m:
            j = getrandbits(bits)
        drawn.append(pool[j])
        pool[j] = pool[m - 1]
    return drawn


#: Answer order after a knock, keyed by table size, knocker and seats in.
_QUEUES: dict[int, tuple[int, ...]] = {}

#: Interrupts by key (see ``_interrupts``): of every seat, and split by seat.
_INTERRUPTS: dict[int, tuple[Action, ...]] = {}
_SEAT_INTERRUPTS: tuple[dict[int, tuple[tuple[Action, ...], ...]], ...] = tuple(
    {} for _ in range(MAX_SEATS + 1)
)  # by table size, then key (keys stay below 2**30: one-digit ints)
#: Either cache is emptied when it reaches this size (reuse is local).
_CACHE_LIMIT = 1 << 16


def _interrupts(key: int) -> tuple[Action, ...]:
    """Cache and return the answers due, then every seat's legal looks and
    knocks (clockwise from seat 1), for the state packed into ``key``:

    - bits 0-7: seats in the hand; bits 8-15: seats that have looked;
    - bits 16-19: 1 + the seat index to answer a waiting knock, else 1 + the
      most recent knocker's (0: none);
    - bits 20-27: seats whose marks allow knocking to the next value (0 when
      the value is at its maximum or a knock waits);
    - bit 28: blind knocks still allowed; bit 29: a knock waits for answers.

    Seats are 0-based indices here, as inside ``HandState``.
    """
    in_hand = key & 255
    looked = key >> 8 & 255
    who = (key >> 16 & 15) - 1
    out: list[Action] = []
    if key >> 29 & 1:
        out += (HOLD[who], FOLD[who])
        knockers = 0
    else:
        knockers = key >> 20 & 255
    blind_ok = key >> 28 & 1
    for s in range(8):
        if in_hand >> s & 1:
            light = looked >> s & 1
            if not light:
                out.append(LOOK[s])
            if knockers >> s & 1 and (light or blind_ok) and s != who:
                out.append(KNOCK[s])
    if len(_INTERRUPTS) >= _CACHE_LIMIT:
        _INTERRUPTS.clear()
    tail = _INTERRUPTS[key] = tuple(out)
    return tail


def _seat_interrupts(key: int, n: int) -> tuple[tuple[Action, ...], ...]:
    """Cache and return ``_interrupts(key)`` split by seat number for a table
    of ``n`` (index 0 empty)."""
    tail = _INTERRUPTS.get(key)
    if tail is None:
        tail = _interrupts(key)
    cache = _SEAT_INTERRUPTS[n]
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    split = cache[key] = ((), *(_only(s, tail) for s in range(1, n + 1)))
    return split


#: legal_without_plays() of a finished hand, and of a hammer's compulsory knock,
#: by table size (and hammer's seat index).
_NOTHING = tuple(((),) * (n + 1) for n in range(MAX_SEATS + 1))
_HAMMER_ONLY = tuple(
    tuple(
        tuple((KNOCK[h],) if s == h + 1 else () for s in range(n + 1)) for h in range(n)
    )
    for n in range(MAX_SEATS + 1)
)


def _only(seat: int, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    return tuple(a for a in actions if a.seat == seat)
