"""Writes of a tournament's own settings: keyword-only, atomic, audited.

Settings that played series and results depend on are guarded here: a
change that would hide a seated series or make entered results wrong is
refused with a message per field (`SettingsRefused`); a change that is safe
brings what depends on it along (the kept totals, the draft series)."""

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import (
    DigitalTable,
    EntryTotal,
    ResultVersion,
    Series,
    Tournament,
)
from tournament.results.services import totals_refresh
from tournament.tournaments.selectors import close_refusal

if TYPE_CHECKING:
    from django.contrib.auth.models import User

TOURNAMENT_FIELDS = [
    "name",
    "slug",
    "date",
    "venue",
    "rule_preset",
    "series_count",
    "games_per_series",
    "start_marks",
    "win_bonus",
    "status",
    "is_championship",
    "double_entry",
    "table_entry",
    "show_provisional",
    "tiebreak_games_won",
    "tiebreak_best_game",
    "referees",
]

# The rules a result is checked and scored by: a stored result (its games,
# its marks, its points) holds only for the values it was entered with.
RULE_FIELDS = ("rule_preset", "games_per_series", "start_marks", "win_bonus")


class SettingsRefused(UserError):
    """Changes the tournament's series or results do not allow; `errors`
    holds a message per form field."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(" ".join(errors.values()), code="settings_refused")
        self.errors = errors


def _has_results(tournament: Tournament) -> bool:
    """Whether a result is entered (waiting or confirmed) or a digital
    table is playing one, under the tournament's current rules."""
    return (
        ResultVersion.objects.filter(
            table__series__tournament=tournament,
            status__in=[ResultVersion.Status.PENDING, ResultVersion.Status.CONFIRMED],
        ).exists()
        or DigitalTable.objects.filter(
            table__series__tournament=tournament, status=DigitalTable.Status.PLAYING
        ).exists()
    )


def _rule_message(field: str, old: Tournament) -> str:
    if field == "games_per_series":
        return _(
            "Es gibt schon Ergebnisse mit %(n)d Spielen pro Serie; die Zahl der "
            "Spiele lässt sich nicht mehr ändern."
        ) % {"n": old.games_per_series}
    if field == "start_marks":
        return _(
            "Es gibt schon Ergebnisse, gespielt mit %(n)d Schräm zu Beginn; das "
            "lässt sich nicht mehr ändern."
        ) % {"n": old.start_marks}
    if field == "win_bonus":
        return _(
            "Es gibt schon Ergebnisse, deren Punkte mit %(n)d Siegbonus berechnet "
            "sind; der Siegbonus lässt sich nicht mehr ändern."
        ) % {"n": old.win_bonus}
    return _(
        "Es gibt schon Ergebnisse nach dem Regelwerk „%(name)s“; das Regelwerk "
        "lässt sich nicht mehr ändern."
    ) % {"name": old.get_rule_preset_display()}


def settings_refusals(*, old: Tournament, new: Tournament) -> dict[str, str]:
    """What is wrong with changing a tournament's settings from `old` (as
    stored) to `new`, as a message per field; empty if the change is safe.

    Fewer series than the last seated one would hide a seating and its
    results. The rules (preset, games per series, start marks, win bonus)
    are fixed once a result exists: its games were checked and its points
    counted by them, and a waiting result would be confirmed by others."""
    refusals: dict[str, str] = {}
    if new.series_count < old.series_count:
        last = (
            Series.objects.filter(tournament=old)
            .seated()
            .aggregate(last=Max("number"))["last"]
        )
        if last is not None and new.series_count < last:
            refusals["series_count"] = _(
                "Serie %(n)d ist schon ausgelost; weniger als %(n)d Serien geht "
                "nicht mehr."
            ) % {"n": last}
    changed = [f for f in RULE_FIELDS if getattr(new, f) != getattr(old, f)]
    if changed and _has_results(old):
        for field in changed:
            refusals[field] = _rule_message(field, old)
    table_entry = _table_entry_refusal(old=old, new=new)
    if table_entry:
        refusals["table_entry"] = table_entry
    finished = Tournament.Status.FINISHED
    if new.status == finished and old.status != finished:
        # Closing is one rule, here as for the button (`tournament_close`).
        refusal = close_refusal(old)
        if refusal:
            refusals["status"] = _("Noch nicht zu beenden: %(why)s") % {"why": refusal}
    return refusals


def _table_entry_refusal(*, old: Tournament, new: Tournament) -> str:
    """Who of a table confirms is a rule of every entry the table's players
    made: while one waits for their confirmation, "one other player" and
    "all other players" are not switched, nor is it switched on again (the
    answers so far were given under the other rule). Switching it off is
    always possible: the waiting entries then wait for the referees."""
    if new.table_entry == old.table_entry:
        return ""
    if new.table_entry == Tournament.TableEntry.OFF:
        return ""
    waiting = sorted(
        ResultVersion.objects.filter(
            table__series__tournament=old,
            status=ResultVersion.Status.PENDING,
            entered_by_player__isnull=False,
        ).values_list("table__series__number", "table__number")
    )
    if not waiting:
        return ""
    tables = ", ".join(
        _("Serie %(s)d Tisch %(t)d") % {"s": s, "t": t} for s, t in waiting
    )
    return _(
        "Eingaben der Spieler warten noch auf ihre Bestätigung (%(tables)s); "
        "bis sie bestätigt oder von den Schiedsrichtern entschieden sind, lässt "
        "sich die Eingabe am Tisch nur ausschalten, nicht umstellen."
    ) % {"tables": tables}


def _series_count_follow(*, actor: Actor, tournament: Tournament, before: int) -> None:
    """Bring along what depends on the number of series: the draft series
    beyond it go (nothing is seated there; a draft left behind could be
    seated beyond the plan), and every player's kept points per series get
    one entry per series again."""
    count = tournament.series_count
    if count < before:
        for series in Series.objects.filter(
            tournament=tournament, number__gt=count, status=Series.Status.DRAFT
        ):
            audit_record(
                actor=actor,
                action="series.delete",
                obj=series,
                tournament=tournament,
                before={"number": series.number, "status": series.status},
            )
            series.delete()
    entry_ids = list(
        EntryTotal.objects.filter(entry__tournament=tournament).values_list(
            "entry_id", flat=True
        )
    )
    if entry_ids:
        totals_refresh(entry_ids=entry_ids, tournament=tournament)


def tournament_save(
    *,
    actor: Actor,
    tournament: Tournament,
    created: bool,
    referees: Iterable["User"] | None = None,
) -> Tournament:
    """Save a tournament built by a validated form, with an audit row.
    `referees` (users), when given, become the only referees allowed to
    enter its results; empty lets every referee. A change the series or
    results do not allow raises SettingsRefused and writes nothing."""
    with transaction.atomic():
        before = None
        old = None
        if not created:
            old = Tournament.objects.select_for_update().get(pk=tournament.pk)
            refusals = settings_refusals(old=old, new=tournament)
            if refusals:
                raise SettingsRefused(refusals)
            before = snapshot(old, TOURNAMENT_FIELDS)
        tournament.save()
        if referees is not None:
            tournament.referees.set(referees)
        if old is not None and old.series_count != tournament.series_count:
            _series_count_follow(
                actor=actor, tournament=tournament, before=old.series_count
            )
        invalidation.results_changed(tournament.pk)  # settings may change the ranking
        audit_record(
            actor=actor,
            action="tournament.create" if created else "tournament.update",
            obj=tournament,
            tournament=tournament,
            before=before,
            after=snapshot(tournament, TOURNAMENT_FIELDS),
        )
    return tournament


def tournament_close(*, actor: Actor, tournament: Tournament) -> Tournament:
    """Close the tournament: its standings are its result. From now on the
    history counts it (a person's best place, the champions, the season
    rankings); until then it shows there as running. Only once every series
    is played and every table's result confirmed (`close_refusal`), else a
    UserError saying what is missing; a result corrected afterwards still
    changes the standings and the history with them."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status == Tournament.Status.FINISHED:
            raise UserError(_("Das Turnier ist schon beendet."), code="closed")
        refusal = close_refusal(locked)
        if refusal:
            raise UserError(refusal, code="not_closable")
        return _status_set(
            actor=actor,
            tournament=locked,
            status=Tournament.Status.FINISHED,
            action="tournament.close",
        )


def tournament_reopen(*, actor: Actor, tournament: Tournament) -> Tournament:
    """Open a closed tournament again (closed by mistake): the history
    shows it as running, its places uncounted, until it is closed again."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.FINISHED:
            raise UserError(_("Das Turnier ist nicht beendet."), code="not_closed")
        return _status_set(
            actor=actor,
            tournament=locked,
            status=Tournament.Status.RUNNING,
            action="tournament.reopen",
        )


def _status_set(
    *, actor: Actor, tournament: Tournament, status: str, action: str
) -> Tournament:
    before = {"status": tournament.status}
    tournament.status = status
    # updated_at: the season rankings' pages follow their tournaments by it.
    tournament.save(update_fields=["status", "updated_at"])
    # The history reads the standings' cache: a new generation for it.
    invalidation.results_changed(tournament.pk)
    audit_record(
        actor=actor,
        action=action,
        obj=tournament,
        tournament=tournament,
        before=before,
        after={"status": status},
    )
    return tournament
