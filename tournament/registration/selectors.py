"""Reads of the registration: entries, players, teams."""

from django.db.models import Count, Q, QuerySet

from tournament.models import Entry, Team, Tournament


def entries_for(tournament: Tournament, *, query: str = "") -> QuerySet[Entry]:
    """Entries with player and team, filtered by name, club or start number."""
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "team"
    )
    # No name holds a NUL (forms refuse it), and PostgreSQL refuses to
    # compare with one: a search for it is a search for the rest.
    query = query.replace("\x00", "").strip()
    if query:
        condition = (
            Q(player__first_name__icontains=query)
            | Q(player__last_name__icontains=query)
            | Q(player__club__icontains=query)
            | Q(player__town__icontains=query)
        )
        if query.isdecimal() and len(query) <= 9:  # int() refuses "²"
            condition |= Q(start_number=int(query))
        words = query.split()
        if len(words) == 2:  # "Anna Schmitz" or "Schmitz Anna"
            a, b = words
            condition |= Q(
                player__first_name__icontains=a, player__last_name__icontains=b
            )
            condition |= Q(
                player__first_name__icontains=b, player__last_name__icontains=a
            )
        entries = entries.filter(condition)
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
) -> QuerySet[Entry]:
    return Entry.objects.filter(
        tournament=tournament,
        player__first_name__iexact=first_name.strip(),
        player__last_name__iexact=last_name.strip(),
    ).select_related("player")


def teams_for(tournament: Tournament) -> QuerySet[Team]:
    return (
        Team.objects.filter(tournament=tournament)
        .prefetch_related("members__player")
        .order_by("name")
    )
