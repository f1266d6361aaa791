"""Writes of the history: the imported list of champions, season rankings.
Keyword-only, atomic, audited."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record, snapshot
from tournament.core.errors import ConflictError, UserError
from tournament.core.roles import Actor
from tournament.models import PastChampion, Ranking, Tournament
from tournament.persons.services import PersonIndex, announce_tournaments


@dataclass(frozen=True)
class ChampionData:
    """One row of the champions' workbook, checked (`champions_import`)."""

    year: int
    name: str
    club: str = ""
    points: int | None = None


def champion_person_index(rows: Iterable[ChampionData]) -> PersonIndex:
    """The persons the rows' names could be: a title is linked to a person
    only when the name and club match exactly one (the matching rule of
    registrations); never guessed."""
    return PersonIndex(names=[("", row.name) for row in rows])


def champions_import(*, actor: Actor, rows: Sequence[ChampionData]) -> int:
    """Replace the imported list of champions by `rows`, all or nothing.
    Returns how many were written."""
    if not rows:
        raise UserError(_("Die Liste enthält keine Meister."), code="empty")
    with transaction.atomic():
        old = list(PastChampion.objects.order_by("year", "name"))
        PastChampion.objects.all().delete()
        index = champion_person_index(rows)
        created = []
        for row in rows:
            champion = PastChampion(
                year=row.year,
                name=row.name.strip(),
                club=row.club.strip(),
                points=row.points,
                person=index.match("", row.name, row.club).person,
            )
            champion.full_clean(exclude=["id"])
            created.append(champion)
        try:
            with transaction.atomic():
                PastChampion.objects.bulk_create(created)
        except IntegrityError as error:  # the preview refuses these already
            raise UserError(
                _("Ein Name steht zweimal im selben Jahr."), code="duplicate"
            ) from error
        first = PastChampion.objects.order_by("year", "pk").first()
        assert first is not None
        audit_record(
            actor=actor,
            action="champions.import",
            obj=first,
            tournament=None,
            before={"count": len(old), "years": sorted({c.year for c in old})},
            after={
                "count": len(created),
                "years": sorted({c.year for c in created}),
            },
            note=_("%(count)d Meister importiert") % {"count": len(created)},
        )
    return len(created)


RANKING_FIELDS = ["name", "slug", "method", "place_points", "best_of"]


def _ranking_picture(
    ranking: Ranking, tournaments: Iterable[Tournament]
) -> dict[str, object]:
    return {
        **snapshot(ranking, RANKING_FIELDS),
        "tournaments": sorted(t.slug for t in tournaments),
    }


def ranking_save(
    *,
    actor: Actor,
    ranking: Ranking,
    tournaments: Sequence[Tournament],
    version: int | None = None,
) -> Ranking:
    """Create (no pk yet) or change a season ranking built by a validated
    form, with its tournaments. A stale form (another `version`) gets a
    conflict, never an overwrite."""
    if ranking.method == Ranking.Method.PLACES and not ranking.points_by_place():
        raise UserError(
            _("Bitte die Punkte pro Platz angeben."), code="place_points_required"
        )
    with transaction.atomic():
        created = ranking.pk is None
        before = None
        old_ids: list[int] = []
        if not created:
            stored = Ranking.objects.select_for_update().get(pk=ranking.pk)
            if version is not None and version != stored.version:
                raise ConflictError(
                    _(
                        "Die Wertung wurde inzwischen von jemand anderem geändert. "
                        "Bitte die Seite neu laden und erneut versuchen."
                    )
                )
            old = list(stored.tournaments.all())
            old_ids = [t.pk for t in old]
            before = _ranking_picture(stored, old)
            ranking.version = stored.version + 1
        ranking.full_clean(exclude=["tournaments"])
        ranking.save()
        ranking.tournaments.set(tournaments)
        audit_record(
            actor=actor,
            action="ranking.create" if created else "ranking.update",
            obj=ranking,
            tournament=None,
            before=before,
            after=_ranking_picture(ranking, tournaments),
        )
        announce_tournaments([*old_ids, *(t.pk for t in tournaments)])
    return ranking


def ranking_delete(*, actor: Actor, ranking: Ranking) -> None:
    with transaction.atomic():
        tournaments = list(ranking.tournaments.all())
        audit_record(
            actor=actor,
            action="ranking.delete",
            obj=ranking,
            tournament=None,
            before=_ranking_picture(ranking, tournaments),
        )
        ranking.delete()
        announce_tournaments(t.pk for t in tournaments)
