"""The backup document: its format, its parts and their keys, times as text,
and reading one (its depth checked before anything is written)."""

import datetime
import json
from typing import Any

from django.utils.translation import gettext as _

from tournament.core.errors import UserError
from tournament.models import (
    Tournament,
)
from tournament.tournaments import services as tournaments_services

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


def _is_users(name: str) -> bool:
    # Many-to-many settings (the referees) are kept as user names.
    return bool(Tournament._meta.get_field(name).many_to_many)
