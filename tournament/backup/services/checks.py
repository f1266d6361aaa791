"""A backup's parts read with their checks: a damaged part is refused
(`Damaged`, saying where) before it is written."""

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from tournament.backup.services.document import KEYS, Damaged
from tournament.core.rules import game_points
from tournament.models import (
    Entry,
    Table,
    Tournament,
)

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
