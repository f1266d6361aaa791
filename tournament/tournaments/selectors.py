"""Reads of tournaments as a whole."""

from django.db.models import Count, Q, QuerySet

from tournament.models import Tournament


def tournaments_public() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    ).order_by("-date", "name")
