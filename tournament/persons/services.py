"""Persons: a registration matched to its person, the organizer's review of
uncertain matches, merging two persons and splitting off a wrong match.

The matching rule, in one place (`PersonIndex.match`):

- **certain**: exactly one person has the same name and the same club
  (`name_key`, `club_key`: case, accents, spaces and how an umlaut or ß was
  typed do not count; no club is a club too) and has not played this
  tournament yet. The registration joins that person.
- **uncertain**: some person who has not played this tournament has a
  similar name: the same name with another club (or with a club where this
  registration has none, or none where it has one), the same name and
  club twice, or the same letters with umlauts typed as plain vowels
  ("Jobges" for "Jöbges").
  The registration gets a person of its own and is marked for review; the
  organizer decides (the same: merge; another: keep apart). Never a silent
  merge.
- nothing similar: a new person.

Writes are keyword-only, atomic and audited (merge, split and the review's
decision; a registration's match is recorded with the registration)."""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from tournament.core.audit import audit_record
from tournament.core.errors import UserError
from tournament.core.roles import Actor
from tournament.core.text import fold, name_key
from tournament.live import invalidation
from tournament.models import Entry, PastChampion, Person, Player, Tournament


def club_key(club: str) -> str:
    """A club as matching compares it: "SC Daun" is "sc  daun" (a club
    compares as a name does)."""
    return name_key("", club)


def loose_key(first_name: str, last_name: str) -> str:
    """A name with umlauts as plain vowels: "Jöbges" and "Jobges" agree
    here, but not in `name_key` (another spelling, maybe another person)."""
    return " ".join(fold(f"{first_name} {last_name}")[0].split())


@dataclass(frozen=True)
class Match:
    """What a registration is: `person` when certain, else the persons it
    could be (`candidates`, uncertain), or neither (new)."""

    person: Person | None = None
    candidates: tuple[Person, ...] = ()

    @property
    def uncertain(self) -> bool:
        return self.person is None and bool(self.candidates)


class PersonIndex:
    """The persons some registrations could be, read at once: an import of
    300 rows matches with the same two queries as one row. Persons who
    played `tournament` already are no match (one person, one entry)."""

    def __init__(
        self,
        *,
        names: Iterable[tuple[str, str]],
        tournament: Tournament | None = None,
        exclude: Iterable[int] = (),
    ) -> None:
        names = list(names)
        keys = {name_key(first, last) for first, last in names}
        looses = {loose_key(first, last) for first, last in names}
        self._by_key: dict[str, list[Person]] = defaultdict(list)
        self._by_loose: dict[str, list[Person]] = defaultdict(list)
        if names:
            for person in Person.objects.filter(
                Q(key__in=keys) | Q(loose__in=looses)
            ).order_by("pk"):
                self._by_key[person.key].append(person)
                self._by_loose[person.loose].append(person)
        self._busy: set[int] = set(exclude)
        # Persons taken by earlier rows of the same registrations (two
        # players of one name in one list): no longer a match, but similar,
        # so the second is marked for review and listed there.
        self._taken: list[Person] = []
        if tournament is not None and tournament.pk is not None:
            self._busy.update(
                Entry.objects.filter(tournament=tournament).values_list(
                    "player__person_id", flat=True
                )
            )

    def match(self, first_name: str, last_name: str, club: str) -> Match:
        key = name_key(first_name, last_name)
        similar = {
            p.pk: p
            for p in (
                *self._by_key.get(key, ()),
                *self._by_loose.get(loose_key(first_name, last_name), ()),
            )
            if p.pk not in self._busy
        }
        loose = loose_key(first_name, last_name)
        taken = {p.pk: p for p in self._taken if p.key == key or p.loose == loose}
        if taken:
            return Match(candidates=(*similar.values(), *taken.values()))
        club = club_key(club)
        same = [
            p for p in similar.values() if p.key == key and club_key(p.club) == club
        ]
        if len(same) == 1:
            return Match(person=same[0])
        return Match(candidates=tuple(similar.values()))

    def take(self, person: Person) -> None:
        """`person` plays this tournament now: no other row may join it."""
        self._busy.add(person.pk)
        self._taken.append(person)


def _name(person: Person, first_name: str, last_name: str, club: str) -> None:
    person.first_name, person.last_name, person.club = first_name, last_name, club
    person.key = name_key(first_name, last_name)
    person.loose = loose_key(first_name, last_name)


def _new_person(player: Player) -> Person:
    person = Person()
    _name(person, player.first_name, player.last_name, player.club)
    person.full_clean(exclude=["id", "key", "loose"])
    person.save()
    return person


def person_attach(*, player: Player, index: PersonIndex) -> Match:
    """Give a new registration (`player`, not saved yet) its person by the
    matching rule: the certain match, else a new person (marked for review
    when the match is uncertain). The caller saves the player, in its
    transaction, and records it."""
    match = index.match(player.first_name, player.last_name, player.club)
    if match.person is not None:
        player.person = match.person
        player.person_review = False
    else:
        player.person = _new_person(player)
        player.person_review = match.uncertain
    index.take(player.person)
    return match


def persons_refresh(*, person_ids: Iterable[int]) -> None:
    """Each person takes the name and club of their newest registration
    (the latest tournament). Two queries however many persons."""
    ids = set(person_ids)
    if not ids:
        return
    newest: dict[int, tuple[tuple[bool, str, int], Player]] = {}
    for player in Player.objects.filter(person_id__in=ids).annotate(
        last=Max("entries__tournament__date")
    ):
        # Latest tournament first; a registration without one (its
        # tournament deleted) last; then the newest row.
        order = (player.last is not None, str(player.last or ""), player.pk)
        known = newest.get(player.person_id)
        if known is None or order > known[0]:
            newest[player.person_id] = (order, player)
    changed = []
    for person in Person.objects.filter(pk__in=ids):
        if person.pk not in newest:
            continue
        named = newest[person.pk][1]
        before = (person.first_name, person.last_name, person.club, person.key)
        _name(person, named.first_name, named.last_name, named.club)
        if before != (person.first_name, person.last_name, person.club, person.key):
            changed.append(person)
    Person.objects.bulk_update(
        changed, ["first_name", "last_name", "club", "key", "loose"]
    )


def _tournament_ids(person_ids: Iterable[int]) -> set[int]:
    return set(
        Entry.objects.filter(player__person_id__in=list(person_ids)).values_list(
            "tournament_id", flat=True
        )
    )


def announce_tournaments(tournament_ids: Iterable[int]) -> None:
    """Tell the pages of these tournaments that something they show across
    tournaments changed: season rankings and person pages follow persons
    and a ranking's settings through their tournaments' standings
    generation (nothing else in them changes), and a ranking's live page
    hangs on its tournaments' pages and sockets."""
    for tournament_id in sorted(set(tournament_ids)):
        invalidation.field_changed(tournament_id)


def _picture(person: Person) -> dict[str, object]:
    return {
        "id": person.pk,
        "name": person.full_name,
        "club": person.club,
        "players": sorted(person.players.values_list("pk", flat=True)),
    }


def _shared_tournaments(keep: Person, other: Person) -> list[Tournament]:
    mine = Tournament.objects.filter(entries__player__person=keep)
    return list(
        Tournament.objects.filter(entries__player__person=other, pk__in=mine)
        .distinct()
        .order_by("date", "name")
    )


def _merge(keep: Person, other: Person) -> None:
    shared = _shared_tournaments(keep, other)
    if shared:
        raise UserError(
            _(
                "%(a)s und %(b)s haben beide bei %(where)s gespielt: das sind "
                "zwei Personen."
            )
            % {
                "a": keep.full_name,
                "b": other.full_name,
                "where": ", ".join(f"„{t.name}“ ({t.date:%d.%m.%Y})" for t in shared),
            },
            code="played_together",
        )
    Player.objects.filter(person=other).update(person=keep, person_review=False)
    PastChampion.objects.filter(person=other).update(person=keep)
    other.delete()


def _locked(*people: Person) -> list[Person]:
    found = {
        p.pk: p
        for p in Person.objects.select_for_update().filter(
            pk__in=[p.pk for p in people]
        )
    }
    missing = [p for p in people if p.pk not in found]
    if missing:
        raise UserError(
            _("Diese Person gibt es nicht mehr (inzwischen zusammengeführt?)."),
            code="gone",
        )
    return [found[p.pk] for p in people]


def person_merge(
    *, actor: Actor, keep: Person, other: Person, note: str = ""
) -> Person:
    """Make `other` the same person as `keep`: its registrations (and any
    imported title) join `keep`, `other` goes. Refused when both played one
    tournament (that is two people)."""
    if keep.pk == other.pk:
        raise UserError(_("Bitte zwei verschiedene Personen wählen."), code="same")
    with transaction.atomic():
        keep, other = _locked(keep, other)
        before = {"keep": _picture(keep), "other": _picture(other)}
        tournaments = _tournament_ids([keep.pk, other.pk])
        _merge(keep, other)
        persons_refresh(person_ids=[keep.pk])
        keep.refresh_from_db()
        audit_record(
            actor=actor,
            action="person.merge",
            obj=keep,
            tournament=None,
            before=before,
            after={"keep": _picture(keep)},
            note=note,
        )
        announce_tournaments(tournaments)
    return keep


def person_split(*, actor: Actor, player: Player) -> Person:
    """Split a wrong match: the registration `player` becomes a person of
    its own (with its name and club); the other registrations stay."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        (old,) = _locked(player.person)
        if old.players.count() < 2:
            raise UserError(
                _("%(name)s hat nur diese eine Meldung: da ist nichts abzutrennen.")
                % {"name": old.full_name},
                code="alone",
            )
        entry = player.entries.select_related("tournament").first()
        before = {"person": _picture(old)}
        new = _new_person(player)
        player.person = new
        player.person_review = False
        player.save(update_fields=["person", "person_review"])
        persons_refresh(person_ids=[old.pk, new.pk])
        old.refresh_from_db()
        audit_record(
            actor=actor,
            action="person.split",
            obj=new,
            tournament=entry.tournament if entry else None,
            before=before,
            after={"person": _picture(old), "new": _picture(new)},
        )
        announce_tournaments(_tournament_ids([old.pk, new.pk]))
    return new


def person_review_decide(
    *, actor: Actor, player: Player, same_as: Person | None
) -> Person:
    """The organizer's decision on an uncertain match: the registration's
    person is `same_as` (merged into it), or, with None, another person
    (kept apart). Either way the registration leaves the review."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not player.person_review:
            raise UserError(_("Diese Meldung ist schon entschieden."), code="decided")
        if same_as is None:
            player.person_review = False
            player.save(update_fields=["person_review"])
            audit_record(
                actor=actor,
                action="person.keep_apart",
                obj=player.person,
                tournament=None,
                after={"person": _picture(player.person)},
                note=_("Eine andere Person als die mit ähnlichem Namen."),
            )
            return player.person
        player.person_review = False
        player.save(update_fields=["person_review"])
        # In this transaction: a refused merge leaves the review open.
        return person_merge(
            actor=actor,
            keep=same_as,
            other=player.person,
            note=_("Prüfung: dieselbe Person."),
        )


def person_rematch(*, player: Player) -> None:
    """After a registration's name or club was corrected: a person of this
    registration alone is matched again by the rule (joins a certain match,
    or is marked for review); a person of several registrations keeps
    them and takes the newest name. Inside the caller's transaction and
    audit."""
    person = player.person
    if person.players.exclude(pk=player.pk).exists():
        persons_refresh(person_ids=[person.pk])
        return
    entry = player.entries.select_related("tournament").first()
    index = PersonIndex(
        names=[(player.first_name, player.last_name)],
        tournament=entry.tournament if entry else None,
        exclude=[person.pk],
    )
    match = index.match(player.first_name, player.last_name, player.club)
    if match.person is not None:
        _merge(match.person, person)
        persons_refresh(person_ids=[match.person.pk])
        player.refresh_from_db(fields=["person", "person_review"])
        return
    if player.person_review != match.uncertain:
        player.person_review = match.uncertain
        player.save(update_fields=["person_review"])
    persons_refresh(person_ids=[person.pk])
