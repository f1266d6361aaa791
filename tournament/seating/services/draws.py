"""The draws of a series offered beside the one taken, and their figures."""

import hashlib
import time
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.utils.translation import gettext as _

from tournament.models import (
    Entry,
    Series,
    Tournament,
)
from tournament.seating import adapter
from tournament.seating.services.common import _digest, _plan, _seat_inputs


@dataclass(frozen=True)
class DrawOption:
    """One draw of a series, summed up as the quality report does (over the
    series so far, this one included): repeated meetings, the tables of this
    series with club mates, the players of this series at a table of three
    more often than the field forces. `seed` and `digest` are what choosing
    it sends (`series_seat`); `seed` is empty for the draw as it stands.
    `pairs`: the names of the pairs meeting again at its tables."""

    seed: str
    digest: str
    repeats: int
    club_tables: int
    three_again: int
    tables_of_three: int
    pairs: list[tuple[str, str]]
    # Its tables as they would be numbered, each its players' names.
    tables: list[list[str]]
    # Repeated meetings over all series of the tournament as its plan has
    # them (the later series planned with it); None where unknown (a draw
    # swapped by hand).
    planned_repeats: int | None = None

    def rank(self) -> tuple[int, int, int, int]:
        """Better draws first, in the engine's order: nobody at a table of
        three more often than needed, then repeats over the whole plan and
        so far, then club mates."""
        return (
            self.three_again,
            self.repeats if self.planned_repeats is None else self.planned_repeats,
            self.repeats,
            self.club_tables,
        )


def _draw_option(
    seed: str,
    tables: adapter.EngineSeries,
    fixed: list[adapter.EngineSeries],
    entries: list[Entry],
    planned: int | None = None,
) -> DrawOption:
    quality = adapter.seating_quality([*fixed, tables], entries)
    by_id = {e.pk: e for e in entries}
    clubs = {e.pk: e.player.club for e in entries if e.player.club}
    three: dict[int, int] = {}
    met: dict[tuple[int, int], int] = {}
    for played in fixed:
        for table in played:
            for p in table:
                three[p] = three.get(p, 0) + (len(table) == 3)
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    bound = int(quality.get("three_bound") or 1)
    club_tables = three_again = 0
    pairs: list[tuple[str, str]] = []
    for table in tables:
        members = [clubs[p] for p in table if p in clubs]
        club_tables += len(members) != len(set(members))
        if len(table) == 3:
            three_again += sum(1 for p in table if three.get(p, 0) + 1 > bound)
        pairs += [
            (by_id[a].player.full_name, by_id[b].player.full_name)
            for a, b in combinations(sorted(table), 2)
            if (a, b) in met and a in by_id and b in by_id
        ]
    return DrawOption(
        seed=seed,
        digest=_digest(tables),
        repeats=int(quality["repeated_meetings"]),
        club_tables=club_tables,
        three_again=three_again,
        tables_of_three=sum(1 for t in tables if len(t) == 3),
        pairs=pairs,
        tables=[
            [
                _("%(name)s (Nr. %(n)d)")
                % {"name": by_id[p].player.full_name, "n": by_id[p].start_number}
                for p in table
                if p in by_id
            ]
            # As `_write_tables` numbers them: tables of 4 first.
            for table in sorted(tables, key=lambda t: -len(t))
        ],
        planned_repeats=planned,
    )


# Draws offered beside a draw that keeps repeats or club mates together, and
# the time they may take together (an engine call after a change takes up
# to about two seconds on a slow machine).
DRAW_OPTIONS = 3


DRAW_OPTIONS_SECONDS = 4.0


def _best_of_draws(
    tournament: Tournament,
    entries: list[Entry],
    fixed: list[adapter.EngineSeries],
    plan: dict[str, Any],
    number: int,
    *,
    kept: bool,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Series `number` as `plan` draws it and up to `DRAW_OPTIONS` other
    draws of it (seeds following from the plan's; none begun once
    `DRAW_OPTIONS_SECONDS` have passed): the best of them by
    `DrawOption.rank` (the plan's own on a tie) and the others, each as
    `{"seed", "tables"}`, for `draw_options` to offer. `kept`: `plan` is
    the tournament's plan from before, which its seed no longer draws
    around these series, so it is not offered once another is better."""
    candidates = [plan]
    started = time.monotonic()
    for i in range(DRAW_OPTIONS):
        if i and time.monotonic() - started >= DRAW_OPTIONS_SECONDS:
            break
        seed = hashlib.sha256(f"{plan['seed']}/{number}/{i}".encode()).hexdigest()
        candidates.append(_plan(tournament, entries, fixed, seed[:16]))
    summed = [
        _draw_option(
            c["seed"], c["series"][number - 1], fixed, entries, _planned(c, entries)
        )
        for c in candidates
    ]
    best = min(range(len(candidates)), key=lambda k: (summed[k].rank(), k))
    seen = {summed[best].digest}
    others: list[dict[str, Any]] = []
    for k, option in enumerate(summed):
        if option.digest in seen or (k == 0 and kept):
            continue
        seen.add(option.digest)
        others.append(
            {
                "seed": option.seed,
                "tables": candidates[k]["series"][number - 1],
                "planned": option.planned_repeats,
            }
        )
    chosen = candidates[best]
    if candidates[0].get("repeats_note") == "field" and _planned(
        chosen, entries
    ) <= _planned(candidates[0], entries):
        # As few repeats as the plan that the field alone forced them on:
        # still the field's.
        chosen = {**chosen, "repeats_note": "field"}
    return chosen, others


def _planned(plan: dict[str, Any], entries: list[Entry]) -> int:
    """The repeated meetings over all series of `plan`."""
    if "repeated_meetings" in plan:
        return int(plan["repeated_meetings"])
    return int(adapter.seating_quality(plan["series"], entries)["repeated_meetings"])


def draw_options(
    *,
    series: Series,
    count: int = DRAW_OPTIONS,
    seconds: float = DRAW_OPTIONS_SECONDS,
) -> tuple[DrawOption, list[DrawOption]]:
    """The series as it is drawn now and up to `count` other draws of it by
    lot (other seeds through the same engine call), each different from it
    and from each other. Writes nothing: the organizer takes one with
    `series_seat(seed=…)`.

    They are the draws the series' draw was chosen among
    (`Series.quality["options"]`, so the draw taken is never worse than one
    shown); for a series drawn without them (a draw chosen by hand) they
    are drawn now, no new one begun once `seconds` have passed, from seeds
    following from the series' seed and version. Either way the page shows
    the same draws on every reload, and a choice is drawn again exactly
    (its digest tells when the field changed in between)."""
    tournament = series.tournament
    entries, fixed = _seat_inputs(series, tournament)
    quality = series.quality or {}
    current = _draw_option(
        "",
        adapter.stored_series(series),
        fixed,
        entries,
        None if "drawn" in quality else quality.get("planned_repeats"),
    )
    seen = {current.digest}
    options: list[DrawOption] = []
    kept = quality.get("options")
    if kept is not None:
        for other in kept[:count]:
            option = _draw_option(
                other["seed"], other["tables"], fixed, entries, other.get("planned")
            )
            if option.digest not in seen:
                seen.add(option.digest)
                options.append(option)
        return current, options
    started = time.monotonic()
    for i in range(count):
        if i and time.monotonic() - started >= seconds:
            break
        seed = hashlib.sha256(
            f"{series.seed}/{series.version}/{i}".encode()
        ).hexdigest()[:16]
        plan = _plan(tournament, entries, fixed, seed)
        option = _draw_option(
            seed,
            plan["series"][series.number - 1],
            fixed,
            entries,
            _planned(plan, entries),
        )
        if option.digest not in seen:
            seen.add(option.digest)
            options.append(option)
    return current, options
