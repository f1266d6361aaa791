"""Reads of the registration: entries, players, teams.

Every player search (the desk's list, "Wo sitze ich?", the standings) goes
through `PlayerQuery`: it ignores case, accents and how an umlaut or ß was
typed ("joebges" and "jobges" find Jöbges, "Weissgerber" finds Weißgerber),
and takes a start number ("12", "Nr. 12", "#12"). Neither SQLite nor
PostgreSQL folds "ö" to "oe" the same way, so names are folded here, in
Python, over the tournament's entries: one read of a few short columns,
whatever the query, so the number of queries stays constant.
"""

import hmac
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from django.db.models import Count, Q, QuerySet
from django.urls import reverse

from tournament.core.rules import tournament_rules
from tournament.core.text import fold, name_key
from tournament.models import Entry, ResultVersion, Seat, Series, Team, Tournament
from tournament.models.core import unread_through

__all__ = [
    "PlayerQuery",
    "earlier_tournaments",
    "entries_for",
    "entry_counts",
    "fold",
    "missed_series",
    "name_key",
    "same_name_entries",
    "teams_for",
    "withdrawal_moment",
]

# "12", "Nr. 12", "Nr12", "#12", "Startnummer 12".
_NUMBER = re.compile(r"^(?:(?:start)?(?:nr|nummer)\.?|#)?\s*(\d{1,9})$")


@dataclass(frozen=True)
class PlayerQuery:
    """What somebody typed into a player search, ready to compare.

    A start number matches that start number only; otherwise every word
    must be found in the player's texts (name, club, town), in any order."""

    number: int | None
    words: tuple[tuple[str, str], ...]

    @classmethod
    def parse(cls, text: str) -> "PlayerQuery | None":
        """None for an empty search (nothing but spaces and punctuation)."""
        # No name holds a NUL (forms refuse it): a search for it is a search
        # for the rest.
        text = text.replace("\x00", "").strip()
        plain = fold(text)[0]
        number = _NUMBER.match(plain)
        if number is not None:
            return cls(number=int(number.group(1)), words=())
        words = tuple(
            fold(word) for word in text.split() if any(ch.isalnum() for ch in word)
        )
        if not words:
            return None
        return cls(number=None, words=words)

    def matches(self, start_number: int, texts: Iterable[str]) -> bool:
        if self.number is not None:
            return start_number == self.number
        plain, spelled = fold(" ".join(t for t in texts if t))
        return all(
            w[0] in plain or w[0] in spelled or w[1] in spelled for w in self.words
        )


def entries_for(tournament: Tournament, *, query: str = "") -> QuerySet[Entry]:
    """Entries with player and team, by start number; with a `query`, those
    it matches (`PlayerQuery`). Two queries with a search, one without."""
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "team"
    )
    if query.strip():
        search = PlayerQuery.parse(query)
        if search is None:
            return entries.none()
        if search.number is not None:
            entries = entries.filter(start_number=search.number)
        else:
            candidates = Entry.objects.filter(tournament=tournament).values_list(
                "pk",
                "start_number",
                "player__first_name",
                "player__last_name",
                "player__club",
                "player__town",
            )
            entries = entries.filter(
                pk__in=[
                    pk
                    for pk, number, *texts in candidates
                    if search.matches(number, texts)
                ]
            )
    return entries.order_by("start_number")


def entry_counts(tournament: Tournament) -> dict[str, int]:
    return tournament.entries.aggregate(
        total=Count("id"),
        active=Count("id", filter=Q(withdrawn_at__isnull=True)),
        checked_in=Count("id", filter=Q(checked_in=True, withdrawn_at__isnull=True)),
        withdrawn=Count("id", filter=Q(withdrawn_at__isnull=False)),
    )


def same_name_entries(
    tournament: Tournament, first_name: str, last_name: str
) -> list[Entry]:
    """Entries of the tournament with this name however it was typed
    (`name_key`: "Jöbges" is "JOEBGES"), by start number."""
    key = name_key(first_name, last_name)
    return [
        entry
        for entry in Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_number")
        if name_key(entry.player.first_name, entry.player.last_name) == key
    ]


def earlier_tournaments(entry: Entry) -> int:
    """In how many other tournaments the person of `entry` played: a known
    person, as the player import says it ("Bekannt: 2 Turniere bisher")."""
    return (
        Entry.objects.filter(player__person_id=entry.player.person_id)
        .exclude(tournament_id=entry.tournament_id)
        .values("tournament_id")
        .distinct()
        .count()
    )


def teams_for(tournament: Tournament) -> QuerySet[Team]:
    return (
        Team.objects.filter(tournament=tournament)
        .prefetch_related("members__player")
        .order_by("name")
    )


# --- Personal links ------------------------------------------------------------

# What a link's secret looks like (`models.core.new_link_token`): anything
# else is no link, and costs no query.
_LINK_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}\Z")


def entry_by_link(slug: str, token: str) -> Entry | None:
    """The entry whose personal link is `token`, in the tournament `slug`;
    None for a wrong slug, a wrong or replaced token alike (the caller's
    404 says no more). The token is the unique key of the lookup; the
    comparison afterwards takes the same time however much of it matched."""
    if not isinstance(token, str) or not _LINK_TOKEN.match(token):
        return None
    entry = (
        Entry.objects.select_related("player", "tournament", "team")
        .defer(*unread_through("tournament"))
        .filter(link_token=token)
        .first()
    )
    if entry is None:
        return None
    same_token = hmac.compare_digest(entry.link_token.encode(), token.encode())
    same_slug = hmac.compare_digest(entry.tournament.slug.encode(), slug.encode())
    return entry if same_token and same_slug else None


def mine_url(entry: Entry) -> str:
    """The path of the player's own page, "Mein Turnier": his personal link
    (the player card's QR code holds it with the hall's address)."""
    return reverse(
        "tournament:mine",
        kwargs={"slug": entry.tournament.slug, "token": entry.link_token},
    )


def link_entries(
    tournament: Tournament, *, start_number: int | None = None
) -> QuerySet[Entry]:
    """The players a sheet of player cards is printed for: those checked
    in and not withdrawn (or the one with `start_number`, whoever he is),
    by start number, with their player."""
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "tournament"
    )
    if start_number is not None:
        entries = entries.filter(start_number=start_number)
    else:
        entries = entries.filter(checked_in=True, withdrawn_at__isnull=True)
    return entries.order_by("start_number")


class MissedSeries(TypedDict):
    """The series drawn before a player came (`missed_series`), by number."""

    # Released and not complete: being played without him.
    running: int | None
    # Drawn, not yet released: it would be released without him.
    drawn: int | None


def missed_series(entry: Entry) -> MissedSeries:
    """The series drawn without `entry` that are not over: the one being
    played (released, not complete) and the one drawn but not released, the
    latest of each (one query). Both None before any draw or once he is
    seated in them."""
    missed: MissedSeries = {"running": None, "drawn": None}
    for number, status in (
        Series.objects.filter(
            tournament_id=entry.tournament_id,
            status__in=(
                Series.Status.SEATED,
                Series.Status.RELEASED,
                Series.Status.PLAYING,
            ),
        )
        .exclude(seats__entry=entry)
        .order_by("number")
        .values_list("number", "status")
    ):
        missed["drawn" if status == Series.Status.SEATED else "running"] = number
    return missed


@dataclass(frozen=True)
class WithdrawalMoment:
    """Where a player stands when he withdraws: the series he is seated in
    that is not over yet (`series` 0: none), his table there, its games,
    how many others stay at it and how many a game needs (the rule set's
    smallest table). `result_entered`: his table has a result already (then
    he played its games: he leaves after the series)."""

    series: int = 0
    table: int = 0
    games: int = 0
    others: int = 0
    min_seats: int = 3
    released: bool = False
    result_entered: bool = False

    @property
    def running(self) -> bool:
        return self.series > 0

    @property
    def table_plays_on(self) -> bool:
        """Whether the players left at his table can still play a game."""
        return self.others >= self.min_seats


def withdrawal_moment(entry: Entry) -> WithdrawalMoment:
    """The series he leaves in (two queries): the latest seated one he has
    a seat in whose results are not all in."""
    seat = (
        Seat.objects.filter(
            entry=entry,
            series__status__in=[
                Series.Status.SEATED,
                Series.Status.RELEASED,
                Series.Status.PLAYING,
            ],
        )
        .select_related("series__tournament", "table")
        .annotate(
            others=Count("table__seats", distinct=True),
            entered=Count(
                "table__result_versions",
                filter=Q(
                    table__result_versions__status__in=[
                        ResultVersion.Status.PENDING,
                        ResultVersion.Status.CONFIRMED,
                    ]
                ),
                distinct=True,
            ),
        )
        .order_by("-series__number")
        .first()
    )
    if seat is None:
        return WithdrawalMoment()
    tournament = seat.series.tournament
    return WithdrawalMoment(
        series=seat.series.number,
        table=seat.table.number,
        games=tournament.games_per_series,
        others=seat.others - 1,
        min_seats=tournament_rules(tournament).min_seats,
        released=seat.series.is_public,
        result_entered=seat.entered > 0,
    )


def last_series_seated(entry: Entry) -> int | None:
    """The number of the latest series he has a seat in (None: none)."""
    return (
        Seat.objects.filter(entry=entry)
        .seated()
        .order_by("-series__number")
        .values_list("series__number", flat=True)
        .first()
    )
