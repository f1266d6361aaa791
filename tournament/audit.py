"""The audit trail: every service write records who, when, what, before/after."""

from typing import Any

from django.db import models

from tournament.models import AuditEvent, Tournament


def snapshot(obj: models.Model, fields: list[str]) -> dict[str, Any]:
    """A JSON-safe picture of some fields of a row, for before/after. A
    many-to-many field shows as the sorted names of its rows (user names)."""
    out: dict[str, Any] = {}
    for name in fields:
        if name in _many_to_many(obj):
            out[name] = (
                sorted(str(o) for o in getattr(obj, name).all()) if obj.pk else []
            )
            continue
        value = getattr(obj, name)
        if isinstance(value, models.Model):
            value = value.pk
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            value = str(value)
        out[name] = value
    return out


def _many_to_many(obj: models.Model) -> set[str]:
    return {f.name for f in obj._meta.many_to_many}


def audit_record(
    *,
    actor: Any,
    action: str,
    obj: models.Model,
    tournament: Tournament | None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    note: str = "",
) -> AuditEvent:
    return AuditEvent.objects.create(
        tournament=tournament,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        object_type=obj._meta.model_name or "",
        object_id=str(obj.pk or ""),
        before=before,
        after=after,
        note=note,
    )
