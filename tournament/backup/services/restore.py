"""A backup document restored as a tournament."""

import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.backup.services.checks import (
    LINK_TOKEN,
    _check_games,
    _checked,
    _list,
    _part,
    _player,
    _saved,
)
from tournament.backup.services.document import (
    FORMAT,
    TOURNAMENT_FIELDS,
    Damaged,
    _check_depth,
    _is_users,
    _parse_when,
)
from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.models import (
    AuditEvent,
    Entry,
    EntryTotal,
    GameScore,
    Player,
    ResultAnswer,
    ResultVersion,
    Seat,
    Series,
    Table,
    Team,
    TieBreak,
    Tournament,
)
from tournament.persons.services import PersonIndex, person_attach, persons_refresh
from tournament.results.services import rebuild_table_scores

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
    _check_depth(doc)
    try:
        with transaction.atomic():
            return _restore(doc, slug, replace, actor)
    except UserError:
        raise
    except KeyError as error:
        raise UserError(
            _("Die Sicherung ist beschädigt: es fehlt %(key)s.") % {"key": error},
            code="corrupt",
        ) from error
    except (TypeError, ValueError, IntegrityError) as error:
        raise UserError(
            _("Die Sicherung ist beschädigt: %(e)s") % {"e": error}, code="corrupt"
        ) from error


Users = dict[str, "User"]


def _restore(
    doc: dict[str, Any], slug: str | None, replace: bool, actor: Actor
) -> Tournament:
    """Each section in the order of the file, inside the caller's
    transaction: a section refused rolls back the sections before it."""
    users: Users = {u.get_username(): u for u in get_user_model().objects.all()}
    _part(doc, "document", _("Die Sicherung"))
    tournament, plan = _restore_tournament(doc, slug, replace, actor, users)
    teams = _restore_teams(doc, tournament)
    entries = _restore_players(doc, tournament, teams)
    if plan:
        _restore_seating_plan(plan, tournament, entries)
    for s in _list(doc["series"], _("Die Serien")):
        _restore_series(s, tournament, entries, users)
    _restore_tiebreaks(doc, tournament, entries, users)
    _restore_audit(doc, tournament, entries, users)
    audit_record(
        actor=actor,
        action="tournament.restore",
        obj=tournament,
        tournament=tournament,
        after=snapshot(tournament, TOURNAMENT_FIELDS),
        note=_("aus einer Sicherung wiederhergestellt"),
    )
    return tournament


def _restore_tournament(
    doc: dict[str, Any], slug: str | None, replace: bool, actor: Actor, users: Users
) -> tuple[Tournament, Any]:
    """The tournament's row and its referees (replacing one of the same slug
    if asked to); returns it with the seating plan, written once the players
    have their rows."""
    info = dict(_part(doc["tournament"], "tournament", _("Das Turnier")))
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
    tournament = Tournament(**info)
    # The slug is checked apart: a tournament of that slug may be replaced.
    _checked(tournament, _("Das Turnier"), unique=False)
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
    tournament.save()
    for name, usernames in named.items():
        getattr(tournament, name).set(users[n] for n in usernames)
    return tournament, plan


def _restore_teams(doc: dict[str, Any], tournament: Tournament) -> dict[str, Team]:
    return {
        name: _saved(
            Team(tournament=tournament, name=name),
            _("Mannschaft %(name)s") % {"name": name},
        )
        for name in _list(doc["teams"], _("Die Mannschaften"))
    }


def _restore_players(
    doc: dict[str, Any], tournament: Tournament, teams: dict[str, Team]
) -> dict[int, Entry]:
    """Each player's row and entry; returns the entries by start number."""
    entries: dict[int, Entry] = {}
    players = [
        _part(p, "player", _("Spieler %(n)s") % {"n": i})
        for i, p in enumerate(_list(doc["players"], _("Die Spieler")), 1)
    ]
    # Each player finds its person as at the desk (the same name and club,
    # else a new person, for review when uncertain).
    index = PersonIndex(
        names=[(str(p["first_name"]), str(p["last_name"])) for p in players],
        tournament=tournament,
    )
    for i, p in enumerate(players, 1):
        entry = _restore_player(
            p, _("Spieler %(n)s") % {"n": i}, tournament, teams, index
        )
        entries[entry.start_number] = entry
    persons_refresh(person_ids=[e.player.person_id for e in entries.values()])
    return entries


def _restore_player(
    p: dict[str, Any],
    where: str,
    tournament: Tournament,
    teams: dict[str, Team],
    index: PersonIndex,
) -> Entry:
    player = Player(
        first_name=p["first_name"],
        last_name=p["last_name"],
        club=p["club"],
        town=p["town"],
        category=p["category"],
    )
    _checked(player, where, exclude=["person"])
    person_attach(player=player, index=index)
    player = _saved(player, where)
    entry = Entry(
        tournament=tournament,
        player=player,
        start_number=p["start_number"],
        checked_in=p["checked_in"],
        withdrawn_at=_parse_when(p["withdrawn_at"]),
        withdrawal_reason=p["withdrawal_reason"],
        team=teams[p["team"]] if p["team"] else None,
    )
    after = p.get("withdrawn_after")
    if isinstance(after, list) and len(after) == 2:
        entry.withdrawn_after_series, entry.withdrawn_after_game = after
    link = p.get("link")
    # The printed card's link, unless another tournament holds it (a
    # copy restored beside its original gets links of its own).
    if (
        isinstance(link, str)
        and LINK_TOKEN.match(link)
        and not Entry.objects.filter(link_token=link).exists()
    ):
        entry.link_token = link
    saved: Entry = _saved(entry, where)
    return saved


def _restore_seating_plan(
    plan: Any, tournament: Tournament, entries: dict[int, Entry]
) -> None:
    plan = _part(plan, "seating_plan", _("Der Sitzplan"))
    tournament.seating_plan = {
        "seed": plan["seed"],
        "players": sorted(entries[n].pk for n in plan["players"]),
        "series": [[[entries[n].pk for n in t] for t in s] for s in plan["series"]],
    }
    tournament.save(update_fields=["seating_plan"])


def _restore_series(
    s: Any, tournament: Tournament, entries: dict[int, Entry], users: Users
) -> None:
    """A series with its tables, seats and results."""
    number = s.get("number") if isinstance(s, dict) else "?"
    where = _("Serie %(n)s") % {"n": number}
    s = _part(s, "series", where)
    series = _saved(
        Series(
            tournament=tournament,
            number=s["number"],
            status=s["status"],
            # Older backups: every series was drawn by lot.
            mode=s.get("mode", Series.Mode.LOT),
            seed=s["seed"],
            quality=s["quality"],
            seated_at=_parse_when(s["seated_at"]),
            released_at=_parse_when(s["released_at"]),
            version=s["version"],
        ),
        where,
    )
    if not 1 <= series.number <= tournament.series_count:
        # Its points would stand beside the series the tournament has,
        # counted in no list's columns and in every total.
        raise Damaged(
            _("%(where)s passt nicht zur Anzahl Serien des Turniers (%(count)d).")
            % {"where": where, "count": tournament.series_count}
        )
    for t in _list(s["tables"], where):
        _restore_table(t, where, series, tournament, entries, users)


def _restore_table(
    t: Any,
    where: str,
    series: Series,
    tournament: Tournament,
    entries: dict[int, Entry],
    users: Users,
) -> None:
    """A table, its seats and its result versions; its scores are rebuilt
    from the confirmed one."""
    at = _("%(where)s, Tisch %(t)s") % {
        "where": where,
        "t": t.get("number") if isinstance(t, dict) else "?",
    }
    t = _part(t, "table", at)
    table = _saved(
        Table(
            series=series,
            number=t["number"],
            size=t["size"],
            result_revision=t["result_revision"],
        ),
        at,
    )
    seats = [
        Seat(series=series, table=table, number=i, entry=entries[n])
        for i, n in enumerate(_list(t["seats"], at), 1)
    ]
    if len(seats) != table.size:
        raise Damaged(_("%(where)s: die Zahl der Sitze passt nicht.") % {"where": at})
    for seat in seats:
        _checked(seat, at)
    Seat.objects.bulk_create(seats)
    confirmed = None
    for v in _list(t["versions"], at):
        version = _restore_version(v, at, table, tournament, entries, users)
        if version.status == ResultVersion.Status.CONFIRMED:
            confirmed = version
    if confirmed is not None:
        rebuild_table_scores(table, confirmed)


def _restore_version(
    v: Any,
    at: str,
    table: Table,
    tournament: Tournament,
    entries: dict[int, Entry],
    users: Users,
) -> ResultVersion:
    """A result version with its answers, at their original times."""
    here = _("%(where)s, Ergebnisversion") % {"where": at}
    v = _part(v, "version", here)
    _check_games(v["data"], table, tournament, here)
    version: ResultVersion = _saved(
        ResultVersion(
            table=table,
            number=v["number"],
            status=v["status"],
            mode=v["mode"],
            data=v["data"],
            reason=v["reason"],
            entered_by=users.get(v["entered_by"] or ""),
            decided_by=users.get(v["decided_by"] or ""),
            entered_by_player=_player(entries, v.get("entered_by_player"), here),
            decided_by_player=_player(entries, v.get("decided_by_player"), here),
            decided_at=_parse_when(v["decided_at"]),
        ),
        here,
    )
    for a in _list(v.get("answers") or [], here):
        a = _part(a, "answer", here)
        answer = _saved(
            ResultAnswer(
                version=version,
                entry=_player(entries, a["player"], here),
                answer=a["answer"],
                reason=a["reason"],
            ),
            here,
        )
        ResultAnswer.objects.filter(pk=answer.pk).update(
            answered_at=_parse_when(a["answered_at"])
        )
    ResultVersion.objects.filter(pk=version.pk).update(
        entered_at=_parse_when(v["entered_at"])
    )
    return version


def _restore_tiebreaks(
    doc: dict[str, Any], tournament: Tournament, entries: dict[int, Entry], users: Users
) -> None:
    if _list(doc["tiebreaks"], _("Die Entscheidungen bei Gleichstand")):
        Tournament.objects.filter(pk=tournament.pk).update(has_tiebreaks=True)
    for tb in doc["tiebreaks"]:
        where = _("Eine Entscheidung bei Gleichstand")
        tb = _part(tb, "tiebreak", where)
        order = _list(tb["order"], where)
        if any(n not in entries for n in order):
            raise Damaged(
                _("%(where)s nennt unbekannte Startnummern.") % {"where": where}
            )
        row = _saved(
            TieBreak(
                tournament=tournament,
                method=tb["method"],
                order=order,
                seed=tb["seed"],
                note=tb["note"],
                created_by=users.get(tb["created_by"] or ""),
            ),
            where,
        )
        TieBreak.objects.filter(pk=row.pk).update(
            created_at=_parse_when(tb["created_at"])
        )


def _restore_audit(
    doc: dict[str, Any], tournament: Tournament, entries: dict[int, Entry], users: Users
) -> None:
    """The audit trail, every event at its original time."""
    events = [
        AuditEvent(
            tournament=tournament,
            actor=users.get(ev["actor"] or ""),
            player=entries.get(ev.get("player") or 0),
            action=ev["action"],
            object_type=ev["object_type"],
            object_id=ev["object_id"],
            before=ev["before"],
            after=ev["after"],
            note=ev["note"],
        )
        for ev in (
            _part(ev, "audit", _("Das Protokoll"))
            for ev in _list(doc["audit"], _("Das Protokoll"))
        )
    ]
    for event in events:
        _checked(event, _("Das Protokoll"))
    AuditEvent.objects.bulk_create(events)
    for event, ev in zip(events, doc["audit"], strict=True):
        # The original time, not now (every event of a backup has one).
        when = _parse_when(ev["at"])
        if when is None:
            raise Damaged(_("Das Protokoll: ein Eintrag ohne Zeitpunkt."))
        event.at = when
    AuditEvent.objects.bulk_update(events, ["at"], batch_size=500)
