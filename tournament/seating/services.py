"""Seating a series, swapping two players, releasing it to the public."""

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError, UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import (
    Entry,
    EntryTotal,
    ResultVersion,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.seating import adapter, selectors

EDITABLE = (Series.Status.DRAFT, Series.Status.SEATED)
SWAPPABLE = (Series.Status.SEATED, Series.Status.RELEASED)


def series_ensure(*, tournament: Tournament, actor: Actor = None) -> list[Series]:
    """The tournament's series rows 1..series_count (created as drafts)."""
    existing = {s.number: s for s in tournament.series.all()}
    missing = [n for n in range(1, tournament.series_count + 1) if n not in existing]
    if missing:
        with transaction.atomic():
            for number in missing:
                existing[number] = series = Series.objects.create(
                    tournament=tournament, number=number
                )
                audit_record(
                    actor=actor,
                    action="series.create",
                    obj=series,
                    tournament=tournament,
                    after={"number": number, "status": series.status},
                )
    return [existing[n] for n in sorted(existing)]


def seated_players(tournament: Tournament) -> list[Entry]:
    """Who is seated: registered, not withdrawn, checked in at the desk."""
    return list(
        Entry.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True, checked_in=True
        )
        .select_related("player")
        .order_by("start_number")
    )


def _lock(series: Series) -> tuple[Series, Tournament]:
    tournament = Tournament.objects.select_for_update().get(pk=series.tournament_id)
    series = Series.objects.select_for_update().get(pk=series.pk)
    return series, tournament


def _lock_to_seat(series: Series, version: int | None) -> tuple[Series, Tournament]:
    """Lock a series to seat it anew: refused if someone else changed its
    seating since `version`, or once it is released."""
    series, tournament = _lock(series)
    _check_version(series, version)
    if series.status not in EDITABLE:
        raise UserError(
            _("Serie %(n)d ist schon veröffentlicht und kann nicht neu gesetzt werden.")
            % {"n": series.number},
            code="released",
        )
    return series, tournament


def _check_version(series: Series, version: int | None) -> None:
    if version is not None and version != series.version:
        raise ConflictError(
            _(
                "Die Setzung von Serie %(n)d wurde inzwischen von jemand anderem "
                "geändert. Bitte die Seite neu laden und erneut versuchen."
            )
            % {"n": series.number}
        )


def _write_tables(series: Series, tables: adapter.EngineSeries) -> None:
    series.seats.all().delete()
    series.tables.all().delete()
    # Tables of 4 first, so that the tables of 3 carry the highest numbers.
    ordered = sorted(tables, key=lambda t: -len(t))
    created = Table.objects.bulk_create(
        Table(series=series, number=i, size=len(t)) for i, t in enumerate(ordered, 1)
    )
    Seat.objects.bulk_create(
        Seat(series=series, table=table, number=seat_number, entry_id=entry_id)
        for table, players in zip(created, ordered, strict=True)
        for seat_number, entry_id in enumerate(players, 1)
    )


def _canonical(tables: adapter.EngineSeries) -> list[tuple[int, ...]]:
    """A series independent of table numbering (tables are renumbered when
    written), with each table's seat order kept."""
    return sorted(tuple(t) for t in tables)


def _earlier(series: Series) -> list[Series]:
    return list(
        Series.objects.filter(
            tournament_id=series.tournament_id, number__lt=series.number
        ).order_by("number")
    )


def _digest(tables: adapter.EngineSeries) -> str:
    """A short fingerprint of one series' seating (seat order kept, table
    numbering not): a choice names the draw it saw by it."""
    text = json.dumps(_canonical(tables), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plan(
    tournament: Tournament,
    entries: list[Entry],
    fixed: list[adapter.EngineSeries],
    seed: str,
) -> dict[str, Any]:
    """The rest of the tournament drawn from `seed` around the `fixed`
    series, as `Tournament.seating_plan` keeps it."""
    planned, planned_quality = adapter.plan_seating(
        entries=entries,
        series_count=tournament.series_count,
        seed=seed,
        fixed=fixed,
    )
    return {
        "seed": seed,
        "players": sorted(e.pk for e in entries),
        "series": planned,
        "repeats_note": planned_quality["repeats_note"],
        "repeated_meetings": planned_quality["repeated_meetings"],
    }


def _seat_inputs(
    series: Series, tournament: Tournament
) -> tuple[list[Entry], list[adapter.EngineSeries]]:
    """Who is drawn and the series before `series` as they were seated;
    refused while one of those is not drawn yet."""
    earlier = _earlier(series)
    if not all(s.is_seated for s in earlier):
        raise UserError(_("Bitte zuerst die vorherigen Serien setzen."), code="order")
    return seated_players(tournament), [adapter.stored_series(s) for s in earlier]


def series_seat(
    *,
    actor: Actor,
    series: Series,
    new_lot: bool = False,
    version: int | None = None,
    seed: str | None = None,
    digest: str = "",
) -> Series:
    """Seat (or re-seat) a series by lot, without repeating any meeting of
    the series already seated.

    The whole tournament is planned at once from one seed, and later series
    take their tables from that plan while the field stays the same; after
    withdrawals or late entries the remaining series are planned anew with
    the earlier ones fixed. `new_lot` draws a fresh seed. `seed` draws from
    that seed: one of the draws `draw_options` offered, which the organizer
    chose; `digest` is the draw he saw, and a choice that would now give
    another draw (the field or the series before changed) is refused."""
    with transaction.atomic():
        series, tournament = _lock_to_seat(series, version)
        entries, fixed = _seat_inputs(series, tournament)
        plan = tournament.seating_plan
        ids = sorted(e.pk for e in entries)
        usable = (
            not new_lot
            and seed is None
            and plan is not None
            and plan.get("players") == ids
            and len(plan["series"]) >= series.number
            and [_canonical(s) for s in plan["series"][: len(fixed)]]
            == [_canonical(s) for s in fixed]
        )
        if not usable:
            plan = _plan(tournament, entries, fixed, seed or secrets.token_hex(8))
        assert plan is not None
        others: list[dict[str, Any]] | None = None
        if seed is None:
            # The draw taken is the best of those the page will offer
            # beside it: never one worse than an alternative it shows.
            best, others = _best_of_draws(
                tournament, entries, fixed, plan, series.number, kept=usable
            )
            usable = usable and best is plan
            plan = best
        if not usable:
            tournament.seating_plan = plan
            tournament.seating_seed = plan["seed"]
            tournament.save(update_fields=["seating_plan", "seating_seed"])
        tables = plan["series"][series.number - 1]
        if digest and _digest(tables) != digest:
            raise ConflictError(
                _(
                    "Diese Auslosung gibt es so nicht mehr: seit sie angezeigt "
                    "wurde, hat sich das Feld oder eine Serie davor geändert. "
                    "Serie %(n)d bleibt, wie sie ist. Bitte die Auslosungen "
                    "neu vergleichen."
                )
                % {"n": series.number}
            )
        before = {
            "status": series.status,
            "seating": selectors.start_number_tables(series),
        }
        _write_tables(series, tables)
        series.status = Series.Status.SEATED
        series.mode = Series.Mode.LOT
        series.seed = plan["seed"]
        series.seated_at = timezone.now()
        series.version += 1
        series.quality = adapter.seating_quality([*fixed, tables], entries)
        # Why the drawn plan keeps repeats, for the report: the plan's, so
        # it holds for every series taken from it.
        series.quality["repeats_note"] = plan.get("repeats_note", "")
        series.quality["planned_repeats"] = _planned(plan, entries)
        if others is not None:
            series.quality["options"] = others
        series.save()
        audit_record(
            actor=actor,
            action="series.seat",
            obj=series,
            tournament=tournament,
            before=before,
            after={
                "status": series.status,
                "seed": series.seed,
                "seating": selectors.start_number_tables(series),
            },
            note=_("Unter den angebotenen Auslosungen gewählt.") if seed else "",
        )
    return series


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


def _as_it_stands(series: Series) -> tuple[list[Entry], list[adapter.EngineSeries]]:
    """Everyone seated in `series` or before it, with their players, and the
    seated series before it (the figures of a seating as it stands, swaps
    and late arrivals included)."""
    entries = list(
        Entry.objects.filter(
            seats__series__tournament_id=series.tournament_id,
            seats__series__number__lte=series.number,
        )
        .select_related("player")
        .distinct()
    )
    earlier = [
        adapter.stored_series(s)
        for s in Series.objects.filter(
            tournament_id=series.tournament_id, number__lt=series.number
        )
        .seated()
        .order_by("number")
    ]
    return entries, earlier


def _swapped(tables: adapter.EngineSeries, a: int, b: int) -> adapter.EngineSeries:
    """`tables` with the entries `a` and `b` in each other's seat."""
    other = {a: b, b: a}
    return [[other.get(p, p) for p in table] for table in tables]


def swap_effect(*, series: Series, a: int, b: int) -> tuple[DrawOption, DrawOption]:
    """The series before and after swapping the entries `a` and `b` (ids),
    in the words of the quality report: what the preview shows before the
    organizer commits the swap. Writes nothing."""
    entries, earlier = _as_it_stands(series)
    tables = adapter.stored_series(series)
    return (
        _draw_option("", tables, earlier, entries),
        _draw_option("", _swapped(tables, a, b), earlier, entries),
    )


# The figures of a draw that a swap by hand may make worse, as kept in
# `Series.quality["drawn"]` from the first swap after the draw.
DRAWN_FIGURES = ("repeats", "club_tables", "three_again")


def _figures(option: DrawOption) -> dict[str, int]:
    return {name: int(getattr(option, name)) for name in DRAWN_FIGURES}


def swapped_worse(series: Series) -> tuple[dict[str, int], dict[str, int]] | None:
    """The figures of the series as drawn and as it stands now, when swaps
    by hand made one of them worse (more repeats, more tables with club
    mates, more players at a table of three than needed); else None.
    Publishing such a series asks once (`series_release`)."""
    drawn = (series.quality or {}).get("drawn")
    if not drawn:
        return None
    entries, earlier = _as_it_stands(series)
    now = _figures(_draw_option("", adapter.stored_series(series), earlier, entries))
    if any(now[name] > int(drawn.get(name, 0)) for name in DRAWN_FIGURES):
        return drawn, now
    return None


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


def _unconfirmed(series: Series) -> dict[int, list[int]]:
    """The tables of the series before `series` that have no confirmed,
    complete result yet: {series number: [table numbers]} (one query)."""
    done = ResultVersion.objects.filter(
        status=ResultVersion.Status.CONFIRMED, complete=True
    ).values("table_id")
    missing: dict[int, list[int]] = {}
    for number, table in (
        Table.objects.filter(
            series__tournament_id=series.tournament_id,
            series__number__lt=series.number,
        )
        .exclude(pk__in=done)
        .order_by("series__number", "number")
        .values_list("series__number", "number")
    ):
        missing.setdefault(number, []).append(table)
    return missing


def _totals_before(tournament: Tournament, number: int) -> dict[int, int]:
    """Each entry's points in the series before series `number`, from the
    kept totals (one query): the standings that series is seated by."""
    return {
        entry_id: sum(points[: number - 1])
        for entry_id, points in EntryTotal.objects.filter(
            entry__tournament=tournament
        ).values_list("entry_id", "series_points")
    }


def series_seat_by_standings(
    *, actor: Actor, series: Series, version: int | None = None
) -> Series:
    """Seat a series by the standings ("nach Tabelle setzen"), as a final
    series is seated: players of similar totals at one table, the leaders at
    table 1, no meeting of the earlier series repeated where that can be;
    the tournament's last series straight down the standings (places 1-4 at
    table 1 and so on, the tables of three last), whoever met before.
    Only once every table before it has its confirmed result: the standings
    it follows must be the whole of them."""
    with transaction.atomic():
        series, tournament = _lock_to_seat(series, version)
        if series.number == 1:
            raise UserError(
                _("Vor Serie 1 gibt es noch keine Tabelle: bitte auslosen."),
                code="no_standings",
            )
        entries, fixed = _seat_inputs(series, tournament)
        missing = _unconfirmed(series)
        if missing:
            raise UserError(
                _(
                    "Nach Tabelle setzen geht erst, wenn jeder Tisch der Serien "
                    "davor ein bestätigtes Ergebnis hat. Es fehlen: %(tables)s."
                )
                % {
                    "tables": "; ".join(
                        _("Serie %(s)d, Tisch %(t)s")
                        % {"s": number, "t": ", ".join(map(str, tables))}
                        for number, tables in missing.items()
                    )
                },
                code="standings_incomplete",
            )
        totals = _totals_before(tournament, series.number)
        seed = secrets.token_hex(8)
        # The final series is the standings' own: nothing after it to keep
        # free of repeats, so the places go to the tables as they stand.
        final = series.number >= tournament.series_count
        tables = adapter.plan_standings_series(
            entries=entries,
            series_count=tournament.series_count,
            seed=seed,
            fixed=fixed,
            totals=totals,
            exact=final,
        )
        before = {
            "status": series.status,
            "seating": selectors.start_number_tables(series),
        }
        _write_tables(series, tables)
        series.status = Series.Status.SEATED
        series.mode = Series.Mode.STANDINGS
        series.seed = seed
        series.seated_at = timezone.now()
        series.version += 1
        series.quality = {
            **adapter.seating_quality([*fixed, tables], entries),
            "standings": {**adapter.standings_fit(tables, totals), "final": final},
        }
        series.save()
        audit_record(
            actor=actor,
            action="series.seat_standings",
            obj=series,
            tournament=tournament,
            before=before,
            after={
                "status": series.status,
                "seed": seed,
                "seating": selectors.start_number_tables(series),
            },
        )
    return series


def _measure(series: Series, tournament: Tournament) -> None:
    """Recompute the quality report of `series` after a change by hand, over
    the series seated so far (not saved)."""
    entries = list(
        Entry.objects.filter(seats__series__tournament=tournament)
        .select_related("player")
        .distinct()
    )
    seated = [
        adapter.stored_series(s)
        for s in Series.objects.filter(
            tournament=tournament, number__lte=series.number
        ).seated()
    ]
    quality = adapter.seating_quality(seated, entries)
    if series.mode == Series.Mode.STANDINGS:
        totals = _totals_before(tournament, series.number)
        final = bool(((series.quality or {}).get("standings") or {}).get("final"))
        quality["standings"] = {
            **adapter.standings_fit(seated[-1], totals),
            "final": final,
        }
    # The figures as drawn stay, for the release to compare, and the draws
    # it was chosen among, to be offered still.
    for kept in ("drawn", "options"):
        if kept in (series.quality or {}):
            quality[kept] = (series.quality or {})[kept]
    series.quality = quality


def series_swap(
    *, actor: Actor, series: Series, entry_a: Entry, entry_b: Entry, version: int
) -> Series:
    """Swap two players' seats by hand; the quality report is recomputed and
    names any meeting this repeats."""
    with transaction.atomic():
        series, tournament = _lock(series)
        a, b = _seats_to_swap(series, entry_a, entry_b, version)
        # Table number and seat of each, for the audit's before and after.
        place_a = [a.table.number, a.number]
        place_b = [b.table.number, b.number]
        # The figures as drawn, kept from the first swap on: publishing a
        # draw that swaps made worse asks once (`swapped_worse`).
        drawn = (series.quality or {}).get("drawn")
        if not drawn:
            entries, earlier = _as_it_stands(series)
            drawn = _figures(
                _draw_option("", adapter.stored_series(series), earlier, entries)
            )
        _exchange(series, a, b, entry_a)
        series.quality = {**(series.quality or {}), "drawn": drawn}
        _measure(series, tournament)
        series.version += 1
        series.save(update_fields=["quality", "version"])
        if series.is_public:
            invalidation.seating_changed(tournament.pk)
        audit_record(
            actor=actor,
            action="series.swap",
            obj=series,
            tournament=tournament,
            before={
                "a": [entry_a.start_number, *place_a],
                "b": [entry_b.start_number, *place_b],
            },
            after={
                "a": [entry_a.start_number, *place_b],
                "b": [entry_b.start_number, *place_a],
            },
        )
    return series


def _seats_to_swap(
    series: Series, entry_a: Entry, entry_b: Entry, version: int
) -> tuple[Seat, Seat]:
    """The seats of `entry_a` and `entry_b` in the locked `series`, locked
    too; refused unless the series is still as the organizer saw it and open
    to swaps, and the two are different players at different tables."""
    _check_version(series, version)
    if series.status not in SWAPPABLE:
        raise UserError(
            _("In Serie %(n)d kann nicht mehr getauscht werden.")
            % {"n": series.number},
            code="locked",
        )
    if entry_a.pk == entry_b.pk:
        raise UserError(_("Bitte zwei verschiedene Spieler wählen."), code="same")
    seats = {
        s.entry_id: s
        for s in Seat.objects.select_for_update().filter(
            series=series, entry__in=[entry_a, entry_b]
        )
    }
    if len(seats) != 2:
        raise UserError(
            _("Beide Spieler müssen in dieser Serie sitzen."), code="not_seated"
        )
    a, b = seats[entry_a.pk], seats[entry_b.pk]
    if a.table_id == b.table_id:
        raise UserError(
            _(
                "%(a)s und %(b)s sitzen beide an Tisch %(t)d: ein Tausch am "
                "selben Tisch änderte nur die Sitze, nicht die Gegner."
            )
            % {
                "a": entry_a.player.full_name,
                "b": entry_b.player.full_name,
                "t": a.table.number,
            },
            code="same_table",
        )
    return a, b


def _exchange(series: Series, a: Seat, b: Seat, entry_a: Entry) -> None:
    """Put `b`'s player on seat `a` and `entry_a` on the seat `b` had. Two
    steps: the unique (series, entry) constraint must hold after every
    single statement."""
    a_table, a_number, b_table, b_number = a.table_id, a.number, b.table_id, b.number
    a.delete()
    b.table_id, b.number = a_table, a_number
    b.save()
    Seat.objects.create(series=series, table_id=b_table, number=b_number, entry=entry_a)


# A late arrival joins a released series only before its games are played.
LATE_JOINABLE = (Series.Status.RELEASED, Series.Status.PLAYING)


def series_seat_late(
    *, actor: Actor, series: Series, entry: Entry, table_number: int, version: int
) -> Table:
    """Seat a player who checked in after `series` was released on the free
    fourth seat of one of its tables of three.

    The rule: only while that table has no result at all (entered,
    waiting or confirmed; no digital game started), i.e. before its games
    begin. He then plays all of the table's games, and the table is a table
    of four from the first game on: its result has four players and is no
    result of a table of three. Once a table has begun, he sits this series
    out; the next draw seats him. He takes seat 4, which (the highest seat)
    deals first and keeps the score sheet."""
    with transaction.atomic():
        series, tournament = _lock(series)
        _check_version(series, version)
        if series.status not in LATE_JOINABLE:
            raise UserError(
                _(
                    "Serie %(n)d wird nicht gerade gespielt: nur in einer "
                    "veröffentlichten Serie nimmt ein Nachzügler einen freien Sitz."
                )
                % {"n": series.number},
                code="not_running",
            )
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        name = entry.player.full_name
        if (
            entry.tournament_id != tournament.pk
            or not entry.checked_in
            or entry.withdrawn_at is not None
        ):
            raise UserError(
                _("%(name)s ist nicht als anwesend eingecheckt.") % {"name": name},
                code="not_present",
            )
        if Seat.objects.filter(series=series, entry=entry).exists():
            raise UserError(
                _("%(name)s sitzt in Serie %(n)d schon an einem Tisch.")
                % {"name": name, "n": series.number},
                code="seated",
            )
        table = (
            Table.objects.select_for_update()
            .filter(series=series, number=table_number)
            .first()
        )
        if table is None or table.size != 3:
            raise UserError(
                _("Serie %(n)d hat keinen Dreiertisch mit der Nummer %(t)d.")
                % {"n": series.number, "t": table_number},
                code="no_table_of_three",
            )
        if selectors.begun_tables([table]):
            raise UserError(
                _(
                    "An Tisch %(t)d wird schon gespielt (ein Ergebnis ist "
                    "eingegeben oder der Tisch spielt digital): %(name)s setzt "
                    "Serie %(n)d aus, die nächste Auslosung setzt ihn."
                )
                % {"t": table.number, "name": name, "n": series.number},
                code="table_begun",
            )
        before = list(
            table.seats.order_by("number").values_list("entry__start_number", flat=True)
        )
        Seat.objects.create(series=series, table=table, number=4, entry=entry)
        table.size = 4
        # An entry form opened for the table of three is stale now.
        table.result_revision += 1
        table.save(update_fields=["size", "result_revision"])
        _measure(series, tournament)
        series.version += 1
        series.save(update_fields=["quality", "version"])
        invalidation.seating_changed(tournament.pk)
        invalidation.field_changed(tournament.pk)
        audit_record(
            actor=actor,
            action="series.seat_late",
            obj=series,
            tournament=tournament,
            before={"at_table": [table.number, before]},
            after={"at_table": [table.number, [*before, entry.start_number]]},
        )
    return table


def _names(entries: list[Entry]) -> str:
    return ", ".join(
        _("%(name)s (Nr. %(n)d)") % {"name": e.player.full_name, "n": e.start_number}
        for e in entries
    )


def field_changed_message(series: Series, changes: selectors.FieldChanges) -> str:
    """What changed in the field since `series` was seated, in a sentence
    the organizer can act on."""
    parts = []
    if changes["late"]:
        parts.append(
            _("Anwesend, aber nicht gesetzt: %(names)s.")
            % {"names": _names(changes["late"])}
        )
    if changes["gone"]:
        parts.append(
            _("Gesetzt, aber abgemeldet oder nicht mehr anwesend: %(names)s.")
            % {"names": _names(changes["gone"])}
        )
    return " ".join(
        [
            _("Seit der Auslosung von Serie %(n)d hat sich das Feld geändert.")
            % {"n": series.number},
            *parts,
        ]
    )


def series_release(
    *,
    actor: Actor,
    series: Series,
    version: int | None = None,
    reason: str = "",
    accept_worse: bool = False,
) -> Series:
    """Make a seated series public ("where do I sit?" and the table lists).

    A player checked in, withdrawn or checked out since the series was
    seated would be left out of it (or keep a seat nobody takes): the
    release is refused until the series is seated anew, unless the
    organizer gives a `reason` to release it anyway, which the audit keeps
    with the players concerned. A series that swaps by hand made worse than
    drawn is published only once the organizer said so (`accept_worse`,
    after the page asked him); the audit keeps both figures."""
    reason = reason.strip()
    with transaction.atomic():
        series, tournament = _lock(series)
        _check_version(series, version)
        if series.status != Series.Status.SEATED:
            raise UserError(
                _(
                    "Nur eine ausgeloste, noch nicht veröffentlichte Serie kann "
                    "veröffentlicht werden."
                ),
                code="not_seated",
            )
        worse = swapped_worse(series)
        if worse and not accept_worse:
            raise UserError(
                _(
                    "Der Tausch von Hand hat Serie %(n)d verschlechtert "
                    "(%(what)s). Bitte bestätigen, dass sie so veröffentlicht "
                    "werden soll."
                )
                % {"n": series.number, "what": worse_text(*worse)},
                code="swap_worse",
            )
        changes = selectors.field_changes(series)
        changed = bool(changes["late"] or changes["gone"])
        if changed and not reason:
            raise UserError(
                field_changed_message(series, changes)
                + " "
                + _(
                    "Bitte neu auslosen oder einen Grund angeben und trotzdem "
                    "veröffentlichen."
                ),
                code="field_changed",
            )
        series.status = Series.Status.RELEASED
        series.released_at = timezone.now()
        series.version += 1
        series.save(update_fields=["status", "released_at", "version"])
        status_before = tournament.status
        if tournament.status == Tournament.Status.PLANNED:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        invalidation.seating_changed(tournament.pk)
        after: dict[str, object] = {
            "status": series.status,
            "tournament_status": tournament.status,
        }
        if worse:
            after["swapped_worse"] = {"drawn": worse[0], "now": worse[1]}
        if changed:
            after["released_anyway"] = {
                "not_seated": [e.start_number for e in changes["late"]],
                "seated_but_gone": [e.start_number for e in changes["gone"]],
            }
        audit_record(
            actor=actor,
            action="series.release",
            obj=series,
            tournament=tournament,
            before={"status": Series.Status.SEATED, "tournament_status": status_before},
            after=after,
            note=reason if changed else "",
        )
    return series


def worse_text(drawn: dict[str, int], now: dict[str, int]) -> str:
    """What swaps made worse, in the quality report's words."""
    words = {
        "repeats": _("wiederholte Begegnungen"),
        "club_tables": _("Tische mit Vereinskameraden"),
        "three_again": _("Spieler öfter als nötig am Dreiertisch"),
    }
    return ", ".join(
        _("%(what)s: %(now)d statt %(drawn)d")
        % {"what": words[name], "now": now[name], "drawn": int(drawn.get(name, 0))}
        for name in DRAWN_FIGURES
        if now[name] > int(drawn.get(name, 0))
    )
