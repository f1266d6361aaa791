"""Recorded tie-breaks: a playoff's order, or a lot drawn with a stored seed."""

import random
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor, acting_user
from tournament.live import invalidation
from tournament.models import TieBreak, Tournament


def _check(tournament: Tournament, numbers: list[int]) -> None:
    if len(numbers) < 2 or len(set(numbers)) != len(numbers):
        raise UserError(
            _("Bitte mindestens zwei verschiedene Startnummern angeben."),
            code="tiebreak_players",
        )
    known = set(
        tournament.entries.filter(start_number__in=numbers).values_list(
            "start_number", flat=True
        )
    )
    unknown = [n for n in numbers if n not in known]
    if unknown:
        raise UserError(
            _("Startnummer %(n)d gibt es in diesem Turnier nicht.") % {"n": unknown[0]},
            code="unknown_player",
        )


def _record(
    *,
    actor: Actor,
    tournament: Tournament,
    method: str,
    order: list[int],
    seed: str,
    note: str,
) -> TieBreak:
    with transaction.atomic():
        tiebreak = TieBreak.objects.create(
            tournament=tournament,
            method=method,
            order=order,
            seed=seed,
            note=note[:300],
            created_by=acting_user(actor),
        )
        audit_record(
            actor=actor,
            action=f"tiebreak.{method}",
            obj=tiebreak,
            tournament=tournament,
            after={"order": order, "seed": seed},
            note=note,
        )
        Tournament.objects.filter(pk=tournament.pk).update(has_tiebreaks=True)
        tournament.has_tiebreaks = True
        invalidation.results_changed(tournament.pk)
    return tiebreak


def tiebreak_draw_lot(
    *, actor: Actor, tournament: Tournament, start_numbers: list[int]
) -> TieBreak:
    """Draw lots between tied players; the seed is stored so anyone can
    check the draw: random.Random(seed).shuffle(sorted(numbers))."""
    _check(tournament, start_numbers)
    seed = secrets.token_hex(8)
    order = sorted(start_numbers)
    random.Random(seed).shuffle(order)
    return _record(
        actor=actor,
        tournament=tournament,
        method=TieBreak.Method.LOT,
        order=order,
        seed=seed,
        note="",
    )


def tiebreak_record_playoff(
    *, actor: Actor, tournament: Tournament, order: list[int], note: str = ""
) -> TieBreak:
    """Record the outcome of a playoff (Stechen), best first."""
    _check(tournament, order)
    return _record(
        actor=actor,
        tournament=tournament,
        method=TieBreak.Method.PLAYOFF,
        order=order,
        seed="",
        note=note,
    )
