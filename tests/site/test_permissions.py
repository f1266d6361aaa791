"""The permission matrix (issue 9): who reaches what, for every URL of the
resolver and every websocket route, as one table.

Each row names a route, a method and the outcome per actor. The tests
check every cell against a fresh world (each actor's requests run in a
savepoint that is rolled back), that a refused request writes nothing, that
an allowed write does write, and that no route is missing from the table.
`docs/PERMISSIONS.md` is rendered from the same table (a test keeps it in
step; ``UPDATE_PERMISSIONS_DOC=1`` rewrites it).
"""

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
from channels.routing import URLRouter
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connections, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.bots import BOTS
from scoring.game import GameState
from scoring.records import GameRecord
from scoring.simulate import play_game
from tests.support.factories import (
    EntryFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    make_series,
    make_user,
)
from tests.support.results import FIVE, FIVE_PAIRS, quick_form
from tests.support.threads import run_async
from tests.support.websockets import ws_connect
from tournament.core.workbook import XLSX_CONTENT_TYPE
from tournament.digital import adapter as digital_adapter
from tournament.digital.services import digital_table_create
from tournament.history.services import ranking_save
from tournament.models import (
    DigitalTable,
    Entry,
    Job,
    Player,
    Ranking,
    Series,
    SheetPhoto,
)
from tournament.results.services import result_enter
from tournament.routing import websocket_urlpatterns
from tournament.tableentry.services import result_enter_by_player
from tournament.tournaments.forms import TournamentForm

User = get_user_model()
DOC = Path(__file__).resolve().parents[2] / "docs/PERMISSIONS.md"

# --- Actors -----------------------------------------------------------------

ACTORS = ("anon", "link", "ref", "ref_other", "org", "su", "player", "player_other")
ACTOR_TITLES = {
    "anon": "anonymous",
    "link": "digital seat link",
    "ref": "referee",
    "ref_other": "referee, other tournament",
    "org": "organizer",
    "su": "superuser",
    "player": "player of this table",
    "player_other": "player of another table",
}
ACTOR_NOTES = {
    "anon": "not signed in",
    "link": (
        "not signed in, holding seat 1's private link of a digital table "
        "(on `<token>` routes the others send a made-up token)"
    ),
    "ref": "in the `referee` group; the tournament names no referees",
    "ref_other": (
        "in the `referee` group and named by another tournament, while this "
        "tournament names somebody else (in every column but *referee*)"
    ),
    "org": "in the `organizer` group, and staff (as the demo's organizer)",
    "su": "a superuser in no group",
    "player": (
        "not signed in, holding the personal link of a player seated at the "
        "route's table (series 1, table 2) in the current series; entry at the "
        "table is on (one other player confirms). On `<player>` routes the "
        "first six send a made-up link"
    ),
    "player_other": (
        "not signed in, holding the personal link of a player of another table "
        "of the same series (table 3), sent to the route's table"
    ),
}

# --- Cell codes ---------------------------------------------------------------

LEGEND = {
    "200": "the page (or file, JSON)",
    "ok": "302, not to the login: done, or refused with a message",
    "login": "302 to the login page (the admin's own for `admin/`)",
    "403": "Permission denied",
    "404": "Not found: the object is not shown to this actor",
    "405": "Method not allowed",
    "open": "websocket accepted",
    "open+staff": "accepted, and the referees' regions (waiting entries) are granted",
    "4403": "websocket closed with 4403 (not allowed)",
    "4404": "websocket closed with 4404 (unknown)",
}


def public(code: str = "200") -> str:
    return " ".join([code] * len(ACTORS))


def referee(code: str = "200") -> str:
    return f"login login {code} 403 {code} {code} login login"


def organizer(code: str = "200") -> str:
    return f"login login 403 403 {code} {code} login login"


def link_only(code: str = "200") -> str:
    return f"404 {code} 404 404 404 404 404 404"


def player_only(code: str = "200", other: str = "403") -> str:
    """A player's own pages: his link works, a made-up one is 404; a player
    of another table is refused with a message (403), nothing written."""
    return f"404 404 404 404 404 404 {code} {other}"


# --- The table --------------------------------------------------------------

SLUG = "rechte"
MADE_UP_TOKEN = "erfundenErfundenErfunden00000000"  # a real token's shape
# Placeholders in kwargs, resolved per world (and actor, for TOKEN).
TOKEN, TEAM, JOB, PLAYER = "<token>", "<team>", "<job>", "<player>"
# Photos of table 2's score sheet: a referee's, and its player's own.
PHOTO, PLAYER_PHOTO = "<photo>", "<player's photo>"
PERSON, SPLIT, MERGE = "<person>", "<player of two>", "<person to merge>"
RANKING = {"slug": "rechte-wertung"}


@dataclass(frozen=True)
class Route:
    name: str  # URL name, with namespace
    method: str
    expect: str  # one code per actor, in ACTORS order
    kwargs: dict[str, Any] = field(default_factory=dict)
    query: str = ""
    # POST data: a dict, or a function of the world.
    data: dict[str, Any] | Callable[[Any], Any] | None = None
    content_type: str = ""
    # Allowed requests must write (True) or must not (False).
    writes: bool = False
    note: str = ""

    def codes(self) -> dict[str, str]:
        codes = self.expect.split()
        assert len(codes) == len(ACTORS), self
        return dict(zip(ACTORS, codes, strict=True))

    @property
    def id(self) -> str:
        suffix = f"-{self.note.split(':')[0]}" if self.note else ""
        return f"{self.name.split(':')[-1]}-{self.method}{suffix}".replace(" ", "_")


@dataclass(frozen=True)
class WsRoute:
    pattern: str  # as in tournament.routing
    path: Callable[[Any], str]
    expect: str
    note: str = ""

    def codes(self) -> dict[str, str]:
        return dict(zip(ACTORS, self.expect.split(), strict=True))


T = {"slug": SLUG}
S1 = {"slug": SLUG, "number": 1}
S2 = {"slug": SLUG, "number": 2}
# A player's waiting entry (entry at the table).
TABLE2 = {"slug": SLUG, "series": 1, "table": 2}
TABLE3 = {"slug": SLUG, "series": 1, "table": 3}  # a pending result
UNRELEASED = {"slug": SLUG, "series": 2, "table": 1}  # seated, not released
DIGITAL_TABLE = {"slug": SLUG, "number": 1, "table": 1}  # table 1 is digital
DESK = {"slug": SLUG, "number": 13}  # registered, not seated
GONE = {"slug": SLUG, "number": 14}  # withdrawn
A_TEAM = {"slug": SLUG, "team_id": TEAM}
A_JOB = {"slug": SLUG, "job_id": JOB}
OWN = {"token": TOKEN}
MINE = {"slug": SLUG, "token": PLAYER}
MINE_TABLE2 = {**MINE, "series": 1, "table": 2}
TABLE2_PHOTO = {**TABLE2, "photo": PHOTO}
MINE_TABLE2_PHOTO = {**MINE_TABLE2, "photo": PLAYER_PHOTO}


def result_data(world: Any) -> dict[str, Any]:
    return quick_form(FIVE, revision=world.table2_revision)


def decision_data(world: Any) -> dict[str, Any]:
    return {"version": 1, "revision": world.table3_revision, "reason": "Tippfehler"}


def tournament_data(world: Any, *, new: bool = False) -> dict[str, Any]:
    form = TournamentForm(instance=world.tournament)
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        if value is True:
            value = "on"
        elif isinstance(value, list | tuple):
            value = [getattr(v, "pk", v) for v in value]
        data[name] = value
    if new:
        data.update(name="Neues Turnier", slug="neu")
    else:
        data.update(venue="Daun")
    return data


def entry_data(number: int) -> dict[str, Any]:
    return {
        "start_number": number,
        "first_name": "Resi",
        "last_name": "Rechte",
        "category": "open",
    }


def ranking_data(world: Any) -> dict[str, Any]:
    return {
        "name": "Neue Wertung",
        "slug": "neue-wertung",
        "method": "places",
        "place_points": "10,8,6",
        "tournaments": [world.tournament.pk],
    }


def move_data(world: Any) -> str:
    return json.dumps(
        {"type": "act", "seq": 1, "version": world.digital_version, "act": "look"}
    )


ROUTES = [
    # Django and the account
    Route("set_language", "POST", public("ok"), data={"language": "en", "next": "/"}),
    Route(
        "admin:index",
        "GET",
        "login login login login 200 200 login login",
        note="staff only: the organizer is staff",
    ),
    Route("login", "GET", "200 200 ok ok ok ok 200 200"),
    Route("logout", "GET", public("405")),
    Route("logout", "POST", public("ok")),
    # Public pages
    Route("tournament:home", "GET", public()),
    # The installable web app (16b): its service worker and manifest
    Route("tournament:webapp_sw", "GET", public()),
    Route("tournament:webapp_manifest", "GET", public()),
    Route("tournament:detail", "GET", public(), T),
    Route("tournament:series_detail", "GET", public(), S1, note="series 1: released"),
    Route(
        "tournament:series_detail",
        "GET",
        public("404"),
        S2,
        note="series 2: seated, not released",
    ),
    Route("tournament:where", "GET", public(), T, query="q=1"),
    Route("tournament:standings", "GET", public(), T),
    Route("tournament:standings_ladies", "GET", public(), T),
    Route("tournament:standings_seniors", "GET", public(), T),
    Route("tournament:standings_youth", "GET", public(), T),
    Route("tournament:standings_csv", "GET", public(), T),
    Route("tournament:standings_csv", "POST", public("405"), T, data={}),
    Route("tournament:standings_teams", "GET", public(), T),
    Route("tournament:series_results", "GET", public(), S1),
    Route(
        "tournament:table_card",
        "GET",
        public(),
        {"slug": SLUG, "table": 2},
        note="a table card's QR code: the table's page (entry at the table on)",
    ),
    Route("tournament:player", "GET", public(), {"slug": SLUG, "number": 1}),
    Route("tournament:projector", "GET", public(), T),
    # A player's own pages (personal link)
    Route("tournament:mine_start", "GET", public(), T),
    Route(
        "tournament:mine",
        "GET",
        player_only("200", "200"),
        MINE,
        note="Mein Turnier: each player his own",
    ),
    Route("tournament:mine_enter", "GET", player_only(), MINE_TABLE2),
    Route(
        "tournament:mine_enter",
        "POST",
        player_only("ok"),
        MINE_TABLE2,
        data=result_data,
        writes=True,
        note="replaces the waiting entry of another player of the table",
    ),
    Route("tournament:mine_photo_upload", "GET", player_only(), MINE_TABLE2),
    Route(
        "tournament:mine_photo_upload",
        "POST",
        player_only(),
        MINE_TABLE2,
        data={},
        note="no photo sent: the page says so, nothing is kept",
    ),
    Route(
        "tournament:mine_photo_review",
        "GET",
        player_only("200", "404"),
        MINE_TABLE2_PHOTO,
        note="his own photo only",
    ),
    Route(
        "tournament:mine_photo_review",
        "POST",
        player_only("ok", "404"),
        MINE_TABLE2_PHOTO,
        data=result_data,
        writes=True,
        note="saved as his entry at the table, linked to the photo",
    ),
    Route(
        "tournament:mine_photo_image",
        "GET",
        player_only("200", "404"),
        {**MINE_TABLE2_PHOTO, "part": "1"},
    ),
    Route("tournament:mine_confirm", "GET", public("405"), MINE_TABLE2),
    Route(
        "tournament:mine_confirm",
        "POST",
        player_only("ok"),
        MINE_TABLE2,
        data={"version": 1},
        writes=True,
        note="Stimmt: another player's entry",
    ),
    Route("tournament:mine_reject", "GET", player_only(), MINE_TABLE2),
    Route(
        "tournament:mine_reject",
        "POST",
        player_only("ok"),
        MINE_TABLE2,
        data={"version": 1, "reason": "Spiel 2 stimmt nicht"},
        writes=True,
        note="Stimmt nicht, with a reason",
    ),
    Route(
        "tournament:live_fragment",
        "GET",
        public(),
        {"slug": SLUG, "name": "standings"},
        note="standings: a public fragment",
    ),
    Route(
        "tournament:live_fragment",
        "GET",
        "404 404 200 404 200 200 404 404",
        {"slug": SLUG, "name": "progress"},
        note="progress: the referees' fragment",
    ),
    Route(
        "tournament:live_fragment",
        "GET",
        player_only("200", "200"),
        {"slug": SLUG, "name": "mein"},
        query=f"link={PLAYER}",
        note="mein: Mein Turnier's fragment, keyed by the player's link",
    ),
    # JSON API
    Route("tournament:api_standings", "GET", public(), T),
    Route("tournament:api_standings", "POST", public("405"), T, data={}),
    Route("tournament:api_series", "GET", public(), T),
    Route(
        "tournament:api_series_tables",
        "GET",
        public(),
        S1,
        note="series 1: released",
    ),
    Route(
        "tournament:api_series_tables",
        "GET",
        public("404"),
        S2,
        note="series 2: seated, not released",
    ),
    Route("tournament:api_players", "GET", public(), T),
    Route("tournament:api_player", "GET", public(), {"slug": SLUG, "number": 1}),
    # History: persons, champions, season rankings
    Route("tournament:persons", "GET", public(), query="q=a"),
    Route("tournament:person", "GET", public(), {"pk": PERSON}),
    Route("tournament:champions", "GET", public()),
    Route("tournament:rankings", "GET", public()),
    Route("tournament:ranking", "GET", public(), RANKING),
    Route("tournament:api_persons", "GET", public(), query="q=a"),
    Route("tournament:api_person", "GET", public(), {"pk": PERSON}),
    Route("tournament:api_champions", "GET", public()),
    Route("tournament:api_ranking", "GET", public(), RANKING),
    # Referees
    Route("tournament:results", "GET", referee(), T),
    Route("tournament:table_result", "GET", referee(), TABLE2),
    Route(
        "tournament:table_result",
        "GET",
        "login login 404 403 200 200 login login",
        UNRELEASED,
        note="series 2: seated, not released (the organizer's alone)",
    ),
    Route(
        "tournament:table_result",
        "POST",
        referee("ok"),
        TABLE2,
        data=result_data,
        writes=True,
    ),
    # Referees: a table's result from a photo of its score sheet
    Route("tournament:photo_upload", "GET", referee(), TABLE2),
    Route(
        "tournament:photo_upload",
        "POST",
        referee(),
        TABLE2,
        data={},
        note="no photo sent: the page says so, nothing is kept",
    ),
    Route("tournament:photo_review", "GET", referee(), TABLE2_PHOTO),
    Route(
        "tournament:photo_review",
        "POST",
        referee("ok"),
        TABLE2_PHOTO,
        data=result_data,
        writes=True,
        note="saved as the referee's entry, linked to the photo",
    ),
    Route(
        "tournament:photo_image",
        "GET",
        referee(),
        {**TABLE2_PHOTO, "part": "blatt"},
    ),
    Route("tournament:result_confirm", "GET", referee("405"), TABLE3),
    Route(
        "tournament:result_confirm",
        "POST",
        referee("ok"),
        TABLE3,
        data=decision_data,
        writes=True,
    ),
    Route("tournament:result_reject", "GET", referee("405"), TABLE3),
    Route(
        "tournament:result_reject",
        "POST",
        referee("ok"),
        TABLE3,
        data=decision_data,
        writes=True,
    ),
    # Organizer: tournament, desk, teams
    Route("tournament:audit_log_all", "GET", organizer()),
    Route("tournament:audit_log", "GET", organizer(), T),
    Route("tournament:tournament_create", "GET", organizer()),
    Route(
        "tournament:tournament_create",
        "POST",
        organizer("ok"),
        data=lambda w: tournament_data(w, new=True),
        writes=True,
    ),
    Route("tournament:manage", "GET", organizer(), T),
    Route("tournament:tournament_edit", "GET", organizer(), T),
    Route("tournament:tournament_close", "GET", organizer("405"), T),
    Route(
        "tournament:tournament_close",
        "POST",
        organizer("ok"),
        T,
        note="refused with a message: series 2 is not played",
    ),
    Route(
        "tournament:tournament_edit",
        "POST",
        organizer("ok"),
        T,
        data=tournament_data,
        writes=True,
    ),
    Route("tournament:tiebreaks", "GET", organizer(), T),
    Route(
        "tournament:tiebreaks",
        "POST",
        organizer(),
        T,
        data={},
        note="an empty form: the page with errors",
    ),
    Route("tournament:entry_list", "GET", organizer(), T),
    Route("tournament:entry_create", "GET", organizer(), T),
    Route(
        "tournament:entry_create",
        "POST",
        organizer("ok"),
        T,
        data=entry_data(20),
        writes=True,
    ),
    Route("tournament:entry_export", "GET", organizer(), T),
    Route("tournament:import_upload", "GET", organizer(), T),
    Route(
        "tournament:import_upload",
        "POST",
        organizer(),
        T,
        data={},
        note="no file: the page with errors",
    ),
    Route("tournament:import_confirm", "GET", organizer("405"), T),
    Route(
        "tournament:import_confirm",
        "POST",
        organizer("ok"),
        T,
        data={"token": "x"},
        note="no preview: back to the upload",
    ),
    Route("tournament:entry_edit", "GET", organizer(), DESK),
    Route(
        "tournament:entry_edit",
        "POST",
        organizer("ok"),
        DESK,
        data=entry_data(13),
        writes=True,
    ),
    Route("tournament:entry_check_in", "GET", organizer("405"), DESK),
    Route(
        "tournament:entry_check_in",
        "POST",
        organizer("ok"),
        DESK,
        data={"checked_in": "1"},
        writes=True,
    ),
    Route("tournament:entry_withdraw", "GET", organizer(), DESK),
    Route(
        "tournament:entry_withdraw",
        "POST",
        organizer("ok"),
        DESK,
        data={"reason": "krank"},
        writes=True,
    ),
    Route("tournament:entry_link_renew", "GET", organizer("405"), DESK),
    Route(
        "tournament:entry_link_renew",
        "POST",
        organizer("ok"),
        DESK,
        data={},
        writes=True,
        note="a lost player card: a new personal link",
    ),
    Route("tournament:entry_reinstate", "GET", organizer("405"), GONE),
    Route(
        "tournament:entry_reinstate",
        "POST",
        organizer("ok"),
        GONE,
        data={},
        writes=True,
    ),
    Route("tournament:team_list", "GET", organizer(), T),
    Route("tournament:team_create", "GET", organizer(), T),
    Route(
        "tournament:team_create",
        "POST",
        organizer("ok"),
        T,
        data={"name": "Neue Mannschaft"},
        writes=True,
    ),
    Route("tournament:team_edit", "GET", organizer(), A_TEAM),
    Route(
        "tournament:team_edit",
        "POST",
        organizer("ok"),
        A_TEAM,
        data={"name": "Umbenannt"},
        writes=True,
    ),
    Route("tournament:team_delete", "GET", organizer(), A_TEAM),
    Route(
        "tournament:team_delete", "POST", organizer("ok"), A_TEAM, data={}, writes=True
    ),
    # Organizer: series
    Route(
        "tournament:series_overview",
        "GET",
        organizer(),
        T,
        writes=True,
        note="creates the missing draft series",
    ),
    Route("tournament:series_manage", "GET", organizer(), S2),
    Route(
        "tournament:series_seat",
        "GET",
        organizer("405"),
        {"slug": SLUG, "number": 3},
    ),
    Route(
        "tournament:series_seat",
        "POST",
        organizer("ok"),
        {"slug": SLUG, "number": 3},
        data={"version": 0},
        writes=True,
    ),
    Route("tournament:series_choose", "GET", organizer("405"), S2),
    Route(
        "tournament:series_choose",
        "POST",
        organizer("ok"),
        S2,
        data={"version": 0, "seed": "0", "digest": "0"},
        note="takes one of the draws offered (refused here: none was)",
    ),
    Route("tournament:series_swap", "GET", organizer("405"), S2),
    Route(
        "tournament:series_swap",
        "POST",
        organizer("ok"),
        S2,
        data={"version": 0, "a": 1, "b": 2},
        writes=True,
    ),
    Route(
        "tournament:series_late",
        "GET",
        organizer(),
        {**S2, "start_number": 1},
        note="a late arrival's choices",
    ),
    Route(
        "tournament:series_late",
        "POST",
        organizer("ok"),
        {**S2, "start_number": 1},
        data={"choice": "sit_out"},
        note="sitting the series out writes nothing",
    ),
    Route("tournament:series_release", "GET", organizer("405"), S2),
    Route(
        "tournament:series_release",
        "POST",
        organizer("ok"),
        S2,
        data={"version": 0},
        writes=True,
    ),
    # Organizer: the photos of the score sheets
    Route("tournament:sheetphotos", "GET", organizer(), T),
    Route(
        "tournament:sheetphotos",
        "POST",
        organizer("ok"),
        T,
        writes=True,
        note="deletes the tournament's photos",
    ),
    # Organizer: paper and spreadsheets
    Route("tournament:paper", "GET", organizer(), T),
    Route("tournament:paper_download", "GET", organizer(), T, query="document=xlsx"),
    Route(
        "tournament:paper_download",
        "POST",
        organizer(),
        T,
        data={"document": "standings"},
        note="the print page's Sofort öffnen",
    ),
    Route("tournament:paper_job_start", "GET", organizer("405"), T),
    Route(
        "tournament:paper_job_start",
        "POST",
        organizer("ok"),
        T,
        data={"document": "xlsx"},
        writes=True,
    ),
    Route("tournament:paper_job", "GET", organizer(), A_JOB),
    Route("tournament:paper_job_status", "GET", organizer(), A_JOB),
    Route("tournament:paper_job_file", "GET", organizer(), A_JOB),
    Route("tournament:games_import", "GET", organizer(), T),
    Route(
        "tournament:games_import",
        "POST",
        organizer(),
        T,
        data={},
        note="no file: the page with errors",
    ),
    Route(
        "tournament:games_import_confirm",
        "POST",
        organizer("ok"),
        T,
        data={"token": "x"},
        note="no preview: back to the upload",
    ),
    # Organizer: persons, champions, season rankings (of no one tournament)
    Route("tournament:person_review", "GET", organizer()),
    Route(
        "tournament:person_review",
        "POST",
        organizer("ok"),
        data=lambda w: {"player": w.review_player.pk, "same_as": 0},
        writes=True,
        note="another person: the review is decided",
    ),
    Route("tournament:person_merge", "GET", organizer(), {"pk": MERGE}),
    Route(
        "tournament:person_merge",
        "POST",
        organizer("ok"),
        {"pk": MERGE},
        data=lambda w: {"other": w.other_person.pk},
        writes=True,
    ),
    Route("tournament:person_split", "GET", organizer("405"), {"player_id": SPLIT}),
    Route(
        "tournament:person_split",
        "POST",
        organizer("ok"),
        {"player_id": SPLIT},
        data={},
        writes=True,
    ),
    Route("tournament:champions_import", "GET", organizer()),
    Route(
        "tournament:champions_import",
        "POST",
        organizer(),
        data={},
        note="no file: the page with errors",
    ),
    Route("tournament:champions_import_confirm", "GET", organizer("405")),
    Route(
        "tournament:champions_import_confirm",
        "POST",
        organizer("ok"),
        data={"token": "x"},
        note="no preview: back to the upload",
    ),
    Route("tournament:ranking_create", "GET", organizer()),
    Route(
        "tournament:ranking_create",
        "POST",
        organizer("ok"),
        data=ranking_data,
        writes=True,
    ),
    Route("tournament:ranking_edit", "GET", organizer(), RANKING),
    Route(
        "tournament:ranking_edit",
        "POST",
        organizer("ok"),
        RANKING,
        data=lambda w: {**ranking_data(w), "slug": "rechte-wertung", "version": 0},
        writes=True,
    ),
    Route("tournament:ranking_delete", "GET", organizer(), RANKING),
    Route("tournament:ranking_delete", "POST", organizer("ok"), RANKING, writes=True),
    Route("tournament:ranking_pdf", "GET", organizer(), RANKING),
    Route("tournament:ranking_xlsx", "GET", organizer(), RANKING),
    # Digital tables
    Route("tournament:practice", "GET", public()),
    Route("tournament:practice", "POST", public("ok"), data={}, writes=True),
    Route("tournament:digital_play", "GET", link_only(), OWN),
    Route("tournament:digital_state", "GET", link_only(), OWN),
    Route("tournament:digital_move", "GET", public("405"), OWN),
    Route(
        "tournament:digital_move",
        "POST",
        link_only(),
        OWN,
        data=move_data,
        content_type="application/json",
        writes=True,
    ),
    Route(
        "tournament:digital_replay_own",
        "GET",
        link_only(),
        {"token": TOKEN, "game": 1},
    ),
    Route("tournament:digital_manage", "GET", organizer(), DIGITAL_TABLE),
    Route(
        "tournament:digital_manage",
        "POST",
        organizer("ok"),
        DIGITAL_TABLE,
        data={"action": "link", "seat": "2"},
        writes=True,
        note="a new link for seat 2",
    ),
    Route("tournament:digital_watch", "GET", referee(), DIGITAL_TABLE),
    Route("tournament:digital_watch_state", "GET", referee(), DIGITAL_TABLE),
    Route(
        "tournament:digital_replay",
        "GET",
        public(),
        {**DIGITAL_TABLE, "game": 1},
        note="a finished game",
    ),
]

WS_ROUTES = [
    WsRoute(
        "ws/t/<slug:slug>/",
        lambda w: f"/ws/t/{SLUG}/",
        "open open open+staff open open+staff open+staff open open",
        note="everyone; only referees of the tournament get the referees' regions",
    ),
    WsRoute(
        "ws/d/zuschauen/<int:pk>/",
        lambda w: f"/ws/d/zuschauen/{w.digital.pk}/",
        "4403 4403 open 4403 open open 4403 4403",
        note="watching a digital table",
    ),
    WsRoute(
        "ws/d/<str:token>/",
        lambda w: f"/ws/d/{w.token_for(w.actor)}/",
        "4404 open 4404 4404 4404 4404 4404 4404",
        note="the table behind a private link",
    ),
    WsRoute(
        "",
        lambda w: "/ws/nirgendwo/",
        "4404 4404 4404 4404 4404 4404 4404 4404",
        note="any other path: refused at the handshake",
    ),
]

# Routes outside the table, with the reason.
EXCLUDED = {
    "admin:*": (
        "the Django admin checks staff and model permissions itself; "
        "its index stands for it (`admin:index`)"
    ),
}


# --- Every route is in the table --------------------------------------------


def resolver_routes() -> dict[str, str]:
    """Every URL pattern of the site: name (with namespace) → path."""
    found: dict[str, str] = {}

    def walk(patterns: Any, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                ns = pattern.namespace
                full = f"{namespace}:{ns}" if namespace and ns else ns or namespace
                walk(pattern.url_patterns, prefix + str(pattern.pattern), full)
            else:
                assert isinstance(pattern, URLPattern)
                route = prefix + str(pattern.pattern)
                name = pattern.name or route
                key = f"{namespace}:{name}" if namespace else name
                found.setdefault(key, route)

    walk(get_resolver().url_patterns, "", "")
    return found


def excluded(name: str) -> bool:
    return any(
        name.startswith(rule[:-1]) if rule.endswith("*") else name == rule
        for rule in EXCLUDED
    )


def ws_patterns() -> list[str]:
    out = []
    for pattern in websocket_urlpatterns:
        assert not isinstance(pattern, URLRouter | URLResolver), "walk it"
        out.append(str(pattern.pattern))
    return out


def test_every_url_of_the_resolver_has_a_row():
    routes = resolver_routes()
    tabled = {r.name for r in ROUTES}
    missing = sorted(n for n in routes if n not in tabled and not excluded(n))
    assert not missing, f"URL patterns without a row in ROUTES: {missing}"
    stale = sorted(n for n in tabled if n not in routes)
    assert not stale, f"rows naming no URL pattern: {stale}"


def test_every_websocket_route_has_a_row():
    patterns = ws_patterns()
    tabled = [r.pattern for r in WS_ROUTES]
    missing = [p for p in patterns if p not in tabled]
    assert not missing, f"websocket routes without a row in WS_ROUTES: {missing}"
    assert sorted(tabled) == sorted(patterns), "a row names no websocket route"


def test_rows_are_well_formed():
    for row in [*ROUTES, *WS_ROUTES]:
        assert set(row.codes().values()) <= set(LEGEND), row
    ids = [r.id for r in ROUTES]
    assert len(ids) == len(set(ids)), "two rows test the same thing"


# --- The world ----------------------------------------------------------------


_FINISHED_GAME: dict[tuple[Any, ...], dict[str, Any]] = {}


def finished_game(digital: DigitalTable) -> dict[str, Any]:
    """The record of a game of four greedy bots by the table's rules, played
    in memory (through the site's services a game takes seconds)."""
    rules = digital_adapter.rules_of(digital)
    key = (digital.rules, digital.start_marks, digital.win_bonus, digital.size)
    if key not in _FINISHED_GAME:
        game = GameState(digital.size, rules, first_dealer=digital.size)
        bots = {s: BOTS["greedy"](random.Random(s)) for s in range(1, digital.size + 1)}
        play_game(game, bots, random.Random("rechte"))
        _FINISHED_GAME[key] = GameRecord.of(game).to_json()
    return _FINISHED_GAME[key]


def build_world() -> SimpleNamespace:
    """One tournament with everything a route needs: series 1 released
    (table 1 digital with a finished game, table 2 with a player's entry
    waiting for another player's confirmation, table 3 with a referee's
    pending one), series 2 seated, series 3 a draft, a team, a finished job;
    entry at the table on (one other player confirms); the actors' users and
    players; another tournament."""
    users = {
        "ref": make_user("perm-schiri", "referee"),
        "ref_other": make_user("perm-schiri-b", "referee"),
        "org": make_user("perm-orga", "organizer"),
        "su": User.objects.create_superuser("perm-admin", password="pw"),
    }
    users["org"].is_staff = True
    users["org"].save(update_fields=["is_staff"])
    named = make_user("perm-schiri-t", "referee")
    enterer = make_user("perm-eingabe", "referee")
    tournament = TournamentFactory(slug=SLUG, name="Rechte-Cup", table_entry="one")
    other = TournamentFactory(slug="rechte-andere", name="Anderer Cup")
    other.referees.set([users["ref_other"]])

    series1 = make_series(tournament, sizes=(4, 4, 4))
    entries = list(tournament.entries.order_by("start_number"))
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(checked_in=True)
    make_series(
        tournament,
        sizes=(4, 4, 4),
        number=2,
        status="seated",
        entries=entries[::3] + entries[1::3] + entries[2::3],
    )
    Series.objects.create(tournament=tournament, number=3)
    EntryFactory(tournament=tournament, start_number=13)
    gone = EntryFactory(tournament=tournament, start_number=14)
    Entry.objects.filter(pk=gone.pk).update(withdrawn_at="2026-12-05T09:00:00Z")
    team = TeamFactory(tournament=tournament, name="Die Rechten")
    # Persons: start number 1 played the other tournament too (a person of
    # two registrations, to split); another person played only there (to
    # merge with start number 3's); start number 2 waits for the organizer's
    # review.
    first = entries[0].player
    split = PlayerFactory(first_name=first.first_name, person=first.person)
    EntryFactory(tournament=other, player=split, start_number=1)
    other_person = EntryFactory(tournament=other, start_number=2).player.person
    Player.objects.filter(pk=entries[1].player_id).update(person_review=True)
    ranking_save(
        actor=None,
        ranking=Ranking(name="Rechte-Wertung", slug="rechte-wertung"),
        tournaments=[tournament, other],
    )

    tables = {t.number: t for t in series1.tables.all()}
    digital = digital_table_create(actor=users["org"], table=tables[1], bots={})
    DigitalTable.objects.filter(pk=digital.pk).update(
        games=[finished_game(digital), *digital.games]
    )
    digital.refresh_from_db()
    result_enter(
        actor=enterer, table=tables[3], games=FIVE, mode="quick", revision=None
    )
    # Series 1 seats start numbers 1–4, 5–8 and 9–12 at tables 1, 2, 3.
    players = {e.start_number: e for e in tournament.entries.all()}
    result_enter_by_player(
        player=players[6], table=tables[2], games=FIVE, mode="quick", revision=None
    )
    for table in tables.values():
        table.refresh_from_db()
    job = Job.objects.create(
        tournament=tournament,
        kind="xlsx",
        label="Ergebnis-Arbeitsmappe",
        status=Job.Status.DONE,
        progress=100,
        file_name="rechte.xlsx",
        file_path="rechte.xlsx",
        content_type=XLSX_CONTENT_TYPE,
        created_by=users["org"],
    )
    seat = digital.seats.get(number=1)
    reading = {
        "games": [
            {
                "number": n,
                "winner_seat": w,
                "marks_left": m,
                "flagged": False,
                "confidence": 1.0,
            }
            for n, (w, m) in enumerate(FIVE_PAIRS, 1)
        ]
    }
    photo, player_photo = (
        SheetPhoto.objects.create(
            table=tables[2],
            sha256="0" * 64,
            size=1000,
            file_name="photo.jpg",
            reading=reading,
            uploaded_by=users["ref"] if by_player is None else None,
            uploaded_by_player=by_player,
        )
        for by_player in (None, players[5])
    )

    world = SimpleNamespace(
        tournament=tournament,
        users=users,
        named=named,
        digital=digital,
        digital_version=digital.version,
        token=seat.token,
        team=team,
        job=job,
        photo=photo,
        player_photo=player_photo,
        person=first.person,
        other_person=other_person,
        merge=entries[2].player.person,
        split=split,
        review_player=entries[1].player,
        table2_revision=tables[2].result_revision,
        table3_revision=tables[3].result_revision,
        actor="anon",
    )
    world.sessions = {}
    for actor, user in users.items():
        client = Client()
        client.force_login(user)
        world.sessions[actor] = client.cookies[
            django_settings.SESSION_COOKIE_NAME
        ].value
    world.token_for = lambda actor: seat.token if actor == "link" else MADE_UP_TOKEN
    links = {
        "player": players[5].link_token,  # table 2, seat 1
        "player_other": players[9].link_token,  # table 3, seat 1
    }
    world.player_token_for = lambda actor: links.get(actor, MADE_UP_TOKEN)
    return world


def photo_files(var: Path, world: SimpleNamespace) -> None:
    """The images of the world's photos under VAR_DIR `var` (a small grey
    JPEG each: the pages that show them find a picture)."""
    import io

    from PIL import Image

    jpeg = io.BytesIO()
    Image.new("L", (120, 40), 200).save(jpeg, "JPEG")
    for photo in (world.photo, world.player_photo):
        folder = var / "sheetphotos" / str(photo.pk)
        folder.mkdir(parents=True, exist_ok=True)
        for name in ["photo.jpg", "sheet.jpg"] + [f"game-{g}.jpg" for g in range(1, 6)]:
            (folder / name).write_bytes(jpeg.getvalue())


def act_as(world: SimpleNamespace, actor: str) -> Client:
    """A client for the actor (signed in with the session made with the
    world). The tournament names another referee, except for `ref`."""
    world.actor = actor
    world.tournament.referees.set([] if actor == "ref" else [world.named])
    client = Client()
    if actor in world.sessions:
        client.cookies[django_settings.SESSION_COOKIE_NAME] = world.sessions[actor]
    return client


def resolve_kwargs(world: SimpleNamespace, actor: str, kwargs: dict[str, Any]):
    values = {
        TOKEN: world.token_for(actor),
        PLAYER: world.player_token_for(actor),
        TEAM: world.team.pk,
        JOB: world.job.pk,
        PHOTO: world.photo.pk,
        PLAYER_PHOTO: world.player_photo.pk,
        PERSON: world.person.pk,
        SPLIT: world.split.pk,
        MERGE: world.merge.pk,
    }
    return {k: values.get(v, v) if isinstance(v, str) else v for k, v in kwargs.items()}


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the app's tables, the users and the groups (plain SQL:
    the ORM would cost most of this module's time)."""
    connection = connections["default"]
    quote = connection.ops.quote_name
    models = [*apps.get_app_config("tournament").get_models(), User, Group]
    rows = {}
    with connection.cursor() as cursor:
        for model in models:
            table, pk = model._meta.db_table, model._meta.pk.column
            cursor.execute(f"SELECT * FROM {quote(table)} ORDER BY {quote(pk)}")
            rows[model._meta.label] = cursor.fetchall()
    return rows


def outcome(response: Any) -> str:
    """The cell code a response shows."""
    if response.status_code in (301, 302, 303):
        target = urlsplit(response["Location"]).path
        logins = {reverse("login"), reverse("admin:login")}
        return "login" if target in logins else "ok"
    return str(response.status_code)


def mismatch(expect: str, got: dict[str, str]) -> str:
    return "\n".join(
        [
            "actor      expected  got",
            *(
                f"{a:<10} {e:<9} {got[a]}{'' if got[a] == e else '   <--'}"
                for a, e in zip(ACTORS, expect.split(), strict=True)
            ),
        ]
    )


DENIED = {"login", "403", "404", "405", "4403", "4404"}


# --- HTTP: every cell ---------------------------------------------------------


@pytest.fixture(scope="class")
def shared_world(django_db_setup, django_db_blocker, tmp_path_factory):
    """One world for all HTTP rows: built in a transaction that is rolled
    back after the last row (each test and each actor in a savepoint)."""
    var = tmp_path_factory.mktemp("var")
    (var / "jobs").mkdir()
    (var / "jobs" / "rechte.xlsx").write_bytes(b"PK\x03\x04 not really")
    with django_db_blocker.unblock(), transaction.atomic():
        built = build_world()
        built.var = var
        photo_files(var, built)
        yield built
        transaction.set_rollback(True)


@pytest.fixture
def world(shared_world, db, settings):
    settings.VAR_DIR = shared_world.var
    return shared_world


def request(client: Client, row: Route, world: Any, actor: str) -> Any:
    path = reverse(row.name, kwargs=resolve_kwargs(world, actor, row.kwargs) or None)
    if row.query:
        query = row.query.replace(PLAYER, world.player_token_for(actor))
        path = f"{path}?{query}"
    if row.method == "GET":
        return client.get(path)
    data = row.data(world) if callable(row.data) else row.data
    if row.content_type:
        return client.post(path, data, content_type=row.content_type)
    return client.post(path, data or {})


class TestHttpMatrix:
    """Every HTTP cell (a class: the world lives as long as its rows)."""

    @pytest.mark.parametrize("row", ROUTES, ids=lambda r: r.id)
    def test_row(self, world, row):
        got = {}
        for actor, expected in row.codes().items():
            savepoint = transaction.savepoint()
            try:
                client = act_as(world, actor)
                before = snapshot()
                response = request(client, row, world, actor)
                got[actor] = outcome(response)
                after = snapshot()
            finally:
                transaction.savepoint_rollback(savepoint)
            if got[actor] != expected:
                continue  # reported below, all actors at once
            if expected in DENIED or not row.writes:
                assert after == before, f"{actor}: {row.id} wrote something"
            else:
                assert after != before, f"{actor}: {row.id} wrote nothing"
        assert got == row.codes(), mismatch(row.expect, got)


# --- Websockets: every cell -----------------------------------------------------


async def ws_outcome(path: str, cookie: str | None) -> str:
    communicator, connected, code = await ws_connect(path, cookie=cookie)
    if not connected:
        return str(code)
    try:
        if path.startswith("/ws/t/"):
            await communicator.send_json_to(
                {"type": "subscribe", "regions": [{"key": "progress", "etag": ""}]}
            )
            while True:
                message = await communicator.receive_json_from(timeout=5)
                if message["type"] == "subscribed":
                    return "open+staff" if message["keys"] == ["progress"] else "open"
        message = await communicator.receive_json_from(timeout=5)
        assert message["type"] == "state"
        # A watcher is nobody's seat; a link is its own.
        assert message["seat"] == (1 if "/zuschauen/" not in path else None)
        return "open"
    finally:
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("row", WS_ROUTES, ids=lambda r: r.pattern)
def test_websocket_matrix(memory_layer, var_dir, row):
    world = build_world()
    got = {}
    for actor in ACTORS:
        act_as(world, actor)
        cookie = None
        if actor in world.sessions:
            cookie = f"{django_settings.SESSION_COOKIE_NAME}={world.sessions[actor]}"
        path = row.path(world)
        got[actor] = run_async(ws_outcome, path, cookie)
    assert got == row.codes(), mismatch(row.expect, got)


# --- The document -------------------------------------------------------------


def render_doc() -> str:
    routes = resolver_routes()
    head = "| route | method | " + " | ".join(ACTOR_TITLES[a] for a in ACTORS)
    rule = "|---|---|" + "---|" * len(ACTORS)
    lines = [
        "# Permission matrix",
        "",
        "Who reaches which URL and websocket route. Generated from the table in",
        "`tests/site/test_permissions.py`, which checks every cell against",
        "the site and fails when a URL pattern or websocket route has no row, or",
        "when this file differs from the table. After changing the table:",
        "",
        "```sh",
        "UPDATE_PERMISSIONS_DOC=1 .venv/bin/pytest tests/site/test_permissions.py",
        "```",
        "",
        "## Actors",
        "",
        *(f"- **{ACTOR_TITLES[a]}**: {ACTOR_NOTES[a]}" for a in ACTORS),
        "",
        "## Cells",
        "",
        *(f"- `{code}`: {text}" for code, text in LEGEND.items()),
        "",
        "A refused request, and any request of a row not marked *writes*, is",
        "checked to write nothing: every row of the app's tables, the users and",
        "the groups is the same before and after. An allowed request of a row",
        "marked *writes* is checked to write. Each actor starts from the same",
        "world: series 1 released (table 1 digital, with a finished game; table 2",
        "with a player's entry waiting for another player's confirmation; table 3",
        "with a referee's pending one), series 2 seated but not released, series",
        "3 a draft; entry at the table on (one other player confirms); beside it",
        "another tournament, a season ranking over both, a person who played both,",
        "and a registration waiting for the organizer's review of persons.",
        "",
        "## HTTP",
        "",
        head + " | path, notes |",
        rule + "---|",
    ]
    for row in ROUTES:
        notes = [f"`/{routes[row.name]}`"] if row.name in routes else []
        if row.query:
            notes.append(f"`?{row.query}`")
        if row.writes:
            notes.append("*writes*")
        if row.note:
            notes.append(row.note)
        cells = " | ".join(row.codes()[a] for a in ACTORS)
        lines.append(f"| `{row.name}` | {row.method} | {cells} | {', '.join(notes)} |")
    lines += [
        "",
        "## Websockets",
        "",
        "| route | " + " | ".join(ACTOR_TITLES[a] for a in ACTORS) + " | notes |",
        "|---|" + "---|" * len(ACTORS) + "---|",
    ]
    for ws in WS_ROUTES:
        cells = " | ".join(ws.codes()[a] for a in ACTORS)
        lines.append(f"| `/{ws.pattern}` | {cells} | {ws.note} |")
    lines += ["", "## Not in the table", ""]
    lines += [f"- `{rule}`: {reason}" for rule, reason in EXCLUDED.items()]
    return "\n".join(lines) + "\n"


def test_the_document_is_the_table():
    text = render_doc()
    if os.environ.get("UPDATE_PERMISSIONS_DOC") == "1":
        DOC.write_text(text, encoding="utf-8")
    assert DOC.is_file(), (
        "run with UPDATE_PERMISSIONS_DOC=1 to write docs/PERMISSIONS.md"
    )
    assert DOC.read_text(encoding="utf-8") == text, (
        "docs/PERMISSIONS.md is out of date: run with UPDATE_PERMISSIONS_DOC=1"
    )
