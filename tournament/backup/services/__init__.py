"""Backup and restore of a whole tournament as one JSON document.

The document holds what cannot be recomputed – the tournament, its players
and teams, every seating, every result version with who and when, the
tie-breaks and the audit trail; the standings tables (GameScore, EntryTotal)
are rebuilt from the confirmed results on restore. Rows are referred to by
start numbers and user names, never by database ids, so a backup restores
into any database. Photos of score sheets are not in it (images kept on
the laptop for a while, not results): the audit trail keeps their hashes.

In parts: ``document`` (its format and keys, reading one), ``write`` (a
tournament as a document), ``checks`` (a part read and checked) and
``restore`` (a document as a tournament). The site imports them from here,
``tournament.backup.services``.
"""

from tournament.backup.services.document import FORMAT, Damaged, backup_read
from tournament.backup.services.restore import tournament_restore
from tournament.backup.services.write import tournament_backup

__all__ = [
    "FORMAT",
    "Damaged",
    "backup_read",
    "tournament_backup",
    "tournament_restore",
]
