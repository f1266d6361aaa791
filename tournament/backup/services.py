"""Backup and restore of a whole tournament as one JSON document.

The document holds what cannot be recomputed – the tournament, its players
and teams, every seating, every result version with who and when, the
tie-breaks and the audit trail; the standings tables (GameScore, EntryTotal)
are rebuilt from the confirmed results on restore. Rows are referred to by
start numbers and user names, never by database ids, so a backup restores
into any database. Photos of score sheets are not in it (images kept on
the laptop for a while, not results): the audit trail keeps their hashes.
"""

import datetime
import json
import re
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.core.rules import game_points
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
from tournament.tournaments import services as tournaments_services

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FORMAT = "siebenschraem.backup/1"
# The organizer's settings, plus the lot the seating was drawn with.
TOURNAMENT_FIELDS = [*tournaments_services.TOURNAMENT_FIELDS, "seating_seed"]

# What a backup holds, part by part (as `tournament_backup` writes it). A
# restore refuses anything else: a file is data, never a say in which
# columns get written (an id, a flag the site keeps for itself).
KEYS: dict[str, frozenset[str]] = {
    "document": frozenset(
        {
            "format",
            "tournament",
            "teams",
            "players",
            "series",
            "tiebreaks",
            "audit",
            # The accounts, when asked for (tournament.backup.accounts):
            # restored by the command line only, never by this module.
            "accounts",
        }
    ),
    "tournament": frozenset({*TOURNAMENT_FIELDS, "seating_plan"}),
    "seating_plan": frozenset({"seed", "players", "series"}),
    "player": frozenset(
        {
            "start_number",
            "first_name",
            "last_name",
            "club",
            "town",
            "category",
            "checked_in",
            "withdrawn_at",
            "withdrawal_reason",
            "team",
            # The personal link, so printed cards keep working on the
            # laptop a backup is restored to.
            "link",
            # The moment of a withdrawal: [series, game or null] or null.
            "withdrawn_after",
        }
    ),
    "series": frozenset(
        {
            "number",
            "status",
            "mode",
            "seed",
            "quality",
            "seated_at",
            "released_at",
            "version",
            "tables",
        }
    ),
    "table": frozenset({"number", "size", "result_revision", "seats", "versions"}),
    "version": frozenset(
        {
            "number",
            "status",
            "mode",
            "data",
            "reason",
            "entered_by",
            "entered_at",
            "decided_by",
            "decided_at",
            # A player who entered or decided it at the table, by start number.
            "entered_by_player",
            "decided_by_player",
            "answers",
        }
    ),
    "answer": frozenset({"player", "answer", "reason", "answered_at"}),
    "data": frozenset({"games", "records"}),
    "game": frozenset({"winner", "marks", "points", "hands"}),
    "tiebreak": frozenset(
        {"method", "order", "seed", "note", "created_by", "created_at"}
    ),
    "audit": frozenset(
        {
            "actor",
            "at",
            "action",
            "object_type",
            "object_id",
            "before",
            "after",
            "note",
            "player",
        }
    ),
}


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse_when(value: str | None) -> datetime.datetime | None:
    if not value:
        return None
    when = datetime.datetime.fromisoformat(value)
    if when.tzinfo is None:
        raise ValueError(_("Zeitpunkt ohne Zeitzone: %(when)s") % {"when": value})
    return when


class Damaged(ValueError):
    """What is wrong with a backup, and where: refused, nothing written."""


# How deep a backup's parts lie: the document, its series, their tables,
# a table's result versions, their games and records; an audit entry's
# before and after a few levels more. Anything deeper is no backup: refused
# before anything is written (writing a JSON field recurses through it).
# Deeper than JSON's own reader goes ends at `backup_read`.
MAX_DEPTH = 32


def backup_read(*, data: bytes | str) -> Any:
    """The document of a backup file (as read from disk or an upload), or
    UserError with a sentence for the organizer: not UTF-8 text, not JSON,
    or nested too deep for JSON's reader (`tournament_restore` refuses
    anything deeper than a backup)."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        doc = json.loads(text)
    except RecursionError:
        raise _too_deep() from None
    except ValueError as error:
        raise UserError(
            _("Die Datei ist keine Turniersicherung (kein lesbares JSON)."),
            code="format",
        ) from error
    return doc


def _too_deep() -> UserError:
    return UserError(
        _("Die Datei ist zu tief verschachtelt; so sieht keine Turniersicherung aus."),
        code="format",
    )


def _check_depth(doc: Any) -> None:
    """Refuse a document nested deeper than MAX_DEPTH (walked with a list,
    not recursion, so no depth can end it with a traceback)."""
    pending: list[tuple[Any, int]] = [(doc, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise _too_deep()
        pending.extend((child, depth + 1) for child in children)


# A personal link's shape (registration.selectors): anything else is new.
LINK_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}\Z")


def _player(entries: dict[int, Entry], number: Any, where: str) -> Entry | None:
    """The entry a start number in a version names (None for none)."""
    if number is None:
        return None
    if number not in entries:
        raise Damaged(
            _("%(where)s nennt eine unbekannte Startnummer.") % {"where": where}
        )
    return entries[number]


def _part(value: Any, kind: str, where: str) -> dict[str, Any]:
    """One part of the document: an object with only the keys of its kind."""
    if not isinstance(value, dict):
        raise Damaged(_("%(where)s ist kein Objekt.") % {"where": where})
    unknown = sorted(set(value) - KEYS[kind])
    if unknown:
        raise Damaged(
            _("%(where)s enthält unbekannte Felder: %(keys)s.")
            % {"where": where, "keys": ", ".join(map(str, unknown))}
        )
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Damaged(_("%(where)s ist keine Liste.") % {"where": where})
    return value


def _checked(
    obj: models.Model,
    where: str,
    *,
    unique: bool = True,
    exclude: list[str] | None = None,
) -> None:
    """The row as the site would accept it: every field, choice, length and
    constraint checked (`full_clean`) before anything is written."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=unique)
    except ValidationError as error:
        problems = "; ".join(
            f"{_label(obj, field)}{' '.join(messages)}"
            for field, messages in error.message_dict.items()
        )
        raise Damaged(
            _("%(where)s: %(problems)s") % {"where": where, "problems": problems}
        ) from error


def _label(obj: models.Model, field: str) -> str:
    """A field as people call it (its verbose name), for an error message."""
    if field == "__all__":
        return ""
    found = obj._meta.get_field(field)
    name = found.verbose_name if isinstance(found, models.Field) else field
    return f"{name}: "


def _saved(obj: models.Model, where: str) -> Any:
    _checked(obj, where)
    obj.save()
    return obj


def _check_games(data: Any, table: Table, tournament: Tournament, where: str) -> None:
    """A result's games as the result services write them: a winner at the
    table with the marks a winner can keep, and the points that gives."""
    data = _part(data, "data", where)
    games = _list(data.get("games"), where)
    if len(games) > tournament.games_per_series:
        raise Damaged(
            _("%(where)s: mehr Spiele als eine Serie hat.") % {"where": where}
        )
    for number, game in enumerate(games, 1):
        here = _("%(where)s, Spiel %(g)d") % {"where": where, "g": number}
        game = _part(game, "game", here)
        winner, marks = game.get("winner"), game.get("marks")
        if (
            type(winner) is not int
            or type(marks) is not int
            or not 1 <= winner <= table.size
            or not 1 <= marks <= tournament.start_marks
            or game.get("points", game_points(marks, tournament))
            != game_points(marks, tournament)
        ):
            raise Damaged(
                _("%(where)s: Gewinner, Schräm oder Punkte ungültig.") % {"where": here}
            )


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
    """The whole tournament as a JSON-ready document, one part per section
    (the order of the keys is the order of the file)."""
    numbers = dict(tournament.entries.values_list("id", "start_number"))
    return {
        "format": FORMAT,
        "tournament": _tournament_doc(tournament, numbers),
        "teams": list(tournament.teams.order_by("name").values_list("name", flat=True)),
        "players": _players_doc(tournament),
        "series": [
            _series_doc(s, numbers) for s in tournament.series.order_by("number")
        ],
        "tiebreaks": _tiebreaks_doc(tournament),
        "audit": _audit_doc(tournament, numbers),
    }


def _tournament_doc(tournament: Tournament, numbers: dict[int, int]) -> dict[str, Any]:
    """The settings, and the seating plan by start numbers (if drawn)."""
    doc = _settings(tournament)
    doc["date"] = tournament.date.isoformat()
    plan = tournament.seating_plan
    if plan:
        doc["seating_plan"] = {
            "seed": plan["seed"],
            "players": [numbers[p] for p in plan["players"] if p in numbers],
            "series": [[[numbers[p] for p in t] for t in s] for s in plan["series"]],
        }
    return doc


def _players_doc(tournament: Tournament) -> list[dict[str, Any]]:
    return [
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
            "link": e.link_token,
            "withdrawn_after": None
            if e.withdrawn_after_series is None
            else [e.withdrawn_after_series, e.withdrawn_after_game],
        }
        for e in tournament.entries.select_related("player", "team").order_by(
            "start_number"
        )
    ]


def _series_doc(s: Series, numbers: dict[int, int]) -> dict[str, Any]:
    tables = [
        _table_doc(t, numbers)
        for t in s.tables.order_by("number").prefetch_related("seats")
    ]
    return {
        "number": s.number,
        "status": s.status,
        "mode": s.mode,
        "seed": s.seed,
        "quality": s.quality,
        "seated_at": _when(s.seated_at),
        "released_at": _when(s.released_at),
        "version": s.version,
        "tables": tables,
    }


def _table_doc(t: Table, numbers: dict[int, int]) -> dict[str, Any]:
    """A table: its seats by start number and every result version."""
    return {
        "number": t.number,
        "size": t.size,
        "result_revision": t.result_revision,
        "seats": [
            numbers[seat.entry_id]
            for seat in sorted(t.seats.all(), key=lambda x: x.number)
        ],
        "versions": [
            _version_doc(v, numbers)
            for v in t.result_versions.select_related("entered_by", "decided_by")
            .prefetch_related("answers")
            .order_by("number")
        ],
    }


def _version_doc(v: ResultVersion, numbers: dict[int, int]) -> dict[str, Any]:
    """A result version with who entered and decided it, and the players'
    answers to it."""
    return {
        "number": v.number,
        "status": v.status,
        "mode": v.mode,
        "data": v.data,
        "reason": v.reason,
        "entered_by": _user(v.entered_by),
        "entered_at": _when(v.entered_at),
        "decided_by": _user(v.decided_by),
        "decided_at": _when(v.decided_at),
        "entered_by_player": numbers.get(v.entered_by_player_id or 0),
        "decided_by_player": numbers.get(v.decided_by_player_id or 0),
        "answers": [
            {
                "player": numbers[a.entry_id],
                "answer": a.answer,
                "reason": a.reason,
                "answered_at": _when(a.answered_at),
            }
            for a in v.answers.all()
        ],
    }


def _tiebreaks_doc(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "method": tb.method,
            "order": tb.order,
            "seed": tb.seed,
            "note": tb.note,
            "created_by": _user(tb.created_by),
            "created_at": _when(tb.created_at),
        }
        for tb in tournament.tiebreaks.select_related("created_by").order_by("id")
    ]


def _audit_doc(tournament: Tournament, numbers: dict[int, int]) -> list[dict[str, Any]]:
    return [
        {
            "actor": _user(ev.actor),
            "player": numbers.get(ev.player_id or 0),
            "at": _when(ev.at),
            "action": ev.action,
            "object_type": ev.object_type,
            "object_id": ev.object_id,
            "before": ev.before,
            "after": ev.after,
            "note": ev.note,
        }
        for ev in tournament.audit_events.select_related("actor").order_by("id")
    ]


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
