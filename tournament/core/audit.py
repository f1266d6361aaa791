"""The audit trail: every service write records who, when, what, before/after."""

from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournament.core.roles import Actor, acting_user
from tournament.models import AuditEvent, Entry, Tournament


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
    player: Entry | None = None,
) -> AuditEvent:
    """One row of the trail. `player`: the player who acted through his
    personal link (then `actor` is None: no user of the site acted)."""
    return AuditEvent.objects.create(
        tournament=tournament,
        actor=acting_user(actor),
        player=player,
        action=action,
        object_type=obj._meta.model_name or "",
        object_id=str(obj.pk or ""),
        before=before,
        after=after,
        note=note,
    )


# --- Reading the trail --------------------------------------------------------

# What each action the services record did, as the log says it. An action
# not named here (a new one) shows as it is recorded.
ACTION_LABELS: dict[str, Promise] = {
    "tournament.create": _("Turnier angelegt"),
    "tournament.update": _("Turnier-Einstellungen geändert"),
    "tournament.delete": _("Turnier gelöscht"),
    "tournament.restore": _("Turnier aus einer Sicherung wiederhergestellt"),
    "tournament.close": _("Turnier beendet"),
    "tournament.reopen": _("Turnier wieder geöffnet"),
    "entry.register": _("Spieler angemeldet"),
    "entry.import": _("Spieler importiert"),
    "entry.update": _("Spielerdaten geändert"),
    "entry.check_in": _("Spieler ist anwesend"),
    "entry.check_out": _("Anwesenheit zurückgenommen"),
    "entry.withdraw": _("Spieler abgemeldet"),
    "entry.reinstate": _("Abmeldung zurückgenommen"),
    "entry.link_renew": _("Neuer persönlicher Link (alte Spielerkarte ungültig)"),
    "team.create": _("Mannschaft angelegt"),
    "team.update": _("Mannschaft geändert"),
    "team.delete": _("Mannschaft gelöscht"),
    "series.create": _("Serie angelegt"),
    "series.seat": _("Serie ausgelost"),
    "series.seat_standings": _("Serie nach Tabelle gesetzt"),
    "series.swap": _("Zwei Spieler getauscht"),
    "series.seat_late": _("Nachzügler an einen Dreiertisch gesetzt"),
    "series.release": _("Serie veröffentlicht"),
    "series.delete": _("Serie gelöscht"),
    "result.enter": _("Ergebnis eingegeben"),
    "result.confirm": _("Ergebnis bestätigt"),
    "result.reject": _("Ergebnis abgelehnt"),
    "result.correct": _("Ergebnis korrigiert"),
    "result.digital": _("Ergebnis vom digitalen Tisch"),
    "result.table_enter": _("Ergebnis am Tisch eingegeben (Spieler)"),
    "result.table_agree": _("Spieler sagt: Stimmt"),
    "result.table_confirm": _("Ergebnis am Tisch bestätigt (Spieler)"),
    "result.table_dispute": _("Spieler sagt: Stimmt nicht"),
    "result.photo": _("Ergebnis aus Foto der Spielliste übernommen"),
    "sheetphoto.delete": _("Fotos der Spiellisten gelöscht"),
    "sheetphoto.expire": _("Alte Fotos der Spiellisten gelöscht"),
    "results.import": _("Spiele aus Excel importiert"),
    "tiebreak.lot": _("Gleichstand durch Los entschieden"),
    "tiebreak.playoff": _("Gleichstand durch Stechen entschieden"),
    "job.start": _("Druck oder Export gestartet"),
    "digital.create": _("Tisch wird digital gespielt"),
    "digital.seat": _("Sitz an Bot oder Spieler übergeben"),
    "digital.link": _("Neuer Link für einen Sitz"),
    "digital.stop": _("Digitales Spiel beendet"),
    "digital.away": _("Handy weg: ein Bot spielt für den Sitz"),
    "digital.back": _("Handy wieder da: der Spieler spielt selbst"),
    "person.merge": _("Zwei Personen zusammengeführt"),
    "person.split": _("Meldung von einer Person abgetrennt"),
    "person.keep_apart": _("Ähnlicher Name, aber eine andere Person"),
    "champions.import": _("Meisterliste importiert"),
    "ranking.create": _("Wertung angelegt"),
    "ranking.update": _("Wertung geändert"),
    "ranking.delete": _("Wertung gelöscht"),
}


def action_label(action: str) -> str:
    """An action as the log says it (`result.confirm` → Ergebnis bestätigt)."""
    label = ACTION_LABELS.get(action)
    return str(label) if label is not None else action


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
    "person": ("person.",),
    "champions": ("champions.",),
    "ranking": ("ranking.",),
    "sheetphoto": ("sheetphoto.", "result.photo"),
}


def action_prefixes(text: str) -> tuple[str, ...]:
    """The prefixes a typed action filter means: ``result.*``, ``result``
    and ``result.`` all mean the result group; ``entry.check_in`` itself,
    and so does what the log calls it (``Spieler ist anwesend``)."""
    text = text.strip().rstrip("*")
    group = ACTION_GROUPS.get(text.rstrip("."))
    if group is not None:
        return group
    named = [
        a for a, label in ACTION_LABELS.items() if str(label).lower() == text.lower()
    ]
    if named:
        return tuple(named)
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
