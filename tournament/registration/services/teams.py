"""Teams made and dissolved."""

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import Entry, Team, Tournament


def team_save(
    *,
    actor: Actor,
    tournament: Tournament,
    team: Team | None,
    name: str,
    members: list[Entry],
) -> Team:
    """Create or edit a team of at most four entries of this tournament."""
    name = name.strip()
    if not name:
        raise UserError(
            _("Bitte einen Mannschaftsnamen angeben."), code="name_required"
        )
    if len(members) > Team.MAX_MEMBERS:
        raise UserError(
            _("Eine Mannschaft hat höchstens %(max)d Spieler.")
            % {"max": Team.MAX_MEMBERS},
            code="too_many_members",
        )
    if any(m.tournament_id != tournament.pk for m in members):
        raise UserError(_("Spieler aus einem anderen Turnier."), code="foreign_entry")
    with transaction.atomic():
        duplicate = Team.objects.filter(tournament=tournament, name=name)
        if team is not None:
            duplicate = duplicate.exclude(pk=team.pk)
        if duplicate.exists():
            raise UserError(
                _("Es gibt schon eine Mannschaft „%(name)s“.") % {"name": name},
                code="team_name_taken",
            )
        created = team is None
        if team is None:
            team = Team(tournament=tournament)
            before = None
        else:
            team = Team.objects.select_for_update().get(pk=team.pk)
            before = {
                "name": team.name,
                "members": sorted(team.members.values_list("start_number", flat=True)),
            }
        team.name = name
        team.save()
        Entry.objects.filter(team=team).exclude(pk__in=[m.pk for m in members]).update(
            team=None
        )
        Entry.objects.filter(pk__in=[m.pk for m in members]).update(team=team)
        invalidation.results_changed(tournament.pk)  # the team ranking changes
        audit_record(
            actor=actor,
            action="team.create" if created else "team.update",
            obj=team,
            tournament=tournament,
            before=before,
            after={"name": name, "members": sorted(m.start_number for m in members)},
        )
    return team


def team_delete(*, actor: Actor, team: Team) -> None:
    with transaction.atomic():
        before = {
            "name": team.name,
            "members": sorted(team.members.values_list("start_number", flat=True)),
        }
        audit_record(
            actor=actor,
            action="team.delete",
            obj=team,
            tournament=team.tournament,
            before=before,
        )
        invalidation.results_changed(team.tournament_id)
        team.delete()
