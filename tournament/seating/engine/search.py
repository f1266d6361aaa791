"""Local search over the series still to be seated: swap two players.

The state is a list of *mutable* series (tables of player indices ``0..n-1``;
the sizes of the table slots never change). Their cost, lexicographic through
its weights, ranks in this order:

1. sittings at tables of three above ``three_bound`` per player;
2. repeated meetings ``E`` (counting the fixed, already played series);
3. meetings of two members of one club;
4. the standings objective of one series (squared distance of a player's
   table from the table his rank asks for);
5. the spread of meetings: ``Σ SPREAD**m`` over pairs, which for small
   fields orders by the most frequent pair first, then by how many pairs meet
   that often, and so on ("no pair meets more often than necessary").

Each tier's weight exceeds what all lower tiers can change in one move, so a
move never trades a higher tier for lower ones.

A move swaps two players of different tables in one series; its change of
cost is computed from the two tables alone. Moves are aimed at a conflict
(a repeated or same-club pair, or a player over the three-table bound), the
best non-tabu swap is taken, and a stall restarts from the best state with a
small random shake. Budgets count iterations, never seconds, so one seed
always gives one result.

Two larger moves serve the draws after a change. ``relabel``: two players
trade places in every series at once, which keeps a design's structure (no
pair of the new series meets twice) and changes only who sits at the tables
of three and who meets a partner of a played series. ``repair``: one or two
whole series seated anew by an exact backtracking search, so that nobody in
them meets anyone twice; it settles a last repeat that no single swap can.
``ease``: the same re-seating, two series at a time, holding everyone to the
bound on tables of three; from a design that repeats nothing it moves the
tables of three off those who sat at one before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

SMALL = 16  # fields this small take a shorter tabu tenure
RESTARTS = 8  # fruitless restarts before giving up
SPREAD = 128  # a pair meeting m times costs SPREAD**m in the lowest tier
RESEAT_NODES = 20_000  # steps of one exact re-seating of a series

Tables = list[list[int]]


@dataclass
class Problem:
    """What the search needs besides the start: all indexed ``0..n-1``."""

    n: int
    series: int  # total number of series, played ones included
    fixed_meet: dict[tuple[int, int], int] = field(default_factory=dict)
    clubs: list[int] | None = None  # club number per player, -1 for none
    fixed_three: list[int] | None = None  # tables of three already sat at
    three_bound: int = 0
    # For one mutable series (index into the mutable list): each player's
    # preferred table index.
    standings: tuple[int, list[int]] | None = None


class Search:
    """Mutable seating with incremental costs; see the module docstring."""

    def __init__(
        self,
        problem: Problem,
        start: list[Tables],
        rng: random.Random,
        *,
        tenure: tuple[int, int] | None = None,
    ):
        self.p = problem
        self.rng = rng
        self.club = problem.clubs or [-1] * problem.n
        self.clubbed = max(self.club, default=-1) >= 0
        self.base_three = problem.fixed_three or [0] * problem.n
        top = problem.series + 2
        tables = max(len(s) for s in start) if start else 1
        # One swap changes at most 24 pair counts and two three-counts.
        spread: list[int] = [SPREAD**m for m in range(top + 1)]
        w_standings = 24 * spread[top] + 1
        w_club = w_standings * 4 * (tables + 1) ** 2 + 1
        w_repeat = 25 * w_club
        self.w_three: int = 25 * w_repeat
        cost: list[list[int]] = [
            [
                spread[m] + w_repeat * max(0, m - 1) + same * w_club * m
                for m in range(top)
            ]
            for same in (0, 1)
        ]
        self.w_standings = w_standings
        self.w_repeat = w_repeat
        self.up = [[c[m + 1] - c[m] for m in range(top - 1)] for c in cost]
        self.sizes = [[len(t) for t in tables] for tables in start]
        self.tenure = tenure or ((1, 4) if problem.n <= SMALL else (3, 10))
        self.load(start)

    # -- state ---------------------------------------------------------------

    def load(self, tables: list[Tables]) -> None:
        """Make ``tables`` the current state and recompute every count."""
        n = self.p.n
        self.tables = [[list(t) for t in series] for series in tables]
        self.where = [[0] * n for _ in tables]
        self.meet: list[dict[int, int]] = [{} for _ in range(n)]
        for (a, b), m in self.p.fixed_meet.items():
            self.meet[a][b] = self.meet[b][a] = m
        self.three = list(self.base_three)
        self.bad: dict[tuple[int, int], None] = {}
        for (a, b), m in self.p.fixed_meet.items():
            self._check(a, b, m)
        for h, series in enumerate(self.tables):
            for t, table in enumerate(series):
                for i, a in enumerate(table):
                    self.where[h][a] = t
                    if len(table) == 3:
                        self.three[a] += 1
                    for b in table[i + 1 :]:
                        self._bump(a, b, 1)
        self.excess = {a: None for a in range(n) if self.three[a] > self.p.three_bound}
        self.cost = self._full_cost()

    def _full_cost(self) -> int:
        total = 0
        for a in range(self.p.n):
            total += self.w_three * max(0, self.three[a] - self.p.three_bound)
            for b, m in self.meet[a].items():
                if a < b:
                    same = int(self.club[a] >= 0 and self.club[a] == self.club[b])
                    total += sum(self.up[same][k] for k in range(m))
        if self.p.standings is not None:
            h, want = self.p.standings
            total += self.w_standings * sum(
                (self.where[h][a] - want[a]) ** 2 for a in range(self.p.n)
            )
        return total

    def _same(self, a: int, b: int) -> int:
        return int(self.club[a] >= 0 and self.club[a] == self.club[b])

    def _check(self, a: int, b: int, m: int) -> None:
        key = (a, b) if a < b else (b, a)
        if m >= 2 or (m and self._same(a, b)):
            self.bad[key] = None
        else:
            self.bad.pop(key, None)

    def _bump(self, a: int, b: int, d: int) -> None:
        m = self.meet[a].get(b, 0) + d
        self.meet[a][b] = self.meet[b][a] = m
        self._check(a, b, m)

    def _three_cost(self, a: int, d: int) -> int:
        bound = self.p.three_bound
        old, new = self.three[a], self.three[a] + d
        return self.w_three * (max(0, new - bound) - max(0, old - bound))

    def repeats(self) -> int:
        """Repeated meetings E of the whole seating, played series included."""
        return sum(max(0, m - 1) for row in self.meet for m in row.values()) // 2

    def over_three(self) -> int:
        """Sittings at tables of three above the bound, over all players."""
        return sum(max(0, c - self.p.three_bound) for c in self.three)

    # -- moves ---------------------------------------------------------------

    def delta(self, h: int, a: int, b: int) -> int:
        """Cost change of swapping ``a`` and ``b`` (different tables) in ``h``."""
        where = self.where[h]
        ta, tb = where[a], where[b]
        here, there = self.tables[h][ta], self.tables[h][tb]
        # The hottest loop of the package: pair costs inlined, and without
        # clubs nobody's pair is of one club, so one cost row serves all.
        if self.clubbed:
            d = self._club_pairs(here, there, a, b)
        else:
            ma, mb, up = self.meet[a], self.meet[b], self.up[0]
            d = 0
            for r in here:
                if r != a:
                    d += up[mb.get(r, 0)] - up[ma[r] - 1]
            for r in there:
                if r != b:
                    d += up[ma.get(r, 0)] - up[mb[r] - 1]
        if len(here) != len(there):
            step = 1 if len(there) == 3 else -1
            d += self._three_cost(a, step) + self._three_cost(b, -step)
        if self.p.standings is not None and self.p.standings[0] == h:
            want = self.p.standings[1]
            d += self.w_standings * (
                (tb - want[a]) ** 2
                - (ta - want[a]) ** 2
                + (ta - want[b]) ** 2
                - (tb - want[b]) ** 2
            )
        return d

    def _club_pairs(self, here: list[int], there: list[int], a: int, b: int) -> int:
        """Pair-cost change of ``a`` (of ``here``) and ``b`` swapping tables."""
        up, club = self.up, self.club
        ma, mb = self.meet[a], self.meet[b]
        ca, cb = club[a], club[b]
        d = 0
        for r in here:
            if r != a:
                cr = club[r]
                d += up[cb >= 0 and cb == cr][mb.get(r, 0)]
                d -= up[ca >= 0 and ca == cr][ma[r] - 1]
        for r in there:
            if r != b:
                cr = club[r]
                d += up[ca >= 0 and ca == cr][ma.get(r, 0)]
                d -= up[cb >= 0 and cb == cr][mb[r] - 1]
        return d

    def swap(self, h: int, a: int, b: int) -> None:
        """Swap ``a`` and ``b`` in series ``h``, keeping every count current."""
        self.cost += self.delta(h, a, b)
        where = self.where[h]
        ta, tb = where[a], where[b]
        here, there = self.tables[h][ta], self.tables[h][tb]
        for r in here:
            if r != a:
                self._bump(a, r, -1)
                self._bump(b, r, 1)
        for r in there:
            if r != b:
                self._bump(b, r, -1)
                self._bump(a, r, 1)
        here[here.index(a)] = b
        there[there.index(b)] = a
        where[a], where[b] = tb, ta
        if len(here) != len(there):
            step = 1 if len(there) == 3 else -1
            for x, d in ((a, step), (b, -step)):
                self.three[x] += d
                if self.three[x] > self.p.three_bound:
                    self.excess[x] = None
                else:
                    self.excess.pop(x, None)

    # -- the search ----------------------------------------------------------

    def _conflict(self) -> tuple[int, int] | None:
        """A (series, player) whose move could remove a conflict, or None."""
        while self.bad or self.excess:
            if self.excess and (not self.bad or self.rng.random() < 0.5):
                a = self.rng.choice(list(self.excess))
                hs = [
                    h
                    for h, sizes in enumerate(self.sizes)
                    if sizes[self.where[h][a]] == 3 and 4 in sizes
                ]
                if hs:
                    return self.rng.choice(hs), a
                del self.excess[a]  # only played series put him there
                continue
            pair = self.rng.choice(list(self.bad))
            a, b = pair
            hs = [
                h
                for h in range(len(self.tables))
                if self.where[h][a] == self.where[h][b]
            ]
            if hs:
                return self.rng.choice(hs), self.rng.choice(pair)
            del self.bad[pair]  # they met in played series only
        return None

    def _moves(self) -> list[tuple[int, int, int]] | None:
        """Swaps to consider now; ``None`` when no conflict is left."""
        found = self._conflict()
        if found is None:
            return None
        h, a = found
        return [(h, a, b) for b in self._candidates(h, a)]

    def _candidates(self, h: int, a: int) -> Sequence[int]:
        tables = self.tables[h]
        ta = self.where[h][a]
        if len(tables) <= 64:
            return [b for t, table in enumerate(tables) if t != ta for b in table]
        # Large fields: a random sample, plus the nearby tables where the
        # standings want a player to stay.
        near = 8 if self.p.standings is not None and self.p.standings[0] == h else 2
        picks = {t for t in range(ta - near, ta + near + 1) if 0 <= t < len(tables)}
        picks.update(self.rng.sample(range(len(tables)), 48))
        picks.discard(ta)
        return [b for t in sorted(picks) for b in tables[t]]

    def run(
        self, max_iters: int, target: int | None = None, restarts: int = RESTARTS
    ) -> list[Tables]:
        """Search; return the best series found (the state ends there too).

        ``restarts``: fruitless restarts from the best state before giving up.
        """
        best_cost, best = self.cost, [[list(t) for t in s] for s in self.tables]
        tabu = [[0] * self.p.n for _ in self.tables]
        stall = fruitless = 0
        for it in range(1, max_iters + 1):
            if target is not None and self.cost <= target:
                break
            moves = self._moves()
            if moves is None:
                break
            choice: tuple[int, int, int] | None = None
            choice_d = ties = 0
            for h, a, b in moves:
                d = self.delta(h, a, b)
                if (tabu[h][a] > it or tabu[h][b] > it) and self.cost + d >= best_cost:
                    continue
                if choice is None or d < choice_d:
                    choice, choice_d, ties = (h, a, b), d, 1
                elif d == choice_d:
                    ties += 1
                    if self.rng.randrange(ties) == 0:
                        choice = (h, a, b)
            if choice is None:
                continue
            h, a, b = choice
            self.swap(h, a, b)
            tabu[h][a] = it + self.rng.randint(*self.tenure)
            tabu[h][b] = it + self.rng.randint(*self.tenure)
            if self.cost < best_cost:
                best_cost, stall, fruitless = self.cost, 0, 0
                best = [[list(t) for t in s] for s in self.tables]
            else:
                stall += 1
            if stall > 100 + 2 * self.p.n:
                fruitless += 1
                if fruitless > restarts:
                    break  # the conflicts left are most likely unavoidable
                self.load(best)
                self._shake()
                stall = 0
        if self.cost > best_cost:
            self.load(best)
        return [[list(t) for t in s] for s in self.tables]

    def polish(self, max_iters: int) -> list[Tables]:
        """Tabu search on the standings series alone, toward wanted tables.

        Run after the conflicts are gone: picks a player away from the table
        his rank asks for and makes the best swap with someone seated between
        (or next to) the two tables. Conflicts still outweigh everything, so
        the best state found never trades one back in.
        """
        if self.p.standings is None:
            return [[list(t) for t in s] for s in self.tables]
        h, want = self.p.standings
        where, tables = self.where[h], self.tables[h]
        last = len(tables) - 1
        off = [a for a in range(self.p.n) if where[a] != want[a]]
        best_cost, best = self.cost, [[list(t) for t in s] for s in self.tables]
        tabu = [0] * self.p.n
        for it in range(1, max_iters + 1):
            if not off:
                break
            a = off[self.rng.randrange(len(off))]
            lo, hi = sorted((where[a], want[a]))
            choice, choice_d = -1, 0
            for t in range(max(0, lo - 1), min(last, hi + 1) + 1):
                if t == where[a]:
                    continue
                for b in tables[t]:
                    d = self.delta(h, a, b)
                    if self._worsens_conflicts(d, h, a, b):
                        continue
                    if tabu[b] > it and self.cost + d >= best_cost:
                        continue
                    if choice < 0 or d < choice_d:
                        choice, choice_d = b, d
            if choice < 0:
                continue
            self.swap(h, a, choice)
            tabu[a] = tabu[choice] = it + self.rng.randint(*self.tenure)
            off = [x for x in off if where[x] != want[x]]
            off += [x for x in (a, choice) if where[x] != want[x] and x not in off]
            if self.cost < best_cost:
                best_cost, best = self.cost, [[list(t) for t in s] for s in self.tables]
        if self.cost > best_cost:
            self.load(best)
        return [[list(t) for t in s] for s in self.tables]

    def _worsens_conflicts(self, d: int, h: int, a: int, b: int) -> bool:
        """Whether a swap with cost change ``d`` adds to a tier above standings.

        Those tiers move in whole multiples of the repeat weight; standings
        and spread together change by less than half of one.
        """
        want = self.p.standings[1] if self.p.standings else []
        ta, tb = self.where[h][a], self.where[h][b]
        moved = (tb - want[a]) ** 2 - (ta - want[a]) ** 2
        moved += (ta - want[b]) ** 2 - (tb - want[b]) ** 2
        rest = d - self.w_standings * moved
        return (rest + self.w_repeat // 2) // self.w_repeat > 0

    # -- relabelling players -------------------------------------------------

    def exchange(self, a: int, b: int) -> None:
        """``a`` and ``b`` trade places in every series (a relabelling)."""
        for h, where in enumerate(self.where):
            if where[a] != where[b]:
                self.swap(h, a, b)

    def relabel(self, steps: int) -> None:
        """Tabu search over relabellings: a player in a conflict trades places
        in every series with whoever makes the cost lowest.

        Started from a design laid around a played series, the series among
        themselves repeat nothing whoever sits where; what is left to fix is
        who sits at the ghosts' tables of three and who meets a partner of
        a played series - both a matter of who takes which point. Ends in
        the best state met.
        """
        n = self.p.n
        best_cost, best = self.cost, [[list(t) for t in s] for s in self.tables]
        tabu = [0] * n
        for it in range(1, steps + 1):
            hot = [a for a in self.excess if self.three[a] > self._least_three(a)]
            hot += [
                x
                for a, b in self.bad
                if any(w[a] == w[b] for w in self.where)
                for x in (a, b)
            ]
            if not hot:
                break
            a = self.rng.choice(hot)
            base = self.cost
            choice, choice_d, ties = -1, 0, 0
            for b in range(n):
                if b == a:
                    continue
                self.exchange(a, b)
                d = self.cost - base
                self.exchange(a, b)
                if tabu[b] > it and base + d >= best_cost:
                    continue
                if choice < 0 or d < choice_d:
                    choice, choice_d, ties = b, d, 1
                elif d == choice_d:
                    ties += 1
                    if self.rng.randrange(ties) == 0:
                        choice = b
            if choice < 0:
                continue
            self.exchange(a, choice)
            tabu[a] = tabu[choice] = it + self.rng.randint(*self.tenure)
            if self.cost < best_cost:
                best_cost, best = self.cost, [[list(t) for t in s] for s in self.tables]
        if self.cost > best_cost:
            self.load(best)

    def _least_three(self, a: int) -> int:
        """The tables of three ``a`` is at least at: those played and the bound."""
        return max(self.p.three_bound, self.base_three[a])

    # -- re-seating whole series -------------------------------------------

    def repair(self) -> None:
        """Re-seat whole series that hold a repeated meeting, while it helps.

        A swap moves two players; a repeat left after the search often needs
        a whole series laid anew around the others, or two series at once.
        Each series with a repeated pair is re-seated exactly (``reseat``),
        alone and then with each other series; a seating is kept when its
        cost falls.
        """
        better = True
        while better and self.repeats():
            better = False
            series = list(range(len(self.tables)))
            self.rng.shuffle(series)
            held = [h for h in series if self.clashes(h)]
            tries = [[h] for h in held]
            tries += [[h, k] for h in held for k in series if k != h]
            for hs in tries:
                if self.clashes(hs[0]) and self.reseat(hs):
                    better = True
                    break

    def ease(self) -> None:
        """Re-seat pairs of series exactly, everyone held to the bound on
        tables of three, while sittings above it are left and it helps.

        A design laid around a played series repeats nothing, but its tables
        of three may fall on players who already sat at one; the design's
        own structure cannot move them all (relabelling trades them for
        repeats). Two series seated anew around the others often can.
        """
        floor = sum(max(0, c - self.p.three_bound) for c in self.base_three)
        count = len(self.tables)
        groups = list(combinations(range(count), 2)) if count > 1 else [(0,)]
        better = True
        while better:
            better = False
            for hs in groups:
                if self.over_three() <= floor:
                    return
                better = self.reseat(list(hs), strict=True) or better

    def reseat(self, hs: list[int], *, strict: bool = False) -> bool:
        """Seat the series ``hs`` anew so that nobody in them meets anyone he
        meets elsewhere (or in another of them), and nobody sits at more
        tables of three than the bound allows (or than now, unless
        ``strict``); keep it if the cost falls. Backtracking over players in
        an order drawn by lot (the first free player opens a table, its
        others join in that order), within ``RESEAT_NODES`` steps."""
        n, bound = self.p.n, self.p.three_bound
        order = list(range(n))
        self.rng.shuffle(order)
        rank = [0] * n
        for i, a in enumerate(order):
            rank[a] = i
        sizes = self.sizes[hs[0]]
        apart = [0] * n  # per rank: bit mask of ranks not met elsewhere
        room = [0] * n  # per rank: tables of three he may still take
        for a in range(n):
            mask = 0
            here = [self.where[h][a] for h in hs]
            for b, m in self.meet[a].items():
                if m > sum(
                    self.where[h][b] == t for h, t in zip(hs, here, strict=True)
                ):
                    mask |= 1 << rank[b]
            apart[rank[a]] = ((1 << n) - 1) & ~mask & ~(1 << rank[a])
            now = sum(self.sizes[h][t] == 3 for h, t in zip(hs, here, strict=True))
            room[rank[a]] = bound - (self.three[a] - now)
            if not strict:
                room[rank[a]] = max(now, room[rank[a]])
        threes = sum(1 << r for r in range(n) if room[r] > 0)
        steps = 0
        found: list[int] = []  # bit masks of the tables, as ranks, in order
        per_series = len(sizes)
        left = {4: 0, 3: 0}

        def grow(free: int, table: int, pick: int, size: int) -> bool:
            # ``pick``: free players of higher rank than the table's last.
            nonlocal steps, threes
            steps += 1
            if steps > RESEAT_NODES:
                return False
            if table.bit_count() == size:
                members = [r for r in range(n) if table >> r & 1]
                for r in members:
                    apart[r] &= ~table
                    if size == 3:
                        room[r] -= 1
                        if not room[r]:
                            threes &= ~(1 << r)
                found.append(table)
                if place(free & ~table):
                    return True
                found.pop()
                for r in members:
                    apart[r] |= table & ~(1 << r)
                    if size == 3:
                        room[r] += 1
                        threes |= 1 << r
                return False
            while pick:
                low = pick & -pick
                pick ^= low
                r = low.bit_length() - 1
                if not table & ~apart[r] and grow(free, table | low, pick, size):
                    return True
            return False

        def place(free: int) -> bool:
            if not free:
                if len(found) == per_series * len(hs):
                    return True
                left[4], left[3] = sizes.count(4), sizes.count(3)
                ok = place((1 << n) - 1)
                left[4] = left[3] = 0
                return ok
            first = free & -free
            for size in (4, 3):
                if not left[size] or (size == 3 and not first & threes):
                    continue
                pick = free & ~((first << 1) - 1)
                if size == 3:
                    pick &= threes
                left[size] -= 1
                ok = grow(free, first, pick, size)
                left[size] += 1
                if ok:
                    return True
            return False

        if not place(0):
            return False
        old = [[list(t) for t in s] for s in self.tables]
        cost = self.cost
        state = [[list(t) for t in s] for s in self.tables]
        for k, h in enumerate(hs):
            made = [
                [order[r] for r in range(n) if table >> r & 1]
                for table in found[k * per_series : (k + 1) * per_series]
            ]
            by_size = {z: [t for t in made if len(t) == z] for z in (3, 4)}
            state[h] = [by_size[size].pop() for size in sizes]
        self.load(state)
        if self.cost < cost:
            return True
        self.load(old)
        return False

    def clashes(self, h: int) -> int:
        """Pairs seated together in series ``h`` who meet elsewhere too."""
        out = 0
        for table in self.tables[h]:
            for i, a in enumerate(table):
                out += sum(self.meet[a][b] >= 2 for b in table[i + 1 :])
        return out

    def _shake(self) -> None:
        """A few random swaps, to leave a local minimum."""
        for _ in range(max(2, self.p.n // 8)):
            h = self.rng.randrange(len(self.tables))
            tables = self.tables[h]
            if len(tables) < 2:
                return
            t1, t2 = self.rng.sample(range(len(tables)), 2)
            self.swap(h, self.rng.choice(tables[t1]), self.rng.choice(tables[t2]))
