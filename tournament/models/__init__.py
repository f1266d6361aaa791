"""Every model of the app, re-exported: one app label, one migration
history. Models hold data and single-row rules; business logic lives
in the features' services and selectors."""

from tournament.models.core import (
    AuditEvent,
    Entry,
    Person,
    Player,
    Team,
    Tournament,
)
from tournament.models.digital import DigitalSeat, DigitalTable
from tournament.models.history import PastChampion, Ranking
from tournament.models.jobs import Job
from tournament.models.results import (
    EntryTotal,
    GameScore,
    ResultAnswer,
    ResultVersion,
    TieBreak,
)
from tournament.models.seating import Seat, Series, Table
from tournament.models.sheetphoto import SheetPhoto
from tournament.models.submissions import SubmissionKey

__all__ = [
    "AuditEvent",
    "DigitalSeat",
    "DigitalTable",
    "Entry",
    "EntryTotal",
    "GameScore",
    "Job",
    "PastChampion",
    "Person",
    "Player",
    "Ranking",
    "ResultAnswer",
    "ResultVersion",
    "Seat",
    "Series",
    "SheetPhoto",
    "SubmissionKey",
    "Table",
    "Team",
    "TieBreak",
    "Tournament",
]
