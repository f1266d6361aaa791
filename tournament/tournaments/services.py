"""Writes of a tournament's own settings: keyword-only, atomic, audited."""

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db import transaction

from tournament.core.audit import audit_record, snapshot
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import Tournament

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
    "double_entry",
    "show_provisional",
    "tiebreak_games_won",
    "tiebreak_best_game",
    "referees",
]


def tournament_save(
    *,
    actor: Actor,
    tournament: Tournament,
    created: bool,
    referees: Iterable["User"] | None = None,
) -> Tournament:
    """Save a tournament built by a validated form, with an audit row.
    `referees` (users), when given, become the only referees allowed to
    enter its results; empty lets every referee."""
    with transaction.atomic():
        before = None
        if not created:
            old = Tournament.objects.select_for_update().get(pk=tournament.pk)
            before = snapshot(old, TOURNAMENT_FIELDS)
        tournament.save()
        if referees is not None:
            tournament.referees.set(referees)
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
