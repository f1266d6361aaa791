"""Backup and restore of a whole tournament as one JSON document.

The document holds what cannot be recomputed – the tournament, its players
and teams, every seating, every result version with who and when, the
tie-breaks and the audit trail; the standings tables (GameScore, EntryTotal)
are rebuilt from the confirmed results on restore. Rows are referred to by
start numbers and user names, never by database ids, so a backup restores
into any database.
"""

import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.models import (
    AuditEvent,
    Entry,
    EntryTotal,
    GameScore,
    Player,
    ResultVersion,
    Seat,
    Series,
    Table,
    Team,
    TieBreak,
    Tournament,
)
from tournament.results.services import rebuild_table_scores
from tournament.tournaments import services as tournaments_services

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FORMAT = "siebenschraem.backup/1"
# The organizer's settings, plus the lot the seating was drawn with.
TOURNAMENT_FIELDS = [*tournaments_services.TOURNAMENT_FIELDS, "seating_seed"]


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse_when(value: str | None) -> datetime.datetime | None:
    return datetime.datetime.fromisoformat(value) if value else None


def _user(user: "User | None") -> str | None:
    return user.get_username() if user else None


def _is_users(name: str) -> bool:
    # Many-to-many settings (the referees) are kept as user names.
    return bool(Tournament._meta.get_field(name).many_to_many)


def _settings(tournament: Tournament) -> dict[str, Any]:
    return {
        name: (
            sorted(u.get_username() for u in getattr(tournament, name).all())
            if _is_users(name)
            else getattr(tournament, name)
        )
        for name in TOURNAMENT_FIELDS
    }


def tournament_backup(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready document."""
    numbers = dict(tournament.entries.values_list("id", "start_number"))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "tournament": _settings(tournament),
        "teams": list(tournament.teams.order_by("name").values_list("name", flat=True)),
        "players": [],
        "series": [],
        "tiebreaks": [],
        "audit": [],
    }
    doc["tournament"]["date"] = tournament.date.isoformat()
    plan = tournament.seating_plan
    if plan:
        doc["tournament"]["seating_plan"] = {
            "seed": plan["seed"],
            "players": [numbers[p] for p in plan["players"] if p in numbers],
            "series": [[[numbers[p] for p in t] for t in s] for s in plan["series"]],
        }
    for e in tournament.entries.select_related("player", "team").order_by(
        "start_number"
    ):
        doc["players"].append(
            {
                "start_number": e.start_number,
                "first_name": e.player.first_name,
                "last_name": e.player.last_name,
                "club": e.player.club,
                "town": e.player.town,
                "category": e.player.category,
                "checked_in": e.checked_in,
                "withdrawn_at": _when(e.withdrawn_at),
                "withdrawal_reason": e.withdrawal_reason,
                "team": e.team.name if e.team else None,
            }
        )
    for s in tournament.series.order_by("number"):
        tables = []
        for t in s.tables.order_by("number").prefetch_related("seats"):
            tables.append(
                {
                    "number": t.number,
                    "size": t.size,
                    "result_revision": t.result_revision,
                    "seats": [
                        numbers[seat.entry_id]
                        for seat in sorted(t.seats.all(), key=lambda x: x.number)
                    ],
                    "versions": [
                        {
                            "number": v.number,
                            "status": v.status,
                            "mode": v.mode,
                            "data": v.data,
                            "reason": v.reason,
                            "entered_by": _user(v.entered_by),
                            "entered_at": _when(v.entered_at),
                            "decided_by": _user(v.decided_by),
                            "decided_at": _when(v.decided_at),
                        }
                        for v in t.result_versions.select_related(
                            "entered_by", "decided_by"
                        ).order_by("number")
                    ],
                }
            )
        doc["series"].append(
            {
                "number": s.number,
                "status": s.status,
                "seed": s.seed,
                "quality": s.quality,
                "seated_at": _when(s.seated_at),
                "released_at": _when(s.released_at),
                "version": s.version,
                "tables": tables,
            }
        )
    for tb in tournament.tiebreaks.select_related("created_by").order_by("id"):
        doc["tiebreaks"].append(
            {
                "method": tb.method,
                "order": tb.order,
                "seed": tb.seed,
                "note": tb.note,
                "created_by": _user(tb.created_by),
                "created_at": _when(tb.created_at),
            }
        )
    for ev in tournament.audit_events.select_related("actor").order_by("id"):
        doc["audit"].append(
            {
                "actor": _user(ev.actor),
                "at": _when(ev.at),
                "action": ev.action,
                "object_type": ev.object_type,
                "object_id": ev.object_id,
                "before": ev.before,
                "after": ev.after,
                "note": ev.note,
            }
        )
    return doc


def _delete(tournament: Tournament) -> None:
    # Children first: seats and scores protect the entries they name.
    GameScore.objects.filter(series__tournament=tournament).delete()
    EntryTotal.objects.filter(entry__tournament=tournament).delete()
    ResultVersion.objects.filter(table__series__tournament=tournament).delete()
    Seat.objects.filter(series__tournament=tournament).delete()
    tournament.delete()


def tournament_restore(
    *, doc: Any, slug: str | None = None, replace: bool = False, actor: Actor = None
) -> Tournament:
    """Recreate a tournament from a backup, all or nothing. Refuses an
    existing slug unless `replace` (which deletes that tournament first)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UserError(_("Keine Turniersicherung (falsches Format)."), code="format")
    try:
        with transaction.atomic():
            return _restore(doc, slug, replace, actor)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, UserError):
            raise
        raise UserError(
            _("Die Sicherung ist beschädigt: %(e)s") % {"e": error}, code="corrupt"
        ) from error


def _restore(
    doc: dict[str, Any], slug: str | None, replace: bool, actor: Actor
) -> Tournament:
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    info = dict(doc["tournament"])
    plan = info.pop("seating_plan", None)
    # Older backups have no referee list: every referee, as then.
    named = {f: info.pop(f, None) or [] for f in TOURNAMENT_FIELDS if _is_users(f)}
    missing = sorted({n for names in named.values() for n in names} - set(users))
    if missing:
        # Leaving them out would open the tournament to every referee.
        raise UserError(
            _("Diese Benutzer fehlen hier, bitte zuerst anlegen: %(names)s")
            % {"names": ", ".join(missing)},
            code="missing_users",
        )
    info["slug"] = slug or info["slug"]
    info["date"] = datetime.date.fromisoformat(info["date"])
    existing = Tournament.objects.filter(slug=info["slug"]).first()
    if existing is not None:
        if not replace:
            raise UserError(
                _("Ein Turnier „%(slug)s“ gibt es schon.") % {"slug": info["slug"]},
                code="exists",
            )
        # Its own trail goes with it; this row (of no tournament) stays.
        audit_record(
            actor=actor,
            action="tournament.delete",
            obj=existing,
            tournament=None,
            before={"slug": existing.slug, "name": existing.name},
            note=_("durch eine Sicherung ersetzt"),
        )
        _delete(existing)
    tournament = Tournament.objects.create(**info)
    for name, usernames in named.items():
        getattr(tournament, name).set(users[n] for n in usernames)
    teams = {
        name: Team.objects.create(tournament=tournament, name=name)
        for name in doc["teams"]
    }
    entries: dict[int, Entry] = {}
    for p in doc["players"]:
        player = Player.objects.create(
            first_name=p["first_name"],
            last_name=p["last_name"],
            club=p["club"],
            town=p["town"],
            category=p["category"],
        )
        entries[p["start_number"]] = Entry.objects.create(
            tournament=tournament,
            player=player,
            start_number=p["start_number"],
            checked_in=p["checked_in"],
            withdrawn_at=_parse_when(p["withdrawn_at"]),
            withdrawal_reason=p["withdrawal_reason"],
            team=teams[p["team"]] if p["team"] else None,
        )
    if plan:
        tournament.seating_plan = {
            "seed": plan["seed"],
            "players": sorted(entries[n].pk for n in plan["players"]),
            "series": [[[entries[n].pk for n in t] for t in s] for s in plan["series"]],
        }
        tournament.save(update_fields=["seating_plan"])
    for s in doc["series"]:
        series = Series.objects.create(
            tournament=tournament,
            number=s["number"],
            status=s["status"],
            seed=s["seed"],
            quality=s["quality"],
            seated_at=_parse_when(s["seated_at"]),
            released_at=_parse_when(s["released_at"]),
            version=s["version"],
        )
        for t in s["tables"]:
            table = Table.objects.create(
                series=series,
                number=t["number"],
                size=t["size"],
                result_revision=t["result_revision"],
            )
            Seat.objects.bulk_create(
                Seat(series=series, table=table, number=i, entry=entries[n])
                for i, n in enumerate(t["seats"], 1)
            )
            confirmed = None
            for v in t["versions"]:
                version = ResultVersion.objects.create(
                    table=table,
                    number=v["number"],
                    status=v["status"],
                    mode=v["mode"],
                    data=v["data"],
                    reason=v["reason"],
                    entered_by=users.get(v["entered_by"] or ""),
                    decided_by=users.get(v["decided_by"] or ""),
                    decided_at=_parse_when(v["decided_at"]),
                )
                ResultVersion.objects.filter(pk=version.pk).update(
                    entered_at=_parse_when(v["entered_at"])
                )
                if version.status == ResultVersion.Status.CONFIRMED:
                    confirmed = version
            if confirmed is not None:
                rebuild_table_scores(table, confirmed)
    if doc["tiebreaks"]:
        Tournament.objects.filter(pk=tournament.pk).update(has_tiebreaks=True)
    for tb in doc["tiebreaks"]:
        row = TieBreak.objects.create(
            tournament=tournament,
            method=tb["method"],
            order=tb["order"],
            seed=tb["seed"],
            note=tb["note"],
            created_by=users.get(tb["created_by"] or ""),
        )
        TieBreak.objects.filter(pk=row.pk).update(
            created_at=_parse_when(tb["created_at"])
        )
    events = AuditEvent.objects.bulk_create(
        AuditEvent(
            tournament=tournament,
            actor=users.get(ev["actor"] or ""),
            action=ev["action"],
            object_type=ev["object_type"],
            object_id=ev["object_id"],
            before=ev["before"],
            after=ev["after"],
            note=ev["note"],
        )
        for ev in doc["audit"]
    )
    for event, ev in zip(events, doc["audit"], strict=True):
        # The original time, not now (every event of a backup has one).
        event.at = datetime.datetime.fromisoformat(ev["at"])
    AuditEvent.objects.bulk_update(events, ["at"], batch_size=500)
    audit_record(
        actor=actor,
        action="tournament.restore",
        obj=tournament,
        tournament=tournament,
        after=snapshot(tournament, TOURNAMENT_FIELDS),
        note=_("aus einer Sicherung wiederhergestellt"),
    )
    return tournament
