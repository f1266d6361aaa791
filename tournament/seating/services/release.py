"""Releasing a seated series to the public."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import (
    Entry,
    Series,
    Tournament,
)
from tournament.seating import selectors
from tournament.seating.services.common import _check_version, _lock
from tournament.seating.services.swaps import swapped_worse, worse_text


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
        worse, changes, changed = _release_check(
            series, reason=reason, accept_worse=accept_worse
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
        audit_record(
            actor=actor,
            action="series.release",
            obj=series,
            tournament=tournament,
            before={"status": Series.Status.SEATED, "tournament_status": status_before},
            after=_release_after(series, tournament, worse, changes),
            note=reason if changed else "",
        )
    return series


def _release_check(
    series: Series, *, reason: str, accept_worse: bool
) -> tuple[tuple[dict[str, int], dict[str, int]] | None, selectors.FieldChanges, bool]:
    """What swaps made worse, the field's changes since the draw and whether
    there are any; refused unless the series is seated and not public, the
    organizer accepted what swaps made worse, and gave a reason to release
    a series the field has changed since."""
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
    return worse, changes, changed


def _release_after(
    series: Series,
    tournament: Tournament,
    worse: tuple[dict[str, int], dict[str, int]] | None,
    changes: selectors.FieldChanges,
) -> dict[str, object]:
    """The audit's "after" of a release: the statuses, and what the
    organizer released anyway."""
    changed = bool(changes["late"] or changes["gone"])
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
    return after
