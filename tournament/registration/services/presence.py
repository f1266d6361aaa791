"""Check-in, withdrawal and reinstatement, and a new personal link."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import Entry
from tournament.models.core import new_link_token
from tournament.registration.selectors import (
    WithdrawalMoment,
    last_series_seated,
    withdrawal_moment,
)
from tournament.registration.services.entries import ENTRY_FIELDS

# What a withdrawal writes (and taking it back clears): the reason and when
# he left (`Entry.withdrawn_after_series`, `withdrawn_after_game`).
WITHDRAWAL = [
    "withdrawn_at",
    "withdrawal_reason",
    "withdrawn_after_series",
    "withdrawn_after_game",
]


# The withdrawal as the audit keeps it.
WITHDRAWAL_FIELDS = [*ENTRY_FIELDS, "withdrawn_after_series", "withdrawn_after_game"]


def entry_set_checked_in(*, actor: Actor, entry: Entry, checked_in: bool) -> Entry:
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.checked_in == checked_in:
            return entry
        before = snapshot(entry, ["checked_in"])
        entry.checked_in = checked_in
        entry.save(update_fields=["checked_in"])
        audit_record(
            actor=actor,
            action="entry.check_in" if checked_in else "entry.check_out",
            obj=entry,
            tournament=entry.tournament,
            before=before,
            after=snapshot(entry, ["checked_in"]),
        )
        invalidation.field_changed(entry.tournament_id)
    return entry


def entry_withdraw(
    *,
    actor: Actor,
    entry: Entry,
    reason: str,
    after_series: int | None = None,
    after_game: int | None = None,
) -> Entry:
    """Withdraw a player; the entry and its start number stay (results keep).

    In a series he is seated in and whose results are not all in, the
    organizer says after which of its games he left (`after_game`: 0 before
    the first, the series' game count or None after the last), naming the
    series he saw on the page (`after_series`: a page from before another
    series was drawn is refused). His table's later games are entered
    without him (`results`). Without `after_game` he leaves after that
    series, or before it if it is drawn but not released. Seated in no
    such series, he leaves after the last one he played."""
    reason = reason.strip()
    if not reason:
        raise UserError(_("Bitte einen Grund angeben."), code="reason_required")
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.withdrawn_at is not None:
            raise UserError(_("Der Spieler ist bereits abgemeldet."), code="withdrawn")
        moment = withdrawal_moment(entry)
        series, game = _withdrawal_after(moment, entry, after_series, after_game)
        before = snapshot(entry, WITHDRAWAL_FIELDS)
        entry.withdrawn_at = timezone.now()
        entry.withdrawal_reason = reason[:200]
        entry.withdrawn_after_series = series
        entry.withdrawn_after_game = game
        entry.save(update_fields=WITHDRAWAL)
        invalidation.link_changed(entry.tournament_id, entry.link_token)
        audit_record(
            actor=actor,
            action="entry.withdraw",
            obj=entry,
            tournament=entry.tournament,
            before=before,
            after=snapshot(entry, WITHDRAWAL_FIELDS),
            note=entry.withdrawal_text,
        )
        invalidation.field_changed(entry.tournament_id)
        if moment.released:
            # His table's form and the series' pages change too.
            invalidation.seating_changed(entry.tournament_id)
    return entry


def _withdrawal_after(
    moment: WithdrawalMoment,
    entry: Entry,
    after_series: int | None,
    after_game: int | None,
) -> tuple[int | None, int | None]:
    """(series, game) to store for a withdrawal: game None is after the
    whole series, 0 before its first game. Refuses a moment that does not
    fit where he stands now."""
    if not moment.running:
        if after_series is not None:
            raise UserError(
                _(
                    "Er sitzt in keiner laufenden Serie mehr; bitte die Seite neu "
                    "laden."
                ),
                code="stale_moment",
            )
        return last_series_seated(entry), None
    if after_series is not None and after_series != moment.series:
        raise UserError(
            _(
                "Inzwischen läuft Serie %(n)d; bitte die Seite neu laden und "
                "noch einmal wählen."
            )
            % {"n": moment.series},
            code="stale_moment",
        )
    if not moment.released:
        if after_game:
            raise UserError(
                _(
                    "Serie %(n)d ist noch nicht veröffentlicht, also noch nicht "
                    "begonnen: er fehlt in allen ihren Spielen."
                )
                % {"n": moment.series},
                code="not_started",
            )
        return moment.series, 0
    if after_game is None or after_game == moment.games:
        return moment.series, None
    if not 0 <= after_game < moment.games:
        raise UserError(
            _("Bitte ein Spiel von 0 bis %(n)d wählen.") % {"n": moment.games},
            code="after_game_range",
        )
    if moment.result_entered:
        raise UserError(
            _(
                "Für Tisch %(t)d ist schon ein Ergebnis eingegeben, mit ihm in "
                "allen Spielen: bitte „nach der Serie“ wählen. Ist er doch "
                "früher gegangen und wartet die Eingabe noch auf Bestätigung: "
                "sie erst ablehnen, dann abmelden."
            )
            % {"t": moment.table},
            code="result_entered",
        )
    return moment.series, after_game


def entry_reinstate(*, actor: Actor, entry: Entry) -> Entry:
    """Take a withdrawal back: he plays every game again. Refused while his
    table in the running series has a result entered without him (he left
    during it): that result would name him in games he did not play."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.withdrawn_at is None:
            return entry
        moment = withdrawal_moment(entry)
        if (
            entry.withdrawn_after_game is not None
            and moment.series == entry.withdrawn_after_series
            and moment.result_entered
        ):
            raise UserError(
                _(
                    "Für Tisch %(t)d ist schon ein Ergebnis ohne ihn eingegeben. "
                    "Die Abmeldung kann erst zurückgenommen werden, wenn es nicht "
                    "mehr gilt (eine wartende Eingabe ablehnen) – oder nach "
                    "dieser Serie."
                )
                % {"t": moment.table},
                code="result_without_him",
            )
        before = snapshot(entry, WITHDRAWAL_FIELDS)
        entry.withdrawn_at = None
        entry.withdrawal_reason = ""
        entry.withdrawn_after_series = None
        entry.withdrawn_after_game = None
        entry.save(update_fields=WITHDRAWAL)
        audit_record(
            actor=actor,
            action="entry.reinstate",
            obj=entry,
            tournament=entry.tournament,
            before=before,
            after=snapshot(entry, WITHDRAWAL_FIELDS),
        )
        invalidation.field_changed(entry.tournament_id)
    return entry


def entry_link_renew(*, actor: Actor, entry: Entry) -> Entry:
    """A new personal link for a player (a lost card): the old link stops
    working at once, also on a phone that opened it. The trail records that
    it happened, never a link itself."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        invalidation.link_changed(entry.tournament_id, entry.link_token)  # it ends
        entry.link_token = new_link_token()
        entry.save(update_fields=["link_token"])
        audit_record(
            actor=actor,
            action="entry.link_renew",
            obj=entry,
            tournament=entry.tournament,
            note=_("Spieler %(n)d: die alte Spielerkarte gilt nicht mehr.")
            % {"n": entry.start_number},
        )
    return entry
