"""A move at a digital table, a person's or a bot's: applied through the
rules (`adapter`) in the transaction that holds the table's row, saved with
the table's version bumped, and each finished game counted as the table's
result at once. The table's sockets are told after the commit.

The player-facing writes (`services`) and the bot runner (`runner`) both
move through here; neither needs the other to do it.
"""

from django.db import transaction

from scoring.actions import Action
from tournament.core import websockets
from tournament.digital import adapter
from tournament.models import DigitalTable
from tournament.results.services import result_enter_digital


def group_name(table_id: int) -> str:
    """The channel-layer group of a table's sockets."""
    return f"digital-{table_id}"


def tell_sockets(table_id: int) -> None:
    """After the commit: every socket of the table re-reads its own view."""

    transaction.on_commit(
        lambda: websockets.tell(group_name(table_id), {"type": "digital.changed"})
    )


def lock(table_id: int) -> DigitalTable:
    """The table's row, locked until the transaction ends."""
    # Plain: a move needs the row only; its tournament table is read when a
    # game ends.
    return DigitalTable.objects.select_for_update().get(pk=table_id)


def apply(digital: DigitalTable, act: Action) -> None:
    """Apply `act` to the locked table through the rules (IllegalAction if
    they forbid it), save, and count finished games as results."""
    ended = adapter.apply(digital, act)
    digital.version += 1
    if ended == "table":
        digital.status = DigitalTable.Status.FINISHED
    digital.save(update_fields=["games", "version", "status", "updated_at"])
    if ended and digital.table is not None:  # None for a practice table
        result_enter_digital(
            table=digital.table,
            games=adapter.finished_games(digital),
            records=adapter.full_record(digital)[: -1 if ended == "game" else None],
            complete=ended == "table",
        )
    tell_sockets(digital.pk)
