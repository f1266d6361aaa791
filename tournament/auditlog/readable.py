"""What an audit event changed, in words people use: a line per game of a
result ("Spiel 2: Sitz 1 gewinnt, 5 Schräm übrig · 12 Punkte"), per table
of a seating (or of the one table a late arrival joined), per player of a
swap, per field of a form, with the fields' own names and values as they
are read (ja/nein, 05.12.2026, bestätigt, Startnummern 1–40). Pure: it
reads only the event's before and after."""

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.core.audit import audit_diff
from tournament.core.l10n import short_date, short_datetime
from tournament.core.rules import bot_label
from tournament.core.text import code_groups
from tournament.models import (
    DigitalSeat,
    DigitalTable,
    Entry,
    Job,
    PastChampion,
    Person,
    Player,
    Ranking,
    ResultVersion,
    Series,
    Team,
    TieBreak,
    Tournament,
)

# A value longer than this is cut (a log line, not a document).
MAX_VALUE = 120

# The rows each kind of event is about, whose fields name the keys.
MODELS: dict[str, tuple[type[models.Model], ...]] = {
    "tournament": (Tournament,),
    "entry": (Player, Entry),
    "team": (Team,),
    "series": (Series,),
    "resultversion": (ResultVersion,),
    "tiebreak": (TieBreak,),
    "job": (Job,),
    "digitaltable": (DigitalTable,),
    "digitalseat": (DigitalSeat,),
    "person": (Person,),
    "pastchampion": (PastChampion,),
    "ranking": (Ranking,),
}

# Keys the services record that are no field of the row, or whose field
# has no name of its own.
KEY_LABELS = {
    "": gettext_lazy("Wert"),
    "status": gettext_lazy("Status"),
    "tournament_status": gettext_lazy("Turnier"),
    "version": gettext_lazy("Version"),
    "seed": gettext_lazy("Kennung der Auslosung"),
    "count": gettext_lazy("Anzahl"),
    "start_numbers": gettext_lazy("Startnummern"),
    "members": gettext_lazy("Mitglieder (Startnummern)"),
    "order": gettext_lazy("Reihenfolge (Startnummern)"),
    "file": gettext_lazy("Datei"),
    "tables": gettext_lazy("Tische"),
    "kind": gettext_lazy("Art"),
    "label": gettext_lazy("Dokument"),
    "bot": gettext_lazy("Gespielt von"),
    "bots": gettext_lazy("Bots auf den Sitzen"),
    "seat": gettext_lazy("Sitz"),
    "series": gettext_lazy("Serie"),
    "table": gettext_lazy("Tisch"),
    "number": gettext_lazy("Nummer"),
    # Persons: the one kept and the one merged into it, a split's new one.
    "keep.id": gettext_lazy("Person (Nr.)"),
    "keep.name": gettext_lazy("Person"),
    "keep.club": gettext_lazy("Verein"),
    "keep.players": gettext_lazy("Meldungen (Nr.)"),
    "other.id": gettext_lazy("zusammengeführt: Person (Nr.)"),
    "other.name": gettext_lazy("zusammengeführt: Person"),
    "other.club": gettext_lazy("zusammengeführt: Verein"),
    "other.players": gettext_lazy("zusammengeführt: Meldungen (Nr.)"),
    "person.id": gettext_lazy("Person (Nr.)"),
    "person.name": gettext_lazy("Person"),
    "person.club": gettext_lazy("Verein"),
    "person.players": gettext_lazy("Meldungen (Nr.)"),
    "new.id": gettext_lazy("neue Person (Nr.)"),
    "new.name": gettext_lazy("neue Person"),
    "new.club": gettext_lazy("neue Person: Verein"),
    "new.players": gettext_lazy("neue Person: Meldungen (Nr.)"),
    "to_review": gettext_lazy("Person prüfen (Startnummern)"),
    "years": gettext_lazy("Jahre"),
    "disputed": gettext_lazy("Einspruch am Tisch"),
    # A result from a photo of the score sheet, and the photos deleted.
    "photo": gettext_lazy("Foto der Spielliste (SHA-256)"),
    "flagged": gettext_lazy("unsicher gelesen (Spiele)"),
    "changed": gettext_lazy("anders als gelesen gespeichert (Spiele)"),
    "photos": gettext_lazy("Fotos"),
    # A series released although the field changed since its draw.
    "released_anyway.not_seated": gettext_lazy(
        "trotzdem veröffentlicht, nicht gesetzt (Startnummern)"
    ),
    "released_anyway.seated_but_gone": gettext_lazy(
        "trotzdem veröffentlicht, gesetzt, aber nicht mehr da (Startnummern)"
    ),
}
# Whose status a "tournament_status" is.
STATUS_OF = {"tournament_status": Tournament}
# Lists of start numbers: runs shown as ranges (1–40).
NUMBER_LISTS = {
    "start_numbers",
    "to_review",
    "members",
    "order",
    "bots",
    "released_anyway.not_seated",
    "released_anyway.seated_but_gone",
}


@dataclass(frozen=True)
class ChangeLine:
    """One thing an event changed: what, how it was (None: nothing before),
    how it is (None: gone)."""

    label: str
    old: str | None
    new: str | None


def readable_changes(*, object_type: str, before: Any, after: Any) -> list[ChangeLine]:
    """Everything `before` → `after` changed, in the order it was recorded:
    a result's games one by one, a seating's tables, a swap's two players,
    then the other keys as the fields are named."""
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    lines: list[ChangeLine] = []
    handled: set[str] = set()
    if isinstance(old.get("games"), list) or isinstance(new.get("games"), list):
        lines += _games(old.get("games"), new.get("games"))
        handled.add("games")
    if isinstance(old.get("seating"), list) or isinstance(new.get("seating"), list):
        lines += _tables(old.get("seating"), new.get("seating"))
        handled.add("seating")
    if isinstance(old.get("tables"), list) or isinstance(new.get("tables"), list):
        lines += _tables(
            _by_size(old.get("tables")), _by_size(new.get("tables")), internal=True
        )
        handled.add("tables")
    if object_type == "series" and ("at_table" in old or "at_table" in new):
        lines += _at_table(old.get("at_table"), new.get("at_table"))
        handled.add("at_table")
    if object_type == "series" and ("a" in old or "a" in new):
        lines += _swap([old.get("a"), old.get("b")], [new.get("a"), new.get("b")])
        handled |= {"a", "b"}
    rest_old: Any = {k: v for k, v in old.items() if k not in handled}
    rest_new: Any = {k: v for k, v in new.items() if k not in handled}
    if not isinstance(before, dict):
        rest_old = before
    if not isinstance(after, dict):
        rest_new = after
    for change in audit_diff(rest_old, rest_new):
        lines.append(
            ChangeLine(
                label=field_label(object_type, change.key),
                old=value_text(object_type, change.key, change.old)
                if change.has_old
                else None,
                new=value_text(object_type, change.key, change.new)
                if change.has_new
                else None,
            )
        )
    return lines


def field_label(object_type: str, key: str) -> str:
    """A recorded key as the form names it (`checked_in` → anwesend)."""
    if key in KEY_LABELS:
        return str(KEY_LABELS[key])
    seat = _bot_seat(key)
    if seat is not None:
        return _("Bot auf Sitz %(seat)s") % {"seat": seat}
    field = _field(object_type, key)
    if field is not None and field.verbose_name != field.name.replace("_", " "):
        return str(field.verbose_name)
    return key


def value_text(object_type: str, key: str, value: Any) -> str:
    """A recorded value as people read it, at most a line long."""
    return _cut(_value_text(object_type, key, value))


def _bot_seat(key: str) -> str | None:
    """The seat of a digital table's bot list ("bots.2": seat 2), if `key`
    is one."""
    prefix, _dot, seat = key.partition(".")
    return seat if prefix == "bots" and seat.isdigit() else None


def _value_text(object_type: str, key: str, value: Any) -> str:
    if _bot_seat(key) is not None and isinstance(value, str):
        return bot_label(value)
    if value is None or (value == "" and key != "bot"):
        return "–"
    if value == []:
        # An empty list says so: a photo read without doubt, not a label
        # without a value ("unsicher gelesen (Spiele):").
        return _("keine")
    if isinstance(value, bool):
        return _("ja") if value else _("nein")
    if key == "bot":
        return bot_label(str(value)) if value else _("Spieler")
    field = _field(object_type, key)
    if key in STATUS_OF:
        field = STATUS_OF[key]._meta.get_field("status")
    if field is not None and field.choices and isinstance(value, str):
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(field, models.DateTimeField) and isinstance(value, str):
        return _when(value)
    if isinstance(field, models.DateField) and isinstance(value, str):
        return _day(value)
    if key == "seed" and isinstance(value, str):
        return code_groups(value)
    if key in NUMBER_LISTS and _numbers(value):
        return number_ranges(value)
    if isinstance(value, list) and all(_plain(v) for v in value):
        return ", ".join(map(str, value))
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def number_ranges(numbers: Iterable[int]) -> str:
    """Start numbers with runs of three or more as ranges: 1–40, 43, 45."""
    out: list[str] = []
    ordered = list(numbers)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{ordered[i]}–{ordered[j]}")
        else:
            out += [str(n) for n in ordered[i : j + 1]]
        i = j + 1
    return ", ".join(out)


# --- results, seatings, swaps ------------------------------------------------


def game_text(game: Any) -> str:
    """A game of a stored result: who won, with how many marks kept, for
    how many points (and, entered from the sheet, how many hands)."""
    if not isinstance(game, dict) or "winner" not in game:
        return _cut(json.dumps(game, ensure_ascii=False))
    text = _("Sitz %(seat)s gewinnt, %(marks)s Schräm übrig") % {
        "seat": game["winner"],
        "marks": game.get("marks", "?"),
    }
    points = game.get("points")
    if isinstance(points, int):
        text += " · " + ngettext("%(n)d Punkt", "%(n)d Punkte", points) % {"n": points}
    hands = game.get("hands")
    if isinstance(hands, list) and hands:
        text += " · " + ngettext(
            "%(n)d Einzelspiel", "%(n)d Einzelspiele", len(hands)
        ) % {"n": len(hands)}
    return text


def _games(before: Any, after: Any) -> list[ChangeLine]:
    old = before if isinstance(before, list) else []
    new = after if isinstance(after, list) else []
    lines = []
    for index in range(max(len(old), len(new))):
        was = old[index] if index < len(old) else None
        now = new[index] if index < len(new) else None
        if was == now:
            continue
        lines.append(
            ChangeLine(
                label=_("Spiel %(n)d") % {"n": index + 1},
                old=None if was is None else game_text(was),
                new=None if now is None else game_text(now),
            )
        )
    return lines


def _seated(numbers: Any, *, internal: bool = False) -> str:
    if _numbers(numbers):
        listed = ", ".join(map(str, numbers))
        if internal:
            return _("interne Nr. %(numbers)s") % {"numbers": listed}
        return _("Nr. %(numbers)s") % {"numbers": listed}
    return _cut(json.dumps(numbers, ensure_ascii=False))


def _by_size(tables: Any) -> Any:
    """An older seating record (`tables`: the plan's tables of entry ids, in
    the plan's order) in the order its tables were numbered: tables of four
    first, otherwise as planned."""
    if isinstance(tables, list) and all(isinstance(t, list) for t in tables):
        return sorted(tables, key=lambda t: -len(t))
    return tables


def _tables(before: Any, after: Any, *, internal: bool = False) -> list[ChangeLine]:
    """A seating (`seating`): the start numbers at each table by table
    number, seat by seat. An older record kept the site's internal numbers
    of the players (`internal`), which are no start numbers and say so."""
    old = before if isinstance(before, list) else []
    new = after if isinstance(after, list) else []
    lines = []
    for index in range(max(len(old), len(new))):
        was = old[index] if index < len(old) else None
        now = new[index] if index < len(new) else None
        if was == now:
            continue
        lines.append(
            ChangeLine(
                label=_("Tisch %(n)d") % {"n": index + 1},
                old=None if was is None else _seated(was, internal=internal),
                new=None if now is None else _seated(now, internal=internal),
            )
        )
    return lines


def _table_players(value: Any) -> tuple[int, list[int]] | None:
    if isinstance(value, list) and len(value) == 2 and _numbers(value[1]):
        return value[0], value[1]
    return None


def _at_table(before: Any, after: Any) -> list[ChangeLine]:
    """One table's players before and after a change of that table alone (a
    late arrival on its free seat), recorded as [table, [start numbers]]."""
    was, now = _table_players(before), _table_players(after)
    table = now or was
    if table is None:
        return []
    return [
        ChangeLine(
            label=_("Tisch %(n)s") % {"n": table[0]},
            old=None if was is None else _seated(was[1]),
            new=None if now is None else _seated(now[1]),
        )
    ]


def _place(place: Any) -> str:
    table, seat = place
    return _("Tisch %(table)s, Sitz %(seat)s") % {"table": table, "seat": seat}


def _swap(before: list[Any], after: list[Any]) -> list[ChangeLine]:
    """Two players swapped: each one's place before and after, recorded as
    [start number, table, seat]."""
    lines = []
    for was, now in zip(before, after, strict=True):
        if not (_numbers(was) and _numbers(now) and len(was) == len(now) == 3):
            continue
        lines.append(
            ChangeLine(
                label=_("Nr. %(n)d") % {"n": was[0]},
                old=_place(was[1:]),
                new=_place(now[1:]),
            )
        )
    return lines


# --- helpers -------------------------------------------------------------------


def _field(object_type: str, key: str) -> "models.Field[Any, Any] | None":
    for model in MODELS.get(object_type, ()):
        try:
            field = model._meta.get_field(key)
        except FieldDoesNotExist:  # a key of the service's own
            continue
        if isinstance(field, models.Field):
            return field
    return None


def _plain(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _day(text: str) -> str:
    try:
        return short_date(datetime.date.fromisoformat(text[:10]))
    except ValueError:
        return text


def _when(text: str) -> str:
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return text
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return short_datetime(moment)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"
