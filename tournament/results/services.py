"""Result entry by the referees: enter, confirm (double entry), reject,
correct; and the writes every change of a table's result shares, which entry
at the table (`tableentry.services`) calls too: `table_lock`, `version_add`,
`version_confirm`, `revision_bump`.

A table's result is a sequence of versions; exactly one may be pending and
one confirmed. Confirming rebuilds the table's GameScore rows and its
players' EntryTotal rows, which is all the standings read. Every change
bumps `Table.result_revision`, so a form saved against an older revision is
refused with a conflict, never applied.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError, NotAllowed, UserError
from tournament.core.roles import Actor, acting_user, is_organizer, may_referee
from tournament.core.rules import game_points, seat_points
from tournament.live import invalidation
from tournament.models import (
    DigitalTable,
    Entry,
    EntryTotal,
    GameScore,
    ResultVersion,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.models.results import StoredGame, StoredResult
from tournament.results import adapter

# The games the services take, defined next to their conversion (re-exported).
from tournament.results.adapter import GameErrors as GameErrors
from tournament.results.adapter import GameInput as GameInput

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def table_lock(*, table: Table, revision: int | None) -> Table:
    """`table` locked for a change of its result, in the caller's
    transaction, with its series and tournament; a `revision` other than
    the table's (a form saved against an older state) is a conflict. None:
    no revision to compare."""
    # FOR UPDATE locks the joined series and tournament rows too: a change of
    # the tournament's rules (tournament_save locks its row) waits for an
    # entry in flight, and an entry for the change, which it then obeys.
    table = (
        Table.objects.select_for_update()
        .select_related("series__tournament")
        .get(pk=table.pk)
    )
    if revision is not None and revision != table.result_revision:
        raise ConflictError(
            _(
                "Das Ergebnis von Tisch %(t)d wurde inzwischen von jemand anderem "
                "gespeichert. Ihre Eingabe ist nicht verloren: bitte prüfen und "
                "erneut speichern."
            )
            % {"t": table.number}
        )
    return table


def _check_referee(actor: Actor, tournament: Tournament) -> None:
    """The views check it; the service refuses too. No actor: the site
    itself (digital tables, imports from the command line)."""
    if actor is not None and not may_referee(actor, tournament):
        raise NotAllowed(
            _("Sie dürfen in diesem Turnier keine Ergebnisse eingeben oder prüfen.")
        )


def _supersede_pending(table: Table) -> None:
    """A new entry replaces the one waiting for confirmation (kept)."""
    table.result_versions.filter(status=ResultVersion.Status.PENDING).update(
        status=ResultVersion.Status.SUPERSEDED
    )


def revision_bump(*, table: Table) -> None:
    """Every change of a table's result ends here: a form saved against the
    revision before is refused (`table_lock`), and the table's players'
    own pages show the change at once (`invalidation.table_changed`)."""
    table.result_revision += 1
    table.save(update_fields=["result_revision"])
    links = Entry.objects.filter(seats__table=table).values_list(
        "link_token", flat=True
    )
    invalidation.table_changed(table.series.tournament_id, list(links))


def _next_number(table: Table) -> int:
    last = table.result_versions.order_by("-number").values_list("number", flat=True)
    return (last.first() or 0) + 1


def version_add(
    *,
    table: Table,
    mode: str,
    data: StoredResult,
    reason: str = "",
    complete: bool = True,
    entered_by: "User | None" = None,
    entered_by_player: Entry | None = None,
) -> ResultVersion:
    """A new version of the table's result, waiting, numbered after the
    last; the one that waited before is superseded (kept). The table locked
    (`table_lock`); who may enter it the caller checked."""
    _supersede_pending(table)
    return ResultVersion.objects.create(
        table=table,
        number=_next_number(table),
        status=ResultVersion.Status.PENDING,
        mode=mode,
        data=data,
        reason=reason,
        complete=complete,
        entered_by=entered_by,
        entered_by_player=entered_by_player,
    )


def table_left(table: Table) -> dict[int, int]:
    """The seats of `table` whose player withdrew during its series (or
    before it), each with the number of its games he plays. One query."""
    series = table.series
    games = series.tournament.games_per_series
    left = {}
    for seat in Seat.objects.filter(table=table).select_related("entry"):
        plays = seat.entry.last_game_in(series.number, games)
        if plays < games:
            left[seat.number] = plays
    return left


def rebuild_table_scores(table: Table, version: ResultVersion) -> None:
    """Rewrite the table's GameScores (and its players' totals) from the
    confirmed version: a row per player per game he played (not for the
    games after his withdrawal); a game played by three counts as a
    three-player table's."""
    seats = {s.number: s.entry_id for s in table.seats.all()}
    tournament = table.series.tournament
    left = table_left(table)
    GameScore.objects.filter(table=table).delete()
    rows = []
    for game_number, game in enumerate(version.games, 1):
        present = adapter.present_seats(table.size, left, game_number)
        for seat, entry_id in seats.items():
            if seat not in present:
                continue
            won = seat == game["winner"]
            rows.append(
                GameScore(
                    series=table.series,
                    table=table,
                    version=version,
                    entry_id=entry_id,
                    game=game_number,
                    seat=seat,
                    won=won,
                    marks=game["marks"] if won else 0,
                    points=seat_points(game, seat, tournament),
                    three_table=len(present) == 3,
                )
            )
    GameScore.objects.bulk_create(rows)
    totals_refresh(entry_ids=list(seats.values()), tournament=tournament)


def totals_refresh(*, entry_ids: list[int], tournament: Tournament) -> None:
    """Recompute the EntryTotal rows of some players from their GameScores."""
    series_count = tournament.series_count
    per_entry: dict[int, dict[str, Any]] = {
        e: {"points": 0, "won": 0, "best": 0, "three": 0, "series": [0] * series_count}
        for e in entry_ids
    }
    for entry_id, number, won, points, three in GameScore.objects.filter(
        entry_id__in=entry_ids
    ).values_list("entry_id", "series__number", "won", "points", "three_table"):
        t = per_entry[entry_id]
        t["points"] += points
        t["won"] += won
        t["best"] = max(t["best"], points)
        t["three"] += three
        if number <= series_count:
            t["series"][number - 1] += points
    # One upsert for all of them (a table's four players), not a savepoint,
    # a read and a write each.
    fields = ["points", "games_won", "best_game", "three_table_games", "series_points"]
    EntryTotal.objects.bulk_create(
        [
            EntryTotal(
                entry_id=entry_id,
                points=t["points"],
                games_won=t["won"],
                best_game=t["best"],
                three_table_games=t["three"],
                series_points=t["series"],
            )
            for entry_id, t in per_entry.items()
        ],
        update_conflicts=True,
        unique_fields=["entry"],
        update_fields=fields,
    )


def version_confirm(
    *,
    table: Table,
    version: ResultVersion,
    actor: Actor,
    player: Entry | None = None,
) -> None:
    """`version` becomes the table's confirmed result, decided by `actor`
    (or the table's `player`): the standings count it, and the series is
    complete once every table's result is. The table locked (`table_lock`);
    who may confirm it the caller checked."""
    table.result_versions.filter(status=ResultVersion.Status.CONFIRMED).update(
        status=ResultVersion.Status.SUPERSEDED
    )
    version.status = ResultVersion.Status.CONFIRMED
    version.decided_by = acting_user(actor)
    version.decided_by_player = player
    version.decided_at = timezone.now()
    version.save(
        update_fields=["status", "decided_by", "decided_by_player", "decided_at"]
    )
    rebuild_table_scores(table, version)
    series = table.series
    # A digital table's result counts game by game; the table is open until
    # its last game is in.
    open_tables = (
        series.tables.exclude(result_versions__status=ResultVersion.Status.CONFIRMED)
        .union(
            series.tables.filter(
                result_versions__status=ResultVersion.Status.CONFIRMED,
                result_versions__complete=False,
            )
        )
        .exists()
    )
    status = Series.Status.PLAYING if open_tables else Series.Status.COMPLETE
    if series.status != status:
        series.status = status
        series.save(update_fields=["status"])
    invalidation.results_changed(series.tournament_id)


def result_check(
    *, games: Sequence[GameInput | None], table: Table, tournament: Tournament
) -> StoredResult:
    """The result `result_enter` would store for these games, checked by the
    same rules, without writing anything (an import's preview; the form's
    check of the games it could read). Raises GameErrors with every mistake,
    each naming its game (and, for sheets, its hand and the rule), or
    UserError; a game given as None is skipped (refused already)."""
    return adapter.table_result_data(
        games=games,
        table_size=table.size,
        tournament=tournament,
        left=table_left(table),
    )


def _refuse_entry(actor: Actor, table: Table) -> None:
    """Refuse a result for `table` from someone who may not referee its
    tournament, for a series not published yet, or for a table played
    digitally (its result comes from there)."""
    series = table.series
    _check_referee(actor, series.tournament)
    if not series.is_public:
        raise UserError(
            _(
                "Serie %(n)d ist noch nicht veröffentlicht; es kann noch kein "
                "Ergebnis eingegeben werden."
            )
            % {"n": series.number},
            code="series_not_open",
        )
    if DigitalTable.objects.filter(
        table=table, status=DigitalTable.Status.PLAYING
    ).exists():
        raise UserError(
            _(
                "Tisch %(t)d wird digital gespielt; sein Ergebnis kommt vom "
                "digitalen Tisch. Erst das digitale Spiel beenden."
            )
            % {"t": table.number},
            code="digital_table",
        )


def _is_correction(table: Table, reason: str) -> bool:
    """Whether an entry for `table` corrects its confirmed result, which
    needs a `reason` (refused without one)."""
    has_confirmed = table.result_versions.filter(
        status=ResultVersion.Status.CONFIRMED
    ).exists()
    if has_confirmed and not reason:
        raise UserError(
            _(
                "Für eine Korrektur eines bestätigten Ergebnisses bitte einen "
                "Grund angeben."
            ),
            code="reason_required",
        )
    return has_confirmed


def _counts_at_once(actor: Actor, tournament: Tournament, correction: bool) -> bool:
    """Whether an entry counts without a second person. Double entry off:
    the enterer's word counts. A correction by the organizer counts at
    once; a referee's correction waits."""
    return not tournament.double_entry or (
        correction and actor is not None and is_organizer(actor)
    )


def result_enter(
    *,
    actor: Actor,
    table: Table,
    games: Sequence[GameInput],
    mode: str,
    revision: int | None,
    reason: str = "",
    auto_confirm: bool = False,
) -> ResultVersion:
    """Record a table's five games. With double entry on it waits for a
    second person; a correction of a confirmed result needs a reason.
    `auto_confirm` is for sources that need no second pair of eyes
    (digital tables, imports). Mistakes in the games raise GameErrors, all
    of them at once; other refusals UserError."""
    with transaction.atomic():
        table = table_lock(table=table, revision=revision)
        tournament = table.series.tournament
        _refuse_entry(actor, table)
        data = adapter.table_result_data(
            games=games,
            table_size=table.size,
            tournament=tournament,
            left=table_left(table),
        )
        reason = reason.strip()
        has_confirmed = _is_correction(table, reason)
        before = _current_data(table)
        version = version_add(
            table=table,
            mode=mode,
            data=data,
            reason=reason[:300],
            entered_by=acting_user(actor),
        )
        if auto_confirm or _counts_at_once(actor, tournament, has_confirmed):
            version_confirm(table=table, version=version, actor=actor)
        else:
            invalidation.entries_changed(tournament.pk)
        revision_bump(table=table)
        audit_record(
            actor=actor,
            action="result.correct" if has_confirmed else "result.enter",
            obj=version,
            tournament=tournament,
            before=before,
            after={"status": version.status, **data},
            note=reason,
        )
    return version


def result_enter_digital(
    *,
    table: Table,
    games: Sequence[StoredGame],
    records: list[dict[str, Any]],
    complete: bool,
) -> ResultVersion:
    """A digital table's games so far (winner and marks each), with their
    game records. They count at once: the rules module checked every card,
    it is the second pair of eyes."""
    with transaction.atomic():
        table = table_lock(table=table, revision=None)
        tournament = table.series.tournament
        data: StoredResult = {
            "games": [
                {
                    "winner": g["winner"],
                    "marks": g["marks"],
                    "points": game_points(g["marks"], tournament),
                }
                for g in games
            ],
            "records": records,
        }
        before = _current_data(table)
        version = version_add(
            table=table,
            mode=ResultVersion.Mode.DIGITAL,
            data=data,
            complete=complete,
        )
        version_confirm(table=table, version=version, actor=None)
        revision_bump(table=table)
        audit_record(
            actor=None,
            action="result.digital",
            obj=version,
            tournament=tournament,
            before=before,
            after={"status": version.status, "games": data["games"]},
            note=_("digitaler Tisch: %(n)d von %(t)d Spielen")
            % {"n": len(games), "t": tournament.games_per_series},
        )
    return version


def _current_data(table: Table) -> dict[str, Any] | None:
    """The confirmed result as it stands, for the audit's "before"."""
    current = table.result_versions.filter(
        status=ResultVersion.Status.CONFIRMED
    ).first()
    if current is None:
        return None
    return {"version": current.number, "games": current.games}


def result_confirm(
    *, actor: Actor, version: ResultVersion, revision: int | None
) -> ResultVersion:
    """A second person confirms a pending result; never the one who entered
    it. The result then counts in the standings."""
    with transaction.atomic():
        table = table_lock(table=version.table, revision=revision)
        _check_referee(actor, table.series.tournament)
        version = ResultVersion.objects.select_for_update().get(pk=version.pk)
        if version.status != ResultVersion.Status.PENDING:
            raise ConflictError(_("Dieses Ergebnis wartet nicht mehr auf Bestätigung."))
        user = acting_user(actor)
        if user is not None and version.entered_by_id == user.pk:
            raise UserError(
                _(
                    "Sie können Ihre eigene Eingabe nicht bestätigen. Bitte eine "
                    "zweite Person (Schiedsrichter oder Turnierleitung) bestätigen "
                    "lassen."
                ),
                code="own_entry",
            )
        version_confirm(table=table, version=version, actor=actor)
        revision_bump(table=table)
        audit_record(
            actor=actor,
            action="result.confirm",
            obj=version,
            tournament=table.series.tournament,
            before={"status": ResultVersion.Status.PENDING, "version": version.number},
            after={"status": version.status, "version": version.number},
        )
    return version


def result_reject(
    *, actor: Actor, version: ResultVersion, revision: int | None, reason: str
) -> ResultVersion:
    """The second person finds a mistake: the pending entry is set aside
    (kept in the history) and the table waits for a new entry."""
    reason = reason.strip()
    if not reason:
        raise UserError(_("Bitte einen Grund angeben."), code="reason_required")
    with transaction.atomic():
        table = table_lock(table=version.table, revision=revision)
        _check_referee(actor, table.series.tournament)
        version = ResultVersion.objects.select_for_update().get(pk=version.pk)
        if version.status != ResultVersion.Status.PENDING:
            raise ConflictError(_("Dieses Ergebnis wartet nicht mehr auf Bestätigung."))
        version.status = ResultVersion.Status.REJECTED
        version.decided_by = acting_user(actor)
        version.decided_at = timezone.now()
        version.reason = (version.reason + " | " if version.reason else "") + reason
        version.save(update_fields=["status", "decided_by", "decided_at", "reason"])
        revision_bump(table=table)
        invalidation.entries_changed(table.series.tournament_id)
        audit_record(
            actor=actor,
            action="result.reject",
            obj=version,
            tournament=table.series.tournament,
            before={"status": ResultVersion.Status.PENDING},
            after={"status": version.status},
            note=reason,
        )
    return version
