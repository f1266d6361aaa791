"""The audit trail: every service write records who, when, what, before/after."""

from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import models

from tournament.core.roles import Actor, acting_user
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
    actor: Actor,
    action: str,
    obj: models.Model,
    tournament: Tournament | None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    note: str = "",
) -> AuditEvent:
    return AuditEvent.objects.create(
        tournament=tournament,
        actor=acting_user(actor),
        action=action,
        object_type=obj._meta.model_name or "",
        object_id=str(obj.pk or ""),
        before=before,
        after=after,
        note=note,
    )


# --- Reading the trail --------------------------------------------------------

# The filter's action groups: a word a person types (or picks) and the action
# prefixes it stands for. Anything else typed is taken as a prefix itself.
ACTION_GROUPS: dict[str, tuple[str, ...]] = {
    "result": ("result.", "results."),
    "entry": ("entry.",),
    "seating": ("series.",),
    "team": ("team.",),
    "tournament": ("tournament.",),
    "tiebreak": ("tiebreak.",),
    "job": ("job.",),
}


def action_prefixes(text: str) -> tuple[str, ...]:
    """The prefixes a typed action filter means: ``result.*``, ``result``
    and ``result.`` all mean the result group; ``entry.check_in`` itself."""
    text = text.strip().rstrip("*")
    group = ACTION_GROUPS.get(text.rstrip("."))
    if group is not None:
        return group
    return (text,) if text else ()


_MISSING = object()
# Deeper than games.3.winner a value is shown as it is (compact JSON).
_FLATTEN_DEPTH = 3


@dataclass(frozen=True)
class AuditChange:
    key: str
    old: Any = _MISSING
    new: Any = _MISSING

    @property
    def has_old(self) -> bool:
        return self.old is not _MISSING

    @property
    def has_new(self) -> bool:
        return self.new is not _MISSING


def object_type_label(model_name: str) -> str:
    """A model's name as people read it (`resultversion` → Ergebnisversion)."""
    try:
        model = apps.get_model("tournament", model_name)
    except LookupError:
        return model_name
    return str(model._meta.verbose_name)


def _flatten(value: Any, prefix: str = "", depth: int = 0) -> dict[str, Any]:
    """Nested dicts (and lists of dicts, numbered from 1) as dotted keys."""
    if depth < _FLATTEN_DEPTH and isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_flatten(item, f"{prefix}{key}.", depth + 1))
        return out
    if (
        depth < _FLATTEN_DEPTH
        and isinstance(value, list)
        and value
        and all(isinstance(item, dict) for item in value)
    ):
        out = {}
        for index, item in enumerate(value, 1):
            out.update(_flatten(item, f"{prefix}{index}.", depth + 1))
        return out
    return {prefix.rstrip("."): value}


def audit_diff(before: Any, after: Any) -> list[AuditChange]:
    """What an event changed: the keys whose values differ between before
    and after (nested ones as ``games.2.winner``), in the order they come.
    Without a before (a creation) every after value counts as new; without
    an after (a deletion) every before value as gone."""
    old = _flatten(before) if isinstance(before, dict) else {}
    new = _flatten(after) if isinstance(after, dict) else {}
    if before is not None and not isinstance(before, dict):
        old = {"": before}
    if after is not None and not isinstance(after, dict):
        new = {"": after}
    keys = list(old) + [k for k in new if k not in old]
    return [
        AuditChange(key, old.get(key, _MISSING), new.get(key, _MISSING))
        for key in keys
        if old.get(key, _MISSING) != new.get(key, _MISSING)
    ]
