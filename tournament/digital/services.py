"""Digital tables: a table of a series (or a practice table) played in the
browser. Every move goes through `scoring` (via `adapter`); the game
records are kept; each finished game is the table's confirmed result at once.

A move is one transaction on the locked table row: read the records, apply,
write them back with the table's version bumped. A message carries the
version it was sent against (an older one is stale: refused, nothing
changes) and the seat's message number (a repeat changes nothing). After
the commit, the table's sockets are told (`digital_changed`) and the bot
runner is woken (`tournament.digital.runner`).
"""

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.bots import BOTS, DEFAULT_BOT
from scoring.errors import IllegalAction
from tournament.core.audit import audit_record
from tournament.core.errors import ConflictError, UserError
from tournament.core.roles import Actor, acting_user
from tournament.digital import adapter, moves, runner
from tournament.models import (
    DigitalSeat,
    DigitalTable,
    ResultVersion,
    Series,
    Table,
    Tournament,
)

# The bots a seat may be given, as the organizer's form offers them.
BOT_NAMES = tuple(sorted(BOTS))
PLAYABLE_SERIES = (Series.Status.RELEASED, Series.Status.PLAYING)

# What the rules say, in the players' words (codes of scoring.errors): what
# happened, and the rule behind it in words (never a paragraph number).
ILLEGAL_MESSAGES = {
    "hand_finished": gettext_lazy("Das Einzelspiel ist schon vorbei."),
    "unknown_seat": gettext_lazy("Diesen Sitz gibt es an diesem Tisch nicht."),
    "seat_out_of_game": gettext_lazy("Sie sind in diesem Spiel schon ausgeschieden."),
    "seat_folded": gettext_lazy("Sie haben in diesem Einzelspiel gepasst."),
    "hammer_must_knock": gettext_lazy(
        "Zuerst muss der Spieler auf dem Hammer klopfen (auf 2)."
    ),
    "bad_action": gettext_lazy("Diese Nachricht ist kein gültiger Spielzug."),
    "no_hand_dealt": gettext_lazy("Es ist noch nicht gegeben."),
    "hand_in_progress": gettext_lazy("Das Einzelspiel läuft noch."),
    "already_looked": gettext_lazy("Sie haben Ihre Karten schon angesehen."),
    "knock_twice_in_a_row": gettext_lazy("Sie haben zuletzt geklopft."),
    "knock_above_max_value": gettext_lazy("Höher als 7 kann nicht geklopft werden."),
    "knock_above_marks": gettext_lazy(
        "Sie können nicht höher klopfen, als Sie Schräm haben."
    ),
    "knock_during_answers": gettext_lazy(
        "Erst müssen alle auf das Klopfen antworten (halten oder passen)."
    ),
    "blind_knock_limit": gettext_lazy("Blind klopfen geht nicht mehr."),
    "no_knock_to_answer": gettext_lazy("Es gibt kein Klopfen zu beantworten."),
    "answer_out_of_turn": gettext_lazy("Sie sind mit der Antwort nicht an der Reihe."),
    "play_during_answers": gettext_lazy(
        "Erst müssen alle auf das Klopfen antworten (halten oder passen)."
    ),
    "look_first": gettext_lazy(
        "Bitte zuerst die Karten ansehen; verdeckt kann keine Karte gespielt werden."
    ),
    "play_out_of_turn": gettext_lazy("Sie sind nicht an der Reihe."),
    "card_not_in_hand": gettext_lazy("Diese Karte haben Sie nicht."),
    "must_follow_suit": gettext_lazy("Farbe muss bedient werden."),
    "game_over": gettext_lazy("Das Spiel ist vorbei."),
}
ILLEGAL_RULES = {
    "hand_finished": gettext_lazy(
        "wer den letzten Stich macht, gewinnt das Einzelspiel; dann wird neu gegeben"
    ),
    "seat_out_of_game": gettext_lazy(
        "wer keinen Schräm mehr hat, spielt bis zum Ende des Spiels nicht mit"
    ),
    "seat_folded": gettext_lazy(
        "wer passt, spielt bis zum Ende des Einzelspiels nicht mehr mit"
    ),
    "hammer_must_knock": gettext_lazy(
        "wer nur noch 1 Schräm hat, klopft vor allem anderen blind auf 2"
    ),
    "already_looked": gettext_lazy(
        "blind klopft nur, wer seine Karten noch nicht angesehen hat"
    ),
    "knock_twice_in_a_row": gettext_lazy("niemand klopft zweimal hintereinander"),
    "knock_above_max_value": gettext_lazy("ein Einzelspiel ist höchstens 7 wert"),
    "knock_above_marks": gettext_lazy(
        "man klopft höchstens bis zu den eigenen Schräm; mit 2 Schräm bis 3"
    ),
    "knock_during_answers": gettext_lazy(
        "auf ein Klopfen antworten die anderen reihum, bevor weitergespielt wird"
    ),
    "blind_knock_limit": gettext_lazy(
        "in einem Einzelspiel wird höchstens dreimal blind geklopft"
    ),
    "no_knock_to_answer": gettext_lazy(
        "halten oder passen ist die Antwort auf ein Klopfen"
    ),
    "answer_out_of_turn": gettext_lazy(
        "auf ein Klopfen wird reihum geantwortet, links vom Klopfenden beginnend"
    ),
    "play_during_answers": gettext_lazy(
        "auf ein Klopfen antworten die anderen reihum, bevor weitergespielt wird"
    ),
    "play_out_of_turn": gettext_lazy(
        "gespielt wird reihum im Uhrzeigersinn; wer den Stich macht, spielt aus"
    ),
    "must_follow_suit": gettext_lazy(
        "wer die ausgespielte Farbe hat, muss sie bedienen"
    ),
    "game_over": gettext_lazy("wer als Letzter noch Schräm hat, gewinnt das Spiel"),
}


# A move is a few dozen characters; more is not a move (socket or HTTP).
MAX_MESSAGE_CHARS = 1000
# JSON numbers a browser can hold exactly.
MAX_NUMBER = 2**53
# How far a message's number may run ahead of the seat's count. The page
# sends `next_seq` (last_seq + 1) of the state it shows; a number far ahead
# is no page's, and accepted it would lock the seat: every later message
# would count as a repeat (a seq of 2**53 - 1 left no number above it).
SEQ_WINDOW = 16
ACT_KEYS = frozenset({"type", "seq", "version", "act", "card"})


def _number(value: Any) -> int | None:
    if type(value) is not int or not 0 <= value < MAX_NUMBER:
        return None
    return value


def parse_message(message: Any) -> dict[str, Any] | None:
    """A player's message, decoded from JSON, if it is one of
    ``{"type": "sync"}``, ``{"type": "here"}`` (the page is open: what the
    HTTP fallback sends, as a socket is open) or ``{"type": "act", "seq": n,
    "version": v, "act": "...", "card": "10H"?}``; else None. (Whether the
    act is legal is for the rules to say.)"""
    if not isinstance(message, dict):
        return None
    kind = message.get("type")
    if kind in ("sync", "here") and message.keys() == {"type"}:
        return message
    if kind != "act" or not message.keys() <= ACT_KEYS:
        return None
    seq, version = _number(message.get("seq")), _number(message.get("version"))
    if seq is None or seq < 1 or version is None:
        return None
    if not isinstance(message.get("act"), str):
        return None
    card = message.get("card")
    if card is not None and not isinstance(card, str):
        return None
    return message


class OutOfStep(ConflictError):
    """A message numbered beyond the seat's window (`SEQ_WINDOW`): nothing
    changes, and the page is told to fetch the state again (code
    "resync"), which gives it the number to send next."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Die Seite war nicht auf dem neuesten Stand und wurde neu "
                "geladen. Bitte noch einmal wählen."
            )
        )
        self.code = "resync"


@dataclass(frozen=True)
class Move:
    """What a player's message did: `applied` False for a repeat."""

    table: DigitalTable
    seat: DigitalSeat
    applied: bool


def _token() -> str:
    return secrets.token_urlsafe(24)


def _notify(table: DigitalTable) -> None:
    """After the commit: the table's sockets re-read their views, and the
    bots get their turn."""
    moves.tell_sockets(table.pk)
    _wake_bots(table)


def _wake_bots(table: DigitalTable) -> None:
    table_id = table.pk
    transaction.on_commit(lambda: runner.wake(table_id))


def _check_bots(bots: dict[int, str], size: int) -> None:
    for seat, bot in bots.items():
        if not 1 <= seat <= size or bot not in ("", *BOT_NAMES):
            raise UserError(_("Ungültige Bot-Auswahl."), code="bad_bot")


def _refuse_digital(table: Table) -> None:
    """Refuse to make `table` digital: its series not released or over, the
    table digital already, or a result entered for it."""
    series = table.series
    if series.status not in PLAYABLE_SERIES:
        raise UserError(
            _("Serie %(n)d ist nicht freigegeben oder schon beendet.")
            % {"n": series.number},
            code="series_not_open",
        )
    if DigitalTable.objects.filter(table=table).exists():
        raise UserError(
            _("Tisch %(t)d ist schon ein digitaler Tisch.") % {"t": table.number},
            code="already_digital",
        )
    if table.result_versions.filter(
        status__in=[ResultVersion.Status.PENDING, ResultVersion.Status.CONFIRMED]
    ).exists():
        raise UserError(
            _(
                "Für Tisch %(t)d ist schon ein Ergebnis eingegeben; er kann "
                "nicht mehr digital gespielt werden."
            )
            % {"t": table.number},
            code="has_result",
        )


def digital_table_create(
    *, actor: Actor, table: Table, bots: dict[int, str]
) -> DigitalTable:
    """Make a table of a released series digital: every seat gets a private
    link, `bots` (seat -> bot name) fill the seats chosen; play starts."""
    _check_bots(bots, table.size)
    with transaction.atomic():
        table = (
            Table.objects.select_for_update()
            .select_related("series__tournament")
            .get(pk=table.pk)
        )
        series = table.series
        tournament = series.tournament
        _refuse_digital(table)
        digital = DigitalTable(
            table=table,
            rules=tournament.rule_preset,
            start_marks=tournament.start_marks,
            win_bonus=tournament.win_bonus,
            size=table.size,
            games_total=tournament.games_per_series,
            created_by=acting_user(actor),
        )
        adapter.start(digital)
        digital.save()
        DigitalSeat.objects.bulk_create(
            DigitalSeat(
                table=digital,
                number=seat.number,
                entry_id=seat.entry_id,
                bot=bots.get(seat.number, ""),
                token=_token(),
            )
            for seat in table.seats.all()
        )
        audit_record(
            actor=actor,
            action="digital.create",
            obj=digital,
            tournament=tournament,
            after={"table": table.number, "series": series.number, "bots": bots},
        )
        _notify(digital)
    return digital


def digital_practice_create(
    *, bot: str = DEFAULT_BOT, seed: str = "", replacing: DigitalSeat | None = None
) -> DigitalSeat:
    """A practice table outside any tournament: you on seat 1, bots on the
    others, one game by the championship rules. Returns your seat.

    First every practice table without a move for
    `DIGITAL_PRACTICE_IDLE_MINUTES` stops. Then, while
    `DIGITAL_PRACTICE_MAX_PLAYING` are still being played, UserError and
    nothing opens; else the table of `replacing` (the visitor's seat at the
    table he leaves for the new one) stops and the new one opens."""
    _check_bots({2: bot}, 4)
    idle = timezone.now() - timedelta(minutes=settings.DIGITAL_PRACTICE_IDLE_MINUTES)
    with transaction.atomic():
        _practice_stop(Q(updated_at__lt=idle))
    with transaction.atomic():
        playing = DigitalTable.objects.filter(
            table__isnull=True, status=DigitalTable.Status.PLAYING
        )
        if replacing is not None:
            playing = playing.exclude(pk=replacing.table_id)
        if playing.count() >= settings.DIGITAL_PRACTICE_MAX_PLAYING:
            raise UserError(
                _(
                    "Gerade üben zu viele Tische gleichzeitig. Bitte in ein "
                    "paar Minuten noch einmal versuchen."
                ),
                code="practice_busy",
            )
        if replacing is not None:
            _practice_stop(Q(pk=replacing.table_id))
        digital = DigitalTable(size=4, games_total=1, deal_seed=seed)
        adapter.start(digital)
        digital.save()
        seats = DigitalSeat.objects.bulk_create(
            DigitalSeat(
                table=digital,
                number=n,
                bot="" if n == 1 else bot,
                token=_token(),
            )
            for n in range(1, 5)
        )
        _notify(digital)
    return seats[0]


def _practice_stop(which: Q) -> None:
    """In the caller's transaction: stop the practice tables `which` still
    being played; their pages are told after the commit. (A practice table
    counts for nothing: no audit row.)"""
    stopping = list(
        DigitalTable.objects.select_for_update()
        .filter(which, table__isnull=True, status=DigitalTable.Status.PLAYING)
        .values_list("pk", flat=True)
    )
    if not stopping:
        return
    DigitalTable.objects.filter(pk__in=stopping).update(
        status=DigitalTable.Status.STOPPED,
        version=F("version") + 1,
        updated_at=timezone.now(),
    )
    for table_id in stopping:
        moves.tell_sockets(table_id)


def illegal_message(error: IllegalAction) -> str:
    """A refused move in the players' words: what happened and the rule in
    words. Never the engine's code or paragraph (`error.rule`): players
    know the rules, not our files."""
    message: str | Promise | None = ILLEGAL_MESSAGES.get(error.code)
    if message is None:
        message = _("Das erlauben die Regeln hier nicht.")
    rule = ILLEGAL_RULES.get(error.code)
    if rule is None:
        return str(message)
    return _("%(message)s (Regel: %(rule)s)") % {"message": message, "rule": rule}


def digital_act(
    *, token: str, seq: int, version: int, act: str, card: Any = None
) -> Move:
    """A player's move sent from the private link `token`.

    `seq` is the seat's message number (a repeat of one already handled
    changes nothing; one more than `SEQ_WINDOW` ahead of the seat's count is
    refused with OutOfStep), `version` the table's version the player saw
    (an older one is stale: refused). Raises UserError (unknown link, stale,
    out of step, illegal by the rules, table over) and never changes
    anything then."""
    with transaction.atomic():
        seat = DigitalSeat.objects.select_related("table").filter(token=token).first()
        if seat is None:
            raise UserError(_("Diesen Tisch-Link gibt es nicht."), code="unknown_link")
        digital = moves.lock(seat.table_id)
        seat = DigitalSeat.objects.select_for_update().get(pk=seat.pk)
        if seq <= seat.last_seq:
            return Move(digital, seat, applied=False)
        if seq > seat.last_seq + SEQ_WINDOW:
            raise OutOfStep
        if digital.status != DigitalTable.Status.PLAYING:
            raise UserError(_("An diesem Tisch wird nicht mehr gespielt."), code="over")
        if seat.bot:
            raise UserError(
                _("Auf diesem Sitz spielt gerade ein Bot."), code="seat_is_bot"
            )
        if version != digital.version:
            raise ConflictError(
                _("Am Tisch hat sich gerade etwas geändert. Bitte noch einmal wählen.")
            )
        try:
            action = adapter.parse_action(seat.number, act, card)
        except ValueError:
            raise UserError(
                _("Diese Nachricht ist kein gültiger Spielzug."), code="bad_action"
            ) from None
        try:
            # A play before the look is refused before the rules see the card.
            adapter.check_chosen(digital, action)
            moves.apply(digital, action)
        except IllegalAction as error:
            raise UserError(illegal_message(error), code=error.code) from None
        _wake_bots(digital)
        seat.last_seq = seq
        seat.save(update_fields=["last_seq"])
    return Move(digital, seat, applied=True)


def digital_act_message(*, token: str, message: dict[str, Any]) -> Move:
    """`digital_act` for a message as `parse_message` returns it."""
    return digital_act(
        token=token,
        seq=message["seq"],
        version=message["version"],
        act=message["act"],
        card=message.get("card"),
    )


def digital_seat_set_bot(*, actor: Actor, seat: DigitalSeat, bot: str) -> DigitalSeat:
    """The organizer lets a bot take over a seat (a player dropped out) or
    gives it back to the person (""). Either way the choice is his: a seat
    taken over while its phone was gone stays with the bot chosen now."""
    _check_bots({seat.number: bot}, 4)
    with transaction.atomic():
        digital = moves.lock(seat.table_id)
        seat = DigitalSeat.objects.select_for_update().get(pk=seat.pk)
        before = seat.bot
        seat.bot = bot
        seat.away = False
        seat.save(update_fields=["bot", "away"])
        digital.version += 1
        digital.save(update_fields=["version", "updated_at"])
        audit_record(
            actor=actor,
            action="digital.seat",
            obj=seat,
            tournament=_tournament(digital),
            before={"bot": before},
            after={"bot": bot},
        )
        _notify(digital)
    return seat


def digital_seat_new_link(*, actor: Actor, seat: DigitalSeat) -> DigitalSeat:
    """A new private link for a seat; the old one stops working (a lost or
    shared phone)."""
    with transaction.atomic():
        seat = DigitalSeat.objects.select_for_update().get(pk=seat.pk)
        seat.token = _token()
        # The new link's page counts its messages afresh (this also frees a
        # seat whose count an old client ran up to the top).
        seat.last_seq = 0
        seat.save(update_fields=["token", "last_seq"])
        digital = seat.table
        audit_record(
            actor=actor,
            action="digital.link",
            obj=seat,
            tournament=_tournament(digital),
            after={"seat": seat.number},
        )
        # Sockets of the old link find it gone and close.
        _notify(digital)
    return seat


def digital_stop(*, actor: Actor, digital: DigitalTable, reason: str) -> DigitalTable:
    """End digital play early. The games finished so far stay counted; the
    referees enter the rest of the table's result by hand."""
    reason = reason.strip()
    if not reason:
        raise UserError(_("Bitte einen Grund angeben."), code="reason_required")
    with transaction.atomic():
        digital = moves.lock(digital.pk)
        if digital.status != DigitalTable.Status.PLAYING:
            raise ConflictError(_("An diesem Tisch wird schon nicht mehr gespielt."))
        digital.status = DigitalTable.Status.STOPPED
        digital.version += 1
        digital.save(update_fields=["status", "version", "updated_at"])
        audit_record(
            actor=actor,
            action="digital.stop",
            obj=digital,
            tournament=_tournament(digital),
            after={"status": digital.status},
            note=reason[:300],
        )
        _notify(digital)
    return digital


def _tournament(digital: DigitalTable) -> Tournament | None:
    table = digital.table  # None for a practice table (no query then)
    return table.series.tournament if table is not None else None
