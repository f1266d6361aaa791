"""The registration desk's writes: players registered (one by one or from a
list), their details, check-in, withdrawal and reinstatement, teams, and a
new personal link."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import Entry, Player, Team, Tournament
from tournament.models.core import new_link_token
from tournament.persons.services import (
    PersonIndex,
    person_attach,
    person_rematch,
    persons_refresh,
)
from tournament.registration.selectors import (
    WithdrawalMoment,
    last_series_seated,
    withdrawal_moment,
)

PLAYER_FIELDS = ["first_name", "last_name", "club", "town", "category"]


ENTRY_FIELDS = ["start_number", "checked_in", "withdrawn_at", "withdrawal_reason"]
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
