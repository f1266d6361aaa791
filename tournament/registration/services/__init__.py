"""The registration desk's writes: players registered (one by one or from a
list), their details, check-in, withdrawal and reinstatement, teams, and a
new personal link.

In parts: ``entries`` (registered, imported, their details), ``presence``
(check-in, withdrawal, reinstatement, a new personal link) and ``teams``.
The site imports them from here, ``tournament.registration.services``.
"""

from tournament.registration.services.entries import (
    ENTRY_FIELDS,
    PERSON_FIELDS,
    PLAYER_FIELDS,
    PlayerData,
    entries_import,
    entry_register,
    entry_update,
    next_start_number,
)
from tournament.registration.services.presence import (
    WITHDRAWAL,
    WITHDRAWAL_FIELDS,
    entry_link_renew,
    entry_reinstate,
    entry_set_checked_in,
    entry_withdraw,
)
from tournament.registration.services.teams import team_delete, team_save

__all__ = [
    "ENTRY_FIELDS",
    "PERSON_FIELDS",
    "PLAYER_FIELDS",
    "WITHDRAWAL",
    "WITHDRAWAL_FIELDS",
    "PlayerData",
    "entries_import",
    "entry_link_renew",
    "entry_register",
    "entry_reinstate",
    "entry_set_checked_in",
    "entry_update",
    "entry_withdraw",
    "next_start_number",
    "team_delete",
    "team_save",
]
