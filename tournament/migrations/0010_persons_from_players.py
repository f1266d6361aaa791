# Every player gets a person: registrations of the same name and club
# (however the umlauts were typed) become one person, unless two of them
# played one tournament (then each is a person of its own); no club counts
# as a club. A player whose name another person shares (another club,
# "Jobges" beside "Jöbges", the same name twice) is not merged but marked
# for the organizer's review.

import datetime
from collections import defaultdict

from django.db import migrations, models

from tournament.core.text import fold, name_key


def _club_key(club):
    return " ".join(fold(club)[1].split())


def _loose_key(first, last):
    return " ".join(fold(f"{first} {last}")[0].split())


def persons_from_players(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    Person = apps.get_model("tournament", "Person")
    Entry = apps.get_model("tournament", "Entry")
    if schema_editor.connection.vendor == "postgresql":
        # The new foreign keys are checked row by row, so that no check is
        # still pending when the column becomes NOT NULL below.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    played = defaultdict(set)
    latest = {}
    for player_id, tournament_id, date in Entry.objects.values_list(
        "player_id", "tournament_id", "tournament__date"
    ):
        played[player_id].add(tournament_id)
        latest[player_id] = max(latest.get(player_id, date), date)
    groups = defaultdict(list)
    for player in Player.objects.order_by("id"):
        key = name_key(player.first_name, player.last_name)
        groups[key, _club_key(player.club)].append(player)
    buckets = []  # [players (newest first), tournaments]
    for players in groups.values():
        players.sort(key=lambda p: (latest.get(p.pk, datetime.date.min), p.pk))
        seen = set()
        clash = False
        for player in players:
            clash = clash or bool(played[player.pk] & seen)
            seen |= played[player.pk]
        if clash:
            # Two of that name played one tournament: which of them came
            # back is for the organizer to say. Each its own person.
            buckets += [[[p], set(played[p.pk])] for p in players]
        else:
            buckets.append([players[::-1], seen])
    persons = Person.objects.bulk_create(
        [
            Person(
                first_name=players[0].first_name,
                last_name=players[0].last_name,
                club=players[0].club,
                key=name_key(players[0].first_name, players[0].last_name),
                loose=_loose_key(players[0].first_name, players[0].last_name),
            )
            for players, _tournaments in buckets
        ],
        batch_size=500,
    )
    similar = defaultdict(list)  # by name key and by loose key
    for person, (_players, tournaments) in zip(persons, buckets, strict=True):
        similar["key", person.key].append((person, tournaments))
        similar["loose", person.loose].append((person, tournaments))
    review = set()
    for person, (_players, tournaments) in zip(persons, buckets, strict=True):
        # The first person of a name stays; a later one that could be the
        # same (no tournament in common) is for the organizer to decide.
        others = similar["key", person.key] + similar["loose", person.loose]
        if any(
            other.pk < person.pk and not theirs & tournaments
            for other, theirs in others
        ):
            review.add(person.pk)
    changed = []
    for person, (players, _tournaments) in zip(persons, buckets, strict=True):
        for player in players:
            player.person_id = person.pk
            # On the newest registration: that is the one the review shows.
            player.person_review = person.pk in review and player is players[0]
            changed.append(player)
    Player.objects.bulk_update(changed, ["person", "person_review"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0009_persons_champions_rankings"),
    ]

    operations = [
        migrations.RunPython(persons_from_players, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="person",
            field=models.ForeignKey(
                on_delete=models.deletion.PROTECT,
                related_name="players",
                to="tournament.person",
                verbose_name="Person",
            ),
        ),
    ]
