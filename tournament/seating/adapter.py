"""The adapter between rows and the seating engine: entries in,
tables of entry ids out. Nothing else converts."""

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournament.core.errors import UserError
from tournament.models import Entry, Series
from tournament.seating import engine
from tournament.seating.engine.errors import SeatingError

# A series as the seating engine sees it: tables of entry ids in seat order.
EngineSeries = list[list[int]]


def seating_error_message(error: SeatingError) -> str:
    """Translate the engine's error codes for the person at the screen."""
    messages = {
        "too_few_players": _(
            "Zu wenige Spieler für eine Serie: mindestens 3 werden gebraucht."
        ),
        "five_players": _(
            "5 Spieler lassen sich nicht an Tische zu 3–4 setzen. "
            "Bitte einen Spieler nachmelden oder abmelden."
        ),
        "unknown_player": _("Eine gespielte Serie enthält einen unbekannten Spieler."),
        "duplicate_player": _("Ein Spieler steht doppelt in der Setzung."),
    }
    return messages.get(
        error.code, _("Die Setzung ist nicht möglich: %(e)s") % {"e": error}
    )


def stored_series(series: Series) -> EngineSeries:
    """The stored seating of a series as engine data (tables by number)."""
    tables: dict[int, list[tuple[int, int]]] = {}
    for table_number, seat_number, entry_id in series.seats.values_list(
        "table__number", "number", "entry_id"
    ):
        tables.setdefault(table_number, []).append((seat_number, entry_id))
    return [[e for _, e in sorted(seats)] for _, seats in sorted(tables.items())]


def _seat(
    entries: Sequence[Entry],
    series_count: int,
    seed: str,
    fixed: Sequence[EngineSeries],
    *,
    mode: engine.Mode = "lot",
    totals: dict[int, int] | None = None,
    exact: bool = False,
) -> engine.Seating:
    """The engine's seating of the field `entries` (their clubs kept apart),
    the `fixed` series unchanged and their players no longer in the field
    withdrawn; by lot, or by the standings' `totals`. A seating the engine
    cannot make is a UserError for the organizer."""
    clubs = {e.pk: e.player.club for e in entries if e.player.club}
    field = {e.pk for e in entries}
    # Players of the played series who are no longer in the field.
    gone = sorted({p for s in fixed for t in s for p in t} - field)
    try:
        return engine.seat(
            sorted(field),
            series=series_count,
            seed=seed,
            clubs=clubs,
            fixed=list(fixed),
            withdrawn=gone,
            mode=mode,
            totals=totals,
            exact=exact,
        )
    except SeatingError as error:
        raise UserError(seating_error_message(error), code=error.code) from error


def plan_seating(
    *,
    entries: Sequence[Entry],
    series_count: int,
    seed: str,
    fixed: Sequence[EngineSeries],
) -> tuple[list[EngineSeries], dict[str, Any]]:
    """All series of the tournament, the `fixed` ones unchanged, and the
    quality of the whole plan; when it keeps repeated meetings,
    `repeats_note` says why: "field" (too few players for none), "history"
    (the played series force them), "search" (none better found in time)."""
    result = _seat(entries, series_count, seed, fixed)
    quality = {**result.quality, "repeats_note": result.repeats_note}
    return [list(map(list, s)) for s in result.series], quality


def plan_standings_series(
    *,
    entries: Sequence[Entry],
    series_count: int,
    seed: str,
    fixed: Sequence[EngineSeries],
    totals: dict[int, int],
    exact: bool = False,
) -> EngineSeries:
    """The next series seated by the standings ("nach Tabelle setzen"):
    players of similar totals together, the leaders at table 1, without
    repeating a meeting of the `fixed` series where that can be; `exact`
    (the final series) straight down the standings, places 1-4 at table 1
    and so on, the tables of three last, whoever met before."""
    field = {e.pk for e in entries}
    result = _seat(
        entries,
        series_count,
        seed,
        fixed,
        mode="standings",
        totals={pk: totals.get(pk, 0) for pk in field},
        exact=exact,
    )
    return [list(t) for t in result.series[len(fixed)]]


def standings_fit(tables: EngineSeries, totals: dict[int, int]) -> dict[str, int]:
    """How closely a series follows the standings: how many players sit at
    the table their place gives them (players of equal totals may take any
    of their places), and by how many tables the farthest is off. Tables of
    4 first, as they are numbered."""
    ordered = sorted(tables, key=lambda t: -len(t))
    sizes = [len(t) for t in ordered]
    ranking = sorted((p for t in ordered for p in t), key=lambda p: -totals.get(p, 0))
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    place = 0
    for table, size in enumerate(sizes):
        for p in ranking[place : place + size]:
            points = totals.get(p, 0)
            first.setdefault(points, table)
            last[points] = table
        place += size
    exact = worst = 0
    for table, players in enumerate(ordered):
        for p in players:
            points = totals.get(p, 0)
            off = max(0, first[points] - table, table - last[points])
            exact += off == 0
            worst = max(worst, off)
    return {"players": len(ranking), "exact": exact, "worst": worst}


def seating_quality(
    series: Sequence[EngineSeries], entries: Sequence[Entry]
) -> dict[str, Any]:
    clubs = {e.pk: e.player.club for e in entries if e.player.club}
    return dict(engine.quality([list(s) for s in series], clubs=clubs))


def repeated_pairs(series: Sequence[EngineSeries]) -> list[tuple[int, int, int]]:
    """Pairs of entry ids that meet more than once, with how often."""
    pairs = engine.repeated_pairs([list(s) for s in series])
    return [(a, b, times) for a, b, times in pairs]
