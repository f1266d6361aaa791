"""The demo championship, built through the same services the site uses."""

import datetime
import json
import random
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from tournament.core.roles import ensure_role_groups
from tournament.demo import bots
from tournament.history import services as history_services
from tournament.models import Ranking, ResultVersion, Series, Tournament
from tournament.registration import services as registration_services
from tournament.registration.services import PlayerData
from tournament.results import services as results_services
from tournament.seating import services as seating_services
from tournament.tournaments import services as tournaments_services

DEMO_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"


def demo_data() -> dict[str, Any]:
    with DEMO_FILE.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def demo_accounts_ensure() -> list[dict[str, str]]:
    """Create the demo logins (idempotent); returns them for printing."""
    ensure_role_groups()
    user_model = get_user_model()
    accounts: list[dict[str, str]] = demo_data()["accounts"]
    for account in accounts:
        user, created = user_model.objects.get_or_create(
            username=account["username"],
            defaults={
                "first_name": account["first_name"],
                "last_name": account["last_name"],
                "is_staff": account["role"] == "organizer",
            },
        )
        if created:
            user.set_password(account["password"])
            user.save()
        user.groups.add(Group.objects.get(name=account["role"]))
    return accounts


def _extra_players(count: int, seed: int, start: int) -> list[PlayerData]:
    """More players than the file holds: plausible names, drawn by seed."""
    data = demo_data()
    rng = random.Random(seed)
    firsts = sorted({p["first_name"] for p in data["players"]})
    lasts = sorted({p["last_name"] for p in data["players"]})
    clubs = sorted({(p["club"], p["town"]) for p in data["players"]})
    out = []
    for i in range(count):
        club, town = rng.choice(clubs)
        out.append(
            PlayerData(
                first_name=rng.choice(firsts),
                last_name=f"{rng.choice(lasts)}-{rng.choice(lasts)}",
                club=club,
                town=town,
                category=rng.choice(["open", "open", "ladies", "seniors"]),
                start_number=start + i,
            )
        )
    return out


def demo_tournament_create(
    *,
    slug: str | None = None,
    players: int | None = None,
    seed: int = 1,
    date: datetime.date | None = None,
) -> Tournament | None:
    """Create the demo tournament with its players and teams: the year's
    championship, on `date` (default the file's), named for its year. The
    players are the file's (and more, drawn by `seed`): a second demo
    tournament has the same persons, a year later.

    Returns None when a tournament with that slug exists already (so that
    `make run` never overwrites what somebody did with the demo)."""
    data = demo_data()
    info = data["tournament"]
    slug = slug or info["slug"]
    date = date or datetime.date.fromisoformat(info["date"])
    name = re.sub(r"\d{4}$", str(date.year), info["name"])
    if Tournament.objects.filter(slug=slug).exists():
        return None
    rows = [PlayerData(**p) for p in data["players"]]
    if players is not None and players < len(rows):
        rows = rows[:players]
    elif players is not None:
        rows += _extra_players(players - len(rows), seed, len(rows) + 1)
    with transaction.atomic():
        tournament = tournaments_services.tournament_save(
            actor=None,
            tournament=Tournament(
                name=name,
                slug=slug,
                date=date,
                venue=info["venue"],
                rule_preset=info["rule_preset"],
                is_championship=True,
            ),
            created=True,
        )
        _demo_field(tournament, rows, data["teams"])
    return tournament


def _demo_field(
    tournament: Tournament, rows: list[PlayerData], teams: list[dict[str, Any]]
) -> None:
    """The demo's players registered, all but two checked in, and its
    `teams` (their members by start number) formed of them."""
    entries = registration_services.entries_import(
        actor=None, tournament=tournament, rows=rows
    )
    # Most of the field has arrived; two are still on their way.
    for entry in entries[: len(entries) - 2]:
        registration_services.entry_set_checked_in(
            actor=None, entry=entry, checked_in=True
        )
    by_number = {e.start_number: e for e in entries}
    for team in teams:
        members = [by_number[n] for n in team["members"] if n in by_number]
        registration_services.team_save(
            actor=None,
            tournament=tournament,
            team=None,
            name=team["name"],
            members=members,
        )


def demo_play(*, tournament: Tournament, complete: int, seed: int = 1) -> None:
    """Play the demo forward through the site's services: series seated and
    released by the organizer, every table's games played by the rules
    module's greedy bots, entered by one referee and confirmed by the other.

    `complete` series are finished; the next one (if any) is seated and about
    half of its tables entered, a few still waiting for confirmation. With
    every series complete the tournament is closed."""
    user_model = get_user_model()
    organizer = user_model.objects.get(username="organizer")
    referee = user_model.objects.get(username="referee")
    referee2 = user_model.objects.get(username="referee2")
    all_series = seating_services.series_ensure(tournament=tournament)
    for series in all_series[: min(complete + 1, len(all_series))]:
        if series.status == Series.Status.DRAFT:
            series = seating_services.series_seat(actor=organizer, series=series)
        if series.status == Series.Status.SEATED:
            series = seating_services.series_release(actor=organizer, series=series)
        tables = list(series.tables.order_by("number"))
        finishing = series.number <= complete
        for index, table in enumerate(tables):
            if not finishing and index >= len(tables) // 2:
                break
            if table.result_versions.exists():
                continue
            games = bots.bot_games(
                table_size=table.size,
                tournament=tournament,
                seed=f"{seed}:{series.number}:{table.number}",
            )
            version = results_services.result_enter(
                actor=referee,
                table=table,
                games=[
                    results_services.GameInput(winner=g["winner"], marks=g["marks"])
                    for g in games
                ],
                mode=ResultVersion.Mode.QUICK,
                revision=None,
            )
            if finishing or index % 3:
                results_services.result_confirm(
                    actor=referee2, version=version, revision=None
                )
    if complete >= tournament.series_count:
        # Played to the end: the organizer closes it, as the page asks him.
        tournaments_services.tournament_close(actor=organizer, tournament=tournament)


DEMO_RANKING = "demo-wertung"


def demo_ranking_add(*, tournament: Tournament) -> Ranking:
    """The demo's season ranking (points by place, every result counts)
    takes in a demo tournament: each demo year adds one."""
    ranking = Ranking.objects.filter(slug=DEMO_RANKING).first()
    tournaments = [tournament]
    if ranking is None:
        ranking = Ranking(
            name="Rheinland-Wertung (Demo)",
            slug=DEMO_RANKING,
            method=Ranking.Method.PLACES,
        )
    else:
        tournaments += list(ranking.tournaments.exclude(pk=tournament.pk))
    return history_services.ranking_save(
        actor=None, ranking=ranking, tournaments=tournaments
    )
