"""What the printed documents show, read in a fixed number of queries.

Each builder returns plain data for one template under templates/pdf/.
Nothing here computes a score: the strokes and points of a filled score
sheet come from the GameScore rows that confirming a result wrote, the
standings from `tournament.standings.selectors`.
"""

import math
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournament.core.errors import UserError
from tournament.core.text import sort_key, unbroken_numbers
from tournament.models import ResultVersion, Series, Table, Tournament
from tournament.paper.fit import Fitted, fit
from tournament.paper.qr import qr_svg
from tournament.registration.selectors import link_entries, mine_url
from tournament.seating.selectors import series_tables
from tournament.standings.selectors import (
    Row,
    StandingsState,
    TeamRow,
    categories,
    category_rows,
    played_series,
    series_cells,
    standings,
    standings_rows,
    team_rows,
)


def series_for(tournament: Tournament, number: int | None) -> Series:
    """The series to print: the given number, or the latest one seated."""
    seated = Series.objects.seated().filter(tournament=tournament)
    if number is not None:
        series = seated.filter(number=number).first()
        if series is None:
            raise UserError(
                _("Serie %(n)d ist nicht gesetzt; es gibt noch nichts zu drucken.")
                % {"n": number},
                code="series_not_seated",
            )
        return series
    series = seated.order_by("-number").first()
    if series is None:
        raise UserError(
            _("Es ist noch keine Serie gesetzt; es gibt noch nichts zu drucken."),
            code="series_not_seated",
        )
    return series


# --- Seating lists ---------------------------------------------------------


@dataclass(frozen=True)
class SeatingLine:
    sort: str
    name: str  # "Nachname, Vorname"
    start_number: int
    club: str
    table: int
    seat: int


@dataclass
class LetterGroup:
    letter: str
    lines: list[SeatingLine] = field(default_factory=list)


@dataclass(frozen=True)
class SeatingTable:
    number: int
    size: int
    keeper: int
    seats: list[SeatingLine]


@dataclass(frozen=True)
class SeatingData:
    tournament: Tournament
    series: Series
    letters: list[LetterGroup]
    tables: list[SeatingTable]
    players: int


def seating_lists(*, tournament: Tournament, series: Series) -> SeatingData:
    """Who sits where: alphabetically and table by table (2 queries)."""
    tables = []
    everyone = []
    for table in series_tables(series):
        lines = [
            SeatingLine(
                sort=sort_key(
                    f"{s.entry.player.last_name} {s.entry.player.first_name}"
                ),
                name=f"{s.entry.player.last_name}, {s.entry.player.first_name}",
                start_number=s.entry.start_number,
                club=s.entry.player.club,
                table=table.number,
                seat=s.number,
            )
            for s in table.seats.all()
        ]
        everyone += lines
        tables.append(
            SeatingTable(
                number=table.number,
                size=table.size,
                keeper=max((line.seat for line in lines), default=table.size),
                seats=lines,
            )
        )
    everyone.sort(key=lambda line: (line.sort, line.start_number))
    letters: list[LetterGroup] = []
    for line in everyone:
        letter = line.sort[:1].upper() or "#"
        if not letter.isalpha():
            letter = "#"
        if not letters or letters[-1].letter != letter:
            letters.append(LetterGroup(letter))
        letters[-1].lines.append(line)
    return SeatingData(
        tournament=tournament,
        series=series,
        letters=letters,
        tables=tables,
        players=len(everyone),
    )


# --- Table cards -------------------------------------------------------------


# The QR code in a table card's corner.
CARD_QR_MM = 38.0


@dataclass(frozen=True)
class Card:
    number: int
    url: str  # the table's page for the players at it, "" without an address
    qr: SafeString | None


@dataclass(frozen=True)
class CardsData:
    tournament: Tournament
    series: Series | None
    numbers: list[int]
    base_url: str = ""

    @property
    def cards(self) -> list[Card]:
        """Each table's card. With the address phones open (`base_url`),
        a QR code to the table's page: the results of the current series
        at that table, as they are entered (one address for every series,
        so a card printed once serves the whole day)."""
        out = []
        for number in self.numbers:
            url = ""
            if self.base_url:
                path = reverse(
                    "tournament:table_card",
                    kwargs={"slug": self.tournament.slug, "table": number},
                )
                url = self.base_url.rstrip("/") + path
            qr = qr_svg(url, size_mm=CARD_QR_MM) if url else None
            out.append(Card(number, url, qr))
        return out


def table_cards(
    *, tournament: Tournament, series: Series | None, base_url: str = ""
) -> CardsData:
    """The table numbers to put on the tables: those of the series, or as
    many as the largest seated series (or the present field) needs; with
    `base_url` (the address phones open) each carries a QR code."""
    if series is not None:
        count = series.tables.count()
    else:
        counts = (
            Series.objects.seated()
            .filter(tournament=tournament)
            .annotate(n=Count("tables"))
        )
        count = max((s.n for s in counts), default=0)
        if not count:
            active = tournament.entries.filter(withdrawn_at__isnull=True).count()
            count = math.ceil(active / 4)
    if not count:
        raise UserError(
            _("Noch keine Spieler gemeldet: keine Tische zu drucken."),
            code="no_tables",
        )
    return CardsData(
        tournament=tournament,
        series=series,
        numbers=list(range(1, count + 1)),
        base_url=base_url,
    )


# --- Player cards ------------------------------------------------------------

# A player card is a business card (85 × 54 mm), ten to an A4 page; the QR
# code of the personal link takes its right part.
PLAYER_CARD_QR_MM = 30.0
PLAYER_CARD_NAME = {"width_mm": 47.0, "height_mm": 11.0}


@dataclass(frozen=True)
class PlayerCard:
    start_number: int
    name: Fitted
    club: str
    url: str  # the personal link
    qr: SafeString


@dataclass(frozen=True)
class PlayerCardsData:
    tournament: Tournament
    cards: list[PlayerCard]

    @property
    def pages(self) -> list[list[PlayerCard]]:
        """Ten cards a page (two columns of five)."""
        return [self.cards[i : i + 10] for i in range(0, len(self.cards), 10)]


def player_cards(
    *, tournament: Tournament, base_url: str, start_number: int | None = None
) -> PlayerCardsData:
    """A card per checked-in player (or the one with `start_number`): his
    name and number and the QR code of his personal link, which opens
    "Mein Turnier" on his phone (`base_url`: the address phones open).
    Printing it again prints the same link; a new one is made at the desk
    (registration.services.entry_link_renew)."""
    if not base_url:
        raise UserError(
            _(
                "Für die Spielerkarten fehlt die Adresse, unter der die Handys "
                "die Seite finden."
            ),
            code="no_address",
        )
    entries = list(link_entries(tournament, start_number=start_number))
    if not entries:
        raise UserError(
            _("Keinen Spieler mit dieser Startnummer gefunden.")
            if start_number is not None
            else _(
                "Noch niemand ist als anwesend eingetragen: keine Spielerkarten "
                "zu drucken."
            ),
            code="no_players",
        )
    cards = []
    for entry in entries:
        url = base_url.rstrip("/") + mine_url(entry)
        cards.append(
            PlayerCard(
                start_number=entry.start_number,
                name=fit(
                    entry.player.full_name,
                    width_mm=PLAYER_CARD_NAME["width_mm"],
                    height_mm=PLAYER_CARD_NAME["height_mm"],
                    size_pt=13.0,
                    single_min_pt=10.0,
                    min_pt=7.0,
                    line_height=1.15,
                    bold=True,
                ),
                club=entry.player.club,
                url=url,
                qr=qr_svg(url, size_mm=PLAYER_CARD_QR_MM),
            )
        )
    return PlayerCardsData(tournament=tournament, cards=cards)


# --- Standings and certificates --------------------------------------------


@dataclass(frozen=True)
class ResultsState:
    """How complete the standings are at the time of printing."""

    at: datetime
    confirmed_tables: int
    tables: int
    complete_series: int
    series: int


def results_state(tournament: Tournament) -> ResultsState:
    counts = Table.objects.filter(series__tournament=tournament).aggregate(
        tables=Count("id", distinct=True),
        confirmed=Count(
            "id",
            filter=Q(result_versions__status=ResultVersion.Status.CONFIRMED),
            distinct=True,
        ),
    )
    complete = Series.objects.filter(
        tournament=tournament, status=Series.Status.COMPLETE
    ).count()
    return ResultsState(
        at=timezone.localtime(),
        confirmed_tables=counts["confirmed"],
        tables=counts["tables"],
        complete_series=complete,
        series=tournament.series_count,
    )


@dataclass(frozen=True)
class StandingsLine:
    """A player's row and his series' points, None (blank) where he has no
    confirmed result."""

    row: Row
    series: list[int | None]


@dataclass(frozen=True)
class StandingsPart:
    kind: str  # "overall", a category's value ("ladies", …) or "teams"
    title: str
    rows: list[StandingsLine] | list[TeamRow]


@dataclass(frozen=True)
class StandingsData:
    """The standings on paper: `state` is the page's own (the same series
    and tables counted), `at` the time of printing."""

    tournament: Tournament
    at: datetime
    state: StandingsState
    parts: list[StandingsPart]
    series_numbers: list[int]

    @property
    def provisional(self) -> bool:
        return not self.state.final


def standings_document(*, tournament: Tournament) -> StandingsData:
    """Overall, each category with players in it (each keeps the overall
    place) and teams."""
    current = standings(tournament)
    rows = current.rows
    count, played = tournament.series_count, played_series(tournament)

    def lines(rows: list[Row]) -> list[StandingsLine]:
        return [StandingsLine(r, series_cells(r, count, played)) for r in rows]

    by_category = {c: lines(category_rows(rows, c.value)) for c in categories()}

    return StandingsData(
        tournament=tournament,
        at=timezone.localtime(),
        state=current.state,
        parts=[
            StandingsPart("overall", _("Gesamtwertung"), lines(rows)),
            *(
                StandingsPart(c.value, str(c.title), found)
                for c, found in by_category.items()
                if found
            ),
            StandingsPart(
                "teams", _("Mannschaftswertung"), team_rows(tournament, rows)
            ),
        ],
        series_numbers=list(range(1, tournament.series_count + 1)),
    )


# A certificate's lines (templates/pdf/css/certificate.css): the event,
# the name and the club, each whole in its place, centred on it (mm from
# the top of the frame), shrunk and wrapped as it needs, never cut.
CERTIFICATE_EVENT = {"width_mm": 156.0, "height_mm": 10.5, "at_mm": 75.0}
CERTIFICATE_NAME = {"width_mm": 166.0, "height_mm": 20.0, "at_mm": 117.0}
CERTIFICATE_CLUB = {"width_mm": 166.0, "height_mm": 14.0, "at_mm": 135.0}


def _certificate_text(
    text: str,
    place: dict[str, float],
    *,
    size: float,
    shrink: float = 0.8,
    bold: bool = False,
) -> tuple[Fitted, str]:
    """`text` at `size`, shrunk on one line to `shrink` of it at most, then
    wrapped."""
    fitted = fit(
        text,
        width_mm=place["width_mm"],
        height_mm=place["height_mm"],
        size_pt=size,
        single_min_pt=size * shrink,
        min_pt=min(8.0, size),
        line_height=1.15,
        family="serif",
        bold=bold,
    )
    return fitted, fitted.centred(at_mm=place["at_mm"], line_height=1.15)


@dataclass(frozen=True)
class Certificate:
    row: Row
    name: Fitted
    name_style: str
    club: Fitted
    club_style: str


@dataclass(frozen=True)
class CertificatesData:
    tournament: Tournament
    state: ResultsState
    rows: list[Row]
    top: int

    @property
    def event(self) -> tuple[Fitted, str]:
        return _certificate_text(
            unbroken_numbers(self.tournament.name), CERTIFICATE_EVENT, size=17
        )

    @property
    def certificates(self) -> list[Certificate]:
        """One per row: the name and the club as they fit the page."""
        out = []
        for row in self.rows:
            name, name_style = _certificate_text(
                row.name, CERTIFICATE_NAME, size=32, shrink=0.65, bold=True
            )
            club, club_style = _certificate_text(row.club, CERTIFICATE_CLUB, size=13)
            out.append(Certificate(row, name, name_style, club, club_style))
        return out


def certificates(*, tournament: Tournament, top: int) -> CertificatesData:
    """One certificate per player placed 1..top (equal totals share a place,
    so there may be more certificates than places)."""
    rows = standings_rows(tournament)
    if not any(r.points for r in rows):
        raise UserError(
            _("Noch keine bestätigten Ergebnisse: keine Urkunden zu drucken."),
            code="no_results",
        )
    return CertificatesData(
        tournament=tournament,
        state=results_state(tournament),
        rows=[r for r in rows if r.rank <= top],
        top=top,
    )
