"""A late arrival on the free seat of a released series' table of three."""

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.live import invalidation
from tournament.models import (
    Entry,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournament.seating import selectors
from tournament.seating.services.common import _check_version, _lock
from tournament.seating.services.swaps import _measure

# A late arrival joins a released series only before its games are played.
LATE_JOINABLE = (Series.Status.RELEASED, Series.Status.PLAYING)


def series_seat_late(
    *, actor: Actor, series: Series, entry: Entry, table_number: int, version: int
) -> Table:
    """Seat a player who checked in after `series` was released on the free
    fourth seat of one of its tables of three.

    The rule: only while that table has no result at all (entered,
    waiting or confirmed; no digital game started), i.e. before its games
    begin. He then plays all of the table's games, and the table is a table
    of four from the first game on: its result has four players and is no
    result of a table of three. Once a table has begun, he sits this series
    out; the next draw seats him. He takes seat 4, which (the highest seat)
    deals first and keeps the score sheet."""
    with transaction.atomic():
        series, tournament = _lock(series)
        _check_version(series, version)
        entry = _late_arrival(series, tournament, entry)
        table = _table_of_three(series, table_number, entry.player.full_name)
        before = list(
            table.seats.order_by("number").values_list("entry__start_number", flat=True)
        )
        Seat.objects.create(series=series, table=table, number=4, entry=entry)
        table.size = 4
        # An entry form opened for the table of three is stale now.
        table.result_revision += 1
        table.save(update_fields=["size", "result_revision"])
        _measure(series, tournament)
        series.version += 1
        series.save(update_fields=["quality", "version"])
        invalidation.seating_changed(tournament.pk)
        invalidation.field_changed(tournament.pk)
        audit_record(
            actor=actor,
            action="series.seat_late",
            obj=series,
            tournament=tournament,
            before={"at_table": [table.number, before]},
            after={"at_table": [table.number, [*before, entry.start_number]]},
        )
    return table


def _late_arrival(series: Series, tournament: Tournament, entry: Entry) -> Entry:
    """The late arrival, with his player; refused unless the series is
    running and he is present and not seated in it."""
    if series.status not in LATE_JOINABLE:
        raise UserError(
            _(
                "Serie %(n)d wird nicht gerade gespielt: nur in einer "
                "veröffentlichten Serie nimmt ein Nachzügler einen freien Sitz."
            )
            % {"n": series.number},
            code="not_running",
        )
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    name = entry.player.full_name
    if (
        entry.tournament_id != tournament.pk
        or not entry.checked_in
        or entry.withdrawn_at is not None
    ):
        raise UserError(
            _("%(name)s ist nicht als anwesend eingecheckt.") % {"name": name},
            code="not_present",
        )
    if Seat.objects.filter(series=series, entry=entry).exists():
        raise UserError(
            _("%(name)s sitzt in Serie %(n)d schon an einem Tisch.")
            % {"name": name, "n": series.number},
            code="seated",
        )
    return entry


def _table_of_three(series: Series, table_number: int, name: str) -> Table:
    """The table of three `name` joins, locked; refused unless it is one and
    has not begun."""
    table = (
        Table.objects.select_for_update()
        .filter(series=series, number=table_number)
        .first()
    )
    if table is None or table.size != 3:
        raise UserError(
            _("Serie %(n)d hat keinen Dreiertisch mit der Nummer %(t)d.")
            % {"n": series.number, "t": table_number},
            code="no_table_of_three",
        )
    if selectors.begun_tables([table]):
        raise UserError(
            _(
                "An Tisch %(t)d wird schon gespielt (ein Ergebnis ist "
                "eingegeben oder der Tisch spielt digital): %(name)s setzt "
                "Serie %(n)d aus, die nächste Auslosung setzt ihn."
            )
            % {"t": table.number, "name": name, "n": series.number},
            code="table_begun",
        )
    return table
