"""A tournament written as a backup document."""

from typing import TYPE_CHECKING, Any

from tournament.backup.services.document import (
    FORMAT,
    TOURNAMENT_FIELDS,
    _is_users,
    _when,
)
from tournament.models import (
    ResultVersion,
    Series,
    Table,
    Tournament,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _user(user: "User | None") -> str | None:
    return user.get_username() if user else None


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
