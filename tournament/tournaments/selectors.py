"""Reads of tournaments as a whole."""

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.roles import Visitor, is_organizer, is_referee
from tournament.models import ResultVersion, Series, Table, Tournament


def tournaments_public() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    ).order_by("-date", "name")


def championships_in_year(year: int, *, other_than: int | None = None) -> list[str]:
    """The names of the tournaments of `year` marked as championships, but
    `other_than` (a tournament's id), by date (one query): a second title in
    one year is asked about before it is saved."""
    found = Tournament.objects.filter(is_championship=True, date__year=year)
    if other_than is not None:
        found = found.exclude(pk=other_than)
    return list(found.order_by("date", "name").values_list("name", flat=True))


def running_tournament_refereed_by(user: Visitor) -> Tournament | None:
    """The running tournament whose results this user may enter, where
    there is exactly one; else None."""
    if not is_referee(user):
        return None
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    if not is_organizer(user):
        # A tournament that names no referees lets every referee enter.
        running = running.filter(
            Q(referees__isnull=True) | Q(referees=user.pk)
        ).distinct()
    found = list(running.order_by("pk").values_list("pk", flat=True)[:2])
    if len(found) != 1:
        return None
    return Tournament.objects.get(pk=found[0])


def close_refusal(tournament: Tournament) -> str:
    """Why the tournament cannot be closed yet, in the organizer's words;
    empty once it can: every series of the plan released, every table's
    result confirmed (a digital table's to its last game), and none waiting
    for a confirmation (a correction). Three small queries at most."""
    released = set(
        Series.objects.public()
        .filter(tournament=tournament)
        .values_list("number", flat=True)
    )
    missing = [n for n in range(1, tournament.series_count + 1) if n not in released]
    if missing:
        return _(
            "Serie %(n)d ist noch nicht gespielt. Wird sie nicht mehr gespielt, "
            "unter „Turnier bearbeiten“ die Anzahl der Serien auf %(played)d "
            "setzen."
        ) % {"n": missing[0], "played": missing[0] - 1}
    tables = Table.objects.filter(series__tournament=tournament)
    confirmed = Q(result_versions__status=ResultVersion.Status.CONFIRMED)
    done = tables.filter(confirmed, result_versions__complete=True)
    open_tables = list(
        tables.exclude(pk__in=done.values("pk"))
        .order_by("series__number", "number")
        .values_list("series__number", "number")
    )
    if open_tables:
        series = open_tables[0][0]
        numbers = [t for s, t in open_tables if s == series]
        return ngettext(
            "In Serie %(s)d fehlt noch das Ergebnis von Tisch %(t)s.",
            "In Serie %(s)d fehlen noch die Ergebnisse der Tische %(t)s.",
            len(numbers),
        ) % {"s": series, "t": ", ".join(map(str, numbers))}
    waiting = (
        ResultVersion.objects.filter(
            table__series__tournament=tournament,
            status=ResultVersion.Status.PENDING,
        )
        .order_by("table__series__number", "table__number")
        .values_list("table__series__number", "table__number")
        .first()
    )
    if waiting is not None:
        return _(
            "An Tisch %(t)d der Serie %(s)d wartet noch eine Eingabe auf ihre "
            "Bestätigung."
        ) % {"s": waiting[0], "t": waiting[1]}
    return ""
