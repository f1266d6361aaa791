"""Reads: each selector owns its query shape (no N+1 in templates)."""

from django.db.models import Count, Q, QuerySet

from tournament.models import Entry, Player, Team, Tournament


def tournaments_public() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    ).order_by("-date", "name")


def entries_for(tournament: Tournament, *, query: str = "") -> QuerySet[Entry]:
    """Entries with player and team, filtered by name, club or start number."""
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "team"
    )
    query = query.strip()
    if query:
        condition = (
            Q(player__first_name__icontains=query)
            | Q(player__last_name__icontains=query)
            | Q(player__club__icontains=query)
            | Q(player__town__icontains=query)
        )
        if query.isdigit():
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


def players_without_team(tournament: Tournament) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(tournament=tournament, team__isnull=True)
        .select_related("player")
        .order_by("player__last_name", "player__first_name")
    )


def categories() -> list[tuple[str, str]]:
    return list(Player.Category.choices)
