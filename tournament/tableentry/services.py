"""Entry at the table: a player of a table of the current series enters its
games from his phone (his personal link); another player of the table
confirms them (or every other one, as the tournament says), and then they
count like a result a referee confirmed. Referees and the organizer still
enter, confirm, reject and correct with `results.services`, whose writes of
a result version these services share.

Who of a table may do what is decided in one place, `table_player_refusal`:
the player's pages ask it what to offer, and the services refuse the same.
"""

from collections.abc import Sequence
from typing import Literal

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError, NotAllowed, UserError
from tournament.live import invalidation
from tournament.models import (
    DigitalTable,
    Entry,
    ResultAnswer,
    ResultVersion,
    Seat,
    Table,
    Tournament,
)
from tournament.models.results import StoredResult
from tournament.results import services as results_services
from tournament.results.services import GameInput
from tournament.seating.selectors import current_series

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
        ).order_by("-number")
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
    """The table locked (`results.services.table_lock`), with its seats,
    and the player as he is now (withdrawn meanwhile?)."""
    table = results_services.table_lock(table=table, revision=revision)
    seats = Seat.objects.select_related("entry__player")
    prefetch_related_objects([table], Prefetch("seats", queryset=seats))
    return table, Entry.objects.select_related("player").get(pk=player.pk)


def _repeated_entry(
    table: Table, player: Entry, mode: str, data: StoredResult
) -> ResultVersion | None:
    """`player`'s waiting entry of `table` when it holds these very games
    in this `mode` (his save repeated), else None."""
    waiting = (
        ResultVersion.objects.filter(
            table=table,
            status=ResultVersion.Status.PENDING,
            entered_by_player=player,
            mode=mode,
        )
        .order_by("-number")
        .first()
    )
    if waiting is not None and waiting.result == data:
        return waiting
    return None


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
    history); anything else `table_player_refusal` names is refused.

    The same games saved again by the same player while his entry waits
    (a second tap, a phone that sent its kept entry and still shows the
    form) are a repeat: his waiting entry is returned and nothing is
    written (the view tells it by the entry that waited before)."""
    with transaction.atomic():
        table, player = _lock_for_player(table, None, player)
        tournament = table.series.tournament
        _refuse_unless_allowed(player=player, table=table, action="enter")
        data = results_services.result_check(
            games=games, table=table, tournament=tournament
        )
        repeated = _repeated_entry(table, player, mode, data)
        if repeated is not None:
            return repeated
        # Not a repeat: saved against the table as the form showed it.
        results_services.table_lock(table=table, revision=revision)
        version = results_services.version_add(
            table=table, mode=mode, data=data, entered_by_player=player
        )
        invalidation.entries_changed(tournament.pk)
        results_services.revision_bump(table=table)
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
            results_services.version_confirm(
                table=table, version=version, actor=None, player=player
            )
        else:
            invalidation.entries_changed(tournament.pk)
        results_services.revision_bump(table=table)
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
        results_services.revision_bump(table=table)
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


def entered_message(tournament: Tournament) -> str:
    """What a player reads after entering his table's result: who confirms
    it next, as the tournament's entry at the table decides."""
    if tournament.table_entry == Tournament.TableEntry.ALL:
        return _(
            "Gespeichert. Jetzt bestätigen die anderen Spieler Ihres Tisches auf "
            "ihren Handys."
        )
    return _(
        "Gespeichert. Jetzt bestätigt ein anderer Spieler Ihres Tisches auf "
        "seinem Handy."
    )
