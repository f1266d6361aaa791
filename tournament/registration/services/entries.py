"""Players registered, one by one or from a list, and their details."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import Entry, Player, Team, Tournament
from tournament.persons.services import (
    PersonIndex,
    person_attach,
    person_rematch,
    persons_refresh,
)

PLAYER_FIELDS = ["first_name", "last_name", "club", "town", "category"]


ENTRY_FIELDS = ["start_number", "checked_in", "withdrawn_at", "withdrawal_reason"]


@dataclass(frozen=True)
class PlayerData:
    """One player as typed at the desk or read from a workbook row."""

    first_name: str
    last_name: str
    club: str = ""
    town: str = ""
    category: str = Player.Category.OPEN
    start_number: int | None = None
    team: str = ""  # a team's name (an import's column); the desk leaves it


def next_start_number(tournament: Tournament) -> int:
    top = tournament.entries.aggregate(top=Max("start_number"))["top"]
    return (top or 0) + 1


def _player_for(data: PlayerData, index: PersonIndex) -> Player:
    """A new player, matched to its person (`persons.services`: the same
    name and club, or a new person, marked for review when uncertain)."""
    player = Player(
        first_name=data.first_name.strip(),
        last_name=data.last_name.strip(),
        club=data.club.strip(),
        town=data.town.strip(),
        category=data.category,
    )
    player.full_clean(exclude=["id", "person"])
    person_attach(player=player, index=index)
    player.save()
    return player


def _person_index(tournament: Tournament, rows: Iterable[PlayerData]) -> PersonIndex:
    return PersonIndex(
        names=[(r.first_name.strip(), r.last_name.strip()) for r in rows],
        tournament=tournament,
    )


# A registration's person, as the audit keeps it.
PERSON_FIELDS = ["person", "person_review"]


def entry_register(*, actor: Actor, tournament: Tournament, data: PlayerData) -> Entry:
    """Register a new player for the tournament; the start number is the one
    given or the next free one. Refuses a start number already taken."""
    with transaction.atomic():
        entry = _entry_create(
            tournament=tournament, data=data, index=_person_index(tournament, [data])
        )
        persons_refresh(person_ids=[entry.player.person_id])
        audit_record(
            actor=actor,
            action="entry.register",
            obj=entry,
            tournament=tournament,
            after={
                **snapshot(entry.player, PLAYER_FIELDS + PERSON_FIELDS),
                **snapshot(entry, ENTRY_FIELDS),
            },
        )
        invalidation.field_changed(tournament.pk)
    return entry


def _entry_create(
    *, tournament: Tournament, data: PlayerData, index: PersonIndex
) -> Entry:
    number = data.start_number or next_start_number(tournament)
    if tournament.entries.filter(start_number=number).exists():
        raise UserError(
            _("Die Startnummer %(number)s ist schon vergeben.") % {"number": number},
            code="start_number_taken",
        )
    player = _player_for(data, index)
    try:
        with transaction.atomic():
            return Entry.objects.create(
                tournament=tournament, player=player, start_number=number
            )
    except IntegrityError as exc:  # a concurrent desk took the number first
        raise UserError(
            _("Die Startnummer %(number)s ist schon vergeben.") % {"number": number},
            code="start_number_taken",
        ) from exc


def entries_import(
    *, actor: Actor, tournament: Tournament, rows: Iterable[PlayerData]
) -> list[Entry]:
    """Register many players at once: all of them or, on any error, none."""
    rows = list(rows)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        # Rows with a start number first, so that rows without one get numbers
        # after them and never take a number the workbook asked for.
        ordered = [r for r in rows if r.start_number] + [
            r for r in rows if not r.start_number
        ]
        index = _person_index(tournament, ordered)
        entries = [
            _entry_create(tournament=tournament, data=row, index=index)
            for row in ordered
        ]
        _teams_join(tournament, zip(ordered, entries, strict=True))
        persons_refresh(person_ids=[e.player.person_id for e in entries])
        audit_record(
            actor=actor,
            action="entry.import",
            obj=tournament,
            tournament=tournament,
            after={
                "count": len(entries),
                "start_numbers": sorted(e.start_number for e in entries),
                "to_review": sorted(
                    e.start_number for e in entries if e.player.person_review
                ),
                # Who joined which team (made by the import when new).
                "teams": {
                    name: sorted(
                        e.start_number
                        for e in entries
                        if e.team and e.team.name == name
                    )
                    for name in sorted({e.team.name for e in entries if e.team})
                },
            },
            note=_("%(count)d Spieler importiert") % {"count": len(entries)},
        )
        invalidation.field_changed(tournament.pk)
    return entries


def _teams_join(
    tournament: Tournament, rows: Iterable[tuple[PlayerData, Entry]]
) -> None:
    """Imported players join the team their row names (made when new); a
    team of more than four is refused."""
    teams = {t.name: t for t in tournament.teams.all()}
    for data, entry in rows:
        name = data.team.strip()
        if not name:
            continue
        if name not in teams:
            teams[name] = Team.objects.create(tournament=tournament, name=name)
        team = teams[name]
        if team.members.count() >= Team.MAX_MEMBERS:
            raise UserError(
                _("Die Mannschaft „%(name)s“ hätte mehr als %(max)d Spieler.")
                % {"name": name, "max": Team.MAX_MEMBERS},
                code="team_full",
            )
        entry.team = team
        entry.save(update_fields=["team"])


def entry_update(*, actor: Actor, entry: Entry, data: PlayerData) -> Entry:
    """Correct a registered player's details or start number."""
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
        )
        before = {
            **snapshot(entry.player, PLAYER_FIELDS + PERSON_FIELDS),
            **snapshot(entry, ENTRY_FIELDS),
        }
        number = data.start_number or entry.start_number
        taken = (
            Entry.objects.filter(tournament_id=entry.tournament_id, start_number=number)
            .exclude(pk=entry.pk)
            .exists()
        )
        if taken:
            raise UserError(
                _("Die Startnummer %(number)s ist schon vergeben.")
                % {"number": number},
                code="start_number_taken",
            )
        player = entry.player
        for name in PLAYER_FIELDS:
            value = getattr(data, name)
            setattr(player, name, value.strip() if isinstance(value, str) else value)
        player.full_clean(exclude=["id", "person"])
        player.save()
        person_rematch(player=player)
        entry.start_number = number
        entry.save(update_fields=["start_number"])
        invalidation.results_changed(entry.tournament_id)  # names and numbers shown
        audit_record(
            actor=actor,
            action="entry.update",
            obj=entry,
            tournament=entry.tournament,
            before=before,
            after={
                **snapshot(player, PLAYER_FIELDS + PERSON_FIELDS),
                **snapshot(entry, ENTRY_FIELDS),
            },
        )
    return entry
