"""Result entry: enter, confirm (double entry), reject, correct – by the
referees, and at the table by its players (`result_enter_by_player`,
`result_confirm_by_player`, `result_reject_by_player`).

A table's result is a sequence of versions; exactly one may be pending and
one confirmed. Confirming rebuilds the table's GameScore rows, which is all
the standings read. Every change bumps `Table.result_revision`, so a form
saved against an older revision is refused with a conflict, never applied.

Who of a table may do what is decided in one place, `table_player_refusal`:
the player's pages ask it what to offer, and the services refuse the same.
"""

from collections.abc import Sequence
from typing import Any, Literal

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError, NotAllowed, UserError
from tournament.core.roles import Actor, acting_user, is_organizer, may_referee
from tournament.core.rules import game_points
from tournament.live import invalidation
from tournament.models import (
    DigitalTable,
    Entry,
    EntryTotal,
    GameScore,
    ResultAnswer,
    ResultVersion,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.results import adapter

# The games the services take, defined next to their conversion (re-exported).
from tournament.results.adapter import GameErrors as GameErrors
from tournament.results.adapter import GameInput as GameInput
from tournament.seating.selectors import current_series


def _lock_table(table: Table, revision: int | None) -> Table:
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


def _bump(table: Table) -> None:
    table.result_revision += 1
    table.save(update_fields=["result_revision"])


def _next_number(table: Table) -> int:
    last = table.result_versions.order_by("-number").values_list("number", flat=True)
    return (last.first() or 0) + 1


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
    for game_number, game in enumerate(version.data["games"], 1):
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
                    points=game_points(game["marks"], tournament) if won else 0,
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


def _confirm(
    table: Table, version: ResultVersion, actor: Actor, player: Entry | None = None
) -> None:
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
) -> dict[str, Any]:
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
        table = _lock_table(table, revision)
        series = table.series
        tournament = series.tournament
        _check_referee(actor, tournament)
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
        data = adapter.table_result_data(
            games=games,
            table_size=table.size,
            tournament=tournament,
            left=table_left(table),
        )
        has_confirmed = table.result_versions.filter(
            status=ResultVersion.Status.CONFIRMED
        ).exists()
        reason = reason.strip()
        if has_confirmed and not reason:
            raise UserError(
                _(
                    "Für eine Korrektur eines bestätigten Ergebnisses bitte einen "
                    "Grund angeben."
                ),
                code="reason_required",
            )
        _supersede_pending(table)
        before = _current_data(table)
        version = ResultVersion.objects.create(
            table=table,
            number=_next_number(table),
            status=ResultVersion.Status.PENDING,
            mode=mode,
            data=data,
            reason=reason[:300],
            entered_by=acting_user(actor),
        )
        # Double entry off: the enterer's word counts. A correction by the
        # organizer counts at once; a referee's correction waits.
        immediate = (
            auto_confirm
            or not tournament.double_entry
            or (has_confirmed and actor is not None and is_organizer(actor))
        )
        if immediate:
            _confirm(table, version, actor)
        else:
            invalidation.entries_changed(tournament.pk)
        _bump(table)
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
    games: Sequence[dict[str, int]],
    records: list[dict[str, Any]],
    complete: bool,
) -> ResultVersion:
    """A digital table's games so far (winner and marks each), with their
    game records. They count at once: the rules module checked every card,
    it is the second pair of eyes."""
    with transaction.atomic():
        table = _lock_table(table, None)
        tournament = table.series.tournament
        data = {
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
        _supersede_pending(table)
        version = ResultVersion.objects.create(
            table=table,
            number=_next_number(table),
            status=ResultVersion.Status.PENDING,
            mode=ResultVersion.Mode.DIGITAL,
            data=data,
            complete=complete,
        )
        _confirm(table, version, None)
        _bump(table)
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
    return {"version": current.number, "games": current.data["games"]}


def result_confirm(
    *, actor: Actor, version: ResultVersion, revision: int | None
) -> ResultVersion:
    """A second person confirms a pending result; never the one who entered
    it. The result then counts in the standings."""
    with transaction.atomic():
        table = _lock_table(version.table, revision)
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
        _confirm(table, version, actor)
        _bump(table)
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
        table = _lock_table(version.table, revision)
        _check_referee(actor, table.series.tournament)
        version = ResultVersion.objects.select_for_update().get(pk=version.pk)
        if version.status != ResultVersion.Status.PENDING:
            raise ConflictError(_("Dieses Ergebnis wartet nicht mehr auf Bestätigung."))
        version.status = ResultVersion.Status.REJECTED
        version.decided_by = acting_user(actor)
        version.decided_at = timezone.now()
        version.reason = (version.reason + " | " if version.reason else "") + reason
        version.save(update_fields=["status", "decided_by", "decided_at", "reason"])
        _bump(table)
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


# --- Entry at the table ------------------------------------------------------
#
# A player of a table of the current series enters its games from his phone
# (his personal link); another player of the table confirms them (or every
# other one, as the tournament says), and then they count like a result a
# referee confirmed. Referees and the organizer still enter, confirm, reject
# and correct with the services above.

TableAction = Literal["enter", "confirm", "reject"]


class TableRefused(NotAllowed):
    """A player may not do this at this table; `code` says why."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code


def _player_name(player: Entry) -> str:
    return f"{player.start_number} {player.player.full_name}"


def _answers(version: ResultVersion) -> list[ResultAnswer]:
    # Prefetched by the players' pages (`selectors.table_entry_state`).
    return list(version.answers.all())


def table_player_refusal(
    *,
    player: Entry,
    table: Table,
    action: TableAction,
    version: ResultVersion | None = None,
) -> UserError | None:
    """Why `player` may not `action` (enter, confirm or reject `version`)
    at `table` now, as the error the services raise; None if he may.

    The rules, in order: entry at the table is switched on; the player
    belongs to the tournament and is not withdrawn; the table is of the
    current series (the latest released) and the player sits at it; it is
    not played digitally. To enter: no result is confirmed yet and no
    referee's entry waits (a player's waiting entry may be replaced). To
    confirm or reject: the version waits, a player of the table entered it,
    not this one, and he has not answered it yet; nobody may confirm what
    another player disputed (the referees decide then)."""
    refused = _table_refusal(player, table)
    if refused is not None:
        return refused
    if action == "enter":
        return _enter_refusal(table)
    return _answer_refusal(player, version, action)


def table_player_refusals(
    *, player: Entry, table: Table, version: ResultVersion | None = None
) -> dict[TableAction, UserError | None]:
    """`table_player_refusal` for all three actions at once (a player's
    page asks on every draw): the table's rules checked and the answers
    read once."""
    refused = _table_refusal(player, table)
    if refused is not None:
        return {"enter": refused, "confirm": refused, "reject": refused}
    answers = (
        _answers(version)
        if version is not None and version.status == ResultVersion.Status.PENDING
        else []
    )
    return {
        "enter": _enter_refusal(table),
        "confirm": _answer_refusal(player, version, "confirm", answers),
        "reject": _answer_refusal(player, version, "reject", answers),
    }


def _table_refusal(player: Entry, table: Table) -> UserError | None:
    """The rules of every action: entry at the table on, the player's own
    tournament and table of the current series, not withdrawn, not a
    digital table."""
    series = table.series
    tournament = series.tournament
    if tournament.table_entry == Tournament.TableEntry.OFF:
        return TableRefused(
            _(
                "In diesem Turnier geben die Schiedsrichter die Ergebnisse ein; "
                "die Eingabe am Tisch ist ausgeschaltet."
            ),
            code="table_entry_off",
        )
    if player.tournament_id != tournament.pk:
        return TableRefused(
            _("Dieser Tisch gehört zu einem anderen Turnier."), code="other_tournament"
        )
    if player.withdrawn_at is not None:
        return TableRefused(
            _(
                "Sie sind vom Turnier abgemeldet und können keine Ergebnisse mehr "
                "eingeben oder bestätigen. Bitte bei der Turnierleitung melden."
            ),
            code="withdrawn",
        )
    current = current_series(tournament)
    if current is None or series.pk != current.pk or not series.is_public:
        return TableRefused(
            _(
                "Serie %(n)d ist nicht mehr die laufende Serie; ihre Ergebnisse "
                "geben jetzt nur noch die Schiedsrichter ein."
            )
            % {"n": series.number},
            code="past_series",
        )
    if not any(seat.entry_id == player.pk for seat in table.seats.all()):
        return TableRefused(
            _(
                "Sie sitzen in Serie %(s)d nicht an Tisch %(t)d. Ergebnisse können "
                "Sie nur für Ihren eigenen Tisch eingeben."
            )
            % {"s": series.number, "t": table.number},
            code="other_table",
        )
    if DigitalTable.objects.filter(
        table=table, status=DigitalTable.Status.PLAYING
    ).exists():
        return TableRefused(
            _("Tisch %(t)d wird digital gespielt; sein Ergebnis kommt vom Tisch.")
            % {"t": table.number},
            code="digital_table",
        )
    return None


def _enter_refusal(table: Table) -> UserError | None:
    """To enter: no result confirmed, no referee's entry waiting."""
    versions = {
        v.status: v
        for v in table.result_versions.filter(
            status__in=[ResultVersion.Status.PENDING, ResultVersion.Status.CONFIRMED]
        )
    }
    if ResultVersion.Status.CONFIRMED in versions:
        return TableRefused(
            _(
                "Das Ergebnis von Tisch %(t)d ist schon bestätigt. Ändern "
                "können es nur noch die Schiedsrichter: bitte dort melden."
            )
            % {"t": table.number},
            code="confirmed",
        )
    waiting = versions.get(ResultVersion.Status.PENDING)
    if waiting is not None and not waiting.at_table:
        return TableRefused(
            _(
                "Die Schiedsrichter haben das Ergebnis von Tisch %(t)d schon "
                "eingegeben; sie bestätigen es auch."
            )
            % {"t": table.number},
            code="referee_entry",
        )
    return None


def _answer_refusal(
    player: Entry,
    version: ResultVersion | None,
    action: TableAction,
    answers: list[ResultAnswer] | None = None,
) -> UserError | None:
    """To confirm or reject `version`: it waits, another player of the
    table entered it, this one has not answered; nobody confirms what
    another player disputed. `answers`: the version's, if read already."""
    if version is None or version.status != ResultVersion.Status.PENDING:
        return ConflictError(
            _(
                "Dieses Ergebnis wartet nicht mehr auf Bestätigung: inzwischen "
                "wurde es bestätigt, ersetzt oder abgelehnt. Bitte den neuen "
                "Stand ansehen."
            )
        )
    if not version.at_table:
        return TableRefused(
            _(
                "Dieses Ergebnis haben die Schiedsrichter eingegeben; sie "
                "bestätigen es auch."
            ),
            code="referee_entry",
        )
    if version.entered_by_player_id == player.pk:
        return TableRefused(
            _(
                "Sie haben dieses Ergebnis selbst eingegeben. Bestätigen muss es "
                "ein anderer Spieler Ihres Tisches."
            ),
            code="own_entry",
        )
    answers = _answers(version) if answers is None else answers
    mine = next((a for a in answers if a.entry_id == player.pk), None)
    if mine is not None:
        return TableRefused(
            _("Sie haben zu diesem Ergebnis schon geantwortet: „%(a)s“.")
            % {"a": mine.get_answer_display()},
            code="answered",
        )
    if action == "confirm" and any(not a.agrees for a in answers):
        return TableRefused(
            _(
                "Ein Spieler des Tisches hat „Stimmt nicht“ gesagt; jetzt "
                "entscheiden die Schiedsrichter, ein „Stimmt“ ist nicht mehr "
                "möglich. Wer das richtige Ergebnis kennt, gibt es neu ein."
            ),
            code="disputed",
        )
    return None


def _refuse_unless_allowed(
    *,
    player: Entry,
    table: Table,
    action: TableAction,
    version: ResultVersion | None = None,
) -> None:
    refusal = table_player_refusal(
        player=player, table=table, action=action, version=version
    )
    if refusal is not None:
        raise refusal


def _seat_text(player: Entry, table: Table) -> str:
    seat = next((s.number for s in table.seats.all() if s.entry_id == player.pk), 0)
    return _("Spieler %(p)s, Serie %(s)d, Tisch %(t)d, Sitz %(seat)d") % {
        "p": _player_name(player),
        "s": table.series.number,
        "t": table.number,
        "seat": seat,
    }


def _lock_for_player(
    table: Table, revision: int | None, player: Entry
) -> tuple[Table, Entry]:
    """The table locked (as `_lock_table`), with its seats, and the player
    as he is now (withdrawn meanwhile?)."""
    table = _lock_table(table, revision)
    seats = Seat.objects.select_related("entry__player")
    prefetch_related_objects([table], Prefetch("seats", queryset=seats))
    return table, Entry.objects.select_related("player").get(pk=player.pk)


def result_enter_by_player(
    *,
    player: Entry,
    table: Table,
    games: Sequence[GameInput],
    mode: str,
    revision: int | None,
) -> ResultVersion:
    """A player of the table enters its games (the same checks as a
    referee's entry: GameErrors with every mistake). It waits until another
    player of the table confirms it – or every other one, as the tournament
    says. A waiting entry of the table's players is replaced (kept in the
    history); anything else `table_player_refusal` names is refused."""
    with transaction.atomic():
        table, player = _lock_for_player(table, revision, player)
        tournament = table.series.tournament
        _refuse_unless_allowed(player=player, table=table, action="enter")
        data = adapter.table_result_data(
            games=games,
            table_size=table.size,
            tournament=tournament,
            left=table_left(table),
        )
        _supersede_pending(table)
        version = ResultVersion.objects.create(
            table=table,
            number=_next_number(table),
            status=ResultVersion.Status.PENDING,
            mode=mode,
            data=data,
            entered_by_player=player,
        )
        invalidation.entries_changed(tournament.pk)
        _bump(table)
        audit_record(
            actor=None,
            player=player,
            action="result.table_enter",
            obj=version,
            tournament=tournament,
            before=None,
            after={"status": version.status, **data},
            note=_seat_text(player, table),
        )
    return version


def needed_answers(table: Table, version: ResultVersion) -> set[int]:
    """The entries whose *Stimmt* the version waits for: every other player
    of the table still in the tournament (with "one other player confirms"
    the first of them is enough). The table's seats prefetched with their
    entries."""
    return {
        seat.entry_id
        for seat in table.seats.all()
        if seat.entry_id != version.entered_by_player_id
        and seat.entry.withdrawn_at is None
    }


def _lock_to_answer(
    player: Entry, version: ResultVersion, action: TableAction
) -> tuple[Table, Entry, ResultVersion]:
    """A player answers a waiting version (in the caller's transaction):
    the table locked with its seats, the player as he is now and the version
    locked; refused unless he may give that answer now."""
    table, player = _lock_for_player(version.table, None, player)
    version = _locked_version(table, version)
    _refuse_unless_allowed(player=player, table=table, action=action, version=version)
    return table, player, version


def _locked_version(table: Table, version: ResultVersion) -> ResultVersion:
    locked = (
        ResultVersion.objects.select_for_update()
        .filter(pk=version.pk, table=table)
        .first()
    )
    if locked is None:
        raise ConflictError(_("Dieses Ergebnis gibt es an diesem Tisch nicht."))
    return locked


def result_confirm_by_player(*, player: Entry, version: ResultVersion) -> ResultVersion:
    """Another player of the table says *Stimmt*. With "one other player
    confirms" the result counts at once; with "all other players confirm"
    once every other player of the table still in the tournament did. A
    version no longer waiting (replaced or decided meanwhile) is a
    conflict; nothing else changes then."""
    with transaction.atomic():
        table, player, version = _lock_to_answer(player, version, "confirm")
        tournament = table.series.tournament
        ResultAnswer.objects.create(
            version=version, entry=player, answer=ResultAnswer.Answer.AGREE
        )
        agreed = set(
            version.answers.filter(answer=ResultAnswer.Answer.AGREE).values_list(
                "entry_id", flat=True
            )
        )
        needed = needed_answers(table, version)
        counts = tournament.table_entry == Tournament.TableEntry.ONE or needed <= agreed
        if counts:
            _confirm(table, version, None, player)
        else:
            invalidation.entries_changed(tournament.pk)
        _bump(table)
        audit_record(
            actor=None,
            player=player,
            action="result.table_confirm" if counts else "result.table_agree",
            obj=version,
            tournament=tournament,
            before={"status": ResultVersion.Status.PENDING, "version": version.number},
            after={"status": version.status, "version": version.number},
            note=_seat_text(player, table),
        )
    return version


def result_reject_by_player(
    *, player: Entry, version: ResultVersion, reason: str
) -> ResultVersion:
    """Another player of the table says *Stimmt nicht*, with a reason. The
    entry keeps waiting, but no player can confirm it any more: the table
    shows on the referees' progress page with its versions, and the
    referees decide (or a player of the table enters it anew)."""
    reason = reason.strip()
    if not reason:
        raise UserError(
            _(
                "Bitte kurz sagen, was nicht stimmt (z. B. „Spiel 3 hat Sitz 2 "
                "gewonnen“)."
            ),
            code="reason_required",
        )
    with transaction.atomic():
        table, player, version = _lock_to_answer(player, version, "reject")
        tournament = table.series.tournament
        ResultAnswer.objects.create(
            version=version,
            entry=player,
            answer=ResultAnswer.Answer.DISAGREE,
            reason=reason[:300],
        )
        version.decided_by_player = player
        version.save(update_fields=["decided_by_player"])
        invalidation.entries_changed(tournament.pk)
        _bump(table)
        audit_record(
            actor=None,
            player=player,
            action="result.table_dispute",
            obj=version,
            tournament=tournament,
            before={"status": version.status, "version": version.number},
            after={
                "status": version.status,
                "version": version.number,
                "disputed": True,
            },
            note=f"{_seat_text(player, table)}: {reason[:300]}",
        )
    return version
