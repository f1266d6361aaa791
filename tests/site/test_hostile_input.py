"""Hostile input (issue 9): random and malicious values thrown at every view
that takes input – forms, uploads, the JSON API, query strings and path
parameters. Whatever comes in, the answer is a page with an error, a
redirect with a message or a 4xx – never a 500 – and a refused input writes
nothing: the row count of every model of the app (the audit trail too) is
the same before and after."""

import io
import re
import zipfile
from contextlib import contextmanager
from types import SimpleNamespace
from urllib.parse import quote

import pytest
from django.apps import apps
from django.contrib import messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import example, given
from hypothesis import strategies as st

from tests.support.factories import (
    EntryFactory,
    TeamFactory,
    make_series,
    make_user,
)
from tests.support.hostile import hostile
from tests.support.results import FIVE
from tests.support.workbooks import (
    GAMES_HEADER,
    PLAYER_HEADER,
    import_confirmation,
    xlsx,
)
from tournament.models import Table
from tournament.paper.views import DOCUMENTS
from tournament.registration.services import entry_withdraw
from tournament.results.services import result_enter
from tournament.seating.services import series_ensure
from tournament.tableentry.services import result_enter_by_player
from tournament.tournaments.forms import TournamentForm

pytestmark = pytest.mark.django_db

HOSTILE = hostile(max_examples=15)
FEW = hostile(max_examples=8)

# --- Hostile values ----------------------------------------------------------

INJECTIONS = [
    "'; DROP TABLE tournament_entry; --",
    "' OR '1'='1",
    "1; SELECT pg_sleep(10)--",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    "{{ settings.SECRET_KEY }}",
    "{% debug %}",
    "%(name)s %s %d %n",
    "../../../../etc/passwd",
    "\x00",
    "a\x00b",
    "\x1b[31mrot",
    "zeile\r\nSet-Cookie: x=1",
    "\u202eevil",
    "\ufeff",
    "\u200b",
    "Z\u0351\u0363a\u0364l\u0337g\u0489o",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🂡",
    "ß" * 300,
    "²",
    "١٢",
    "１２",
    "½",
    "Ⅻ",
    "1e9",
    "0x10",
    "1_000",
    " 7 ",
    "+3",
    "-0",
    "--5",
    "NaN",
    "inf",
    "None",
    "null",
    "true",
    "[]",
    "{}",
]
NUMBERS = st.one_of(
    st.integers(),
    st.sampled_from([0, -1, 2**15, 2**31, 2**63, -(2**63) - 1, 2**64, 10**30]),
).map(str)
HUGE = st.sampled_from(["x" * 100_000, "9" * 5000, "é" * 20_000, "<" * 30_000])
SCALAR = st.one_of(
    st.text(max_size=30),
    st.sampled_from(INJECTIONS),
    NUMBERS,
    st.floats().map(str),
    HUGE,
)
# A list where a scalar is expected: the test client sends a key per value.
VALUE = st.one_of(SCALAR, st.lists(SCALAR, min_size=2, max_size=3))


def field(*plausible: str) -> st.SearchStrategy:
    """A form field's value: sometimes one that almost works (so the input
    gets past the form into the service), mostly anything."""
    if not plausible:
        return VALUE
    return st.one_of(st.sampled_from(plausible), VALUE)


def form(**fields: st.SearchStrategy) -> st.SearchStrategy:
    """POST data with any of the fields (each may be missing), plus keys
    nobody asked for."""
    return st.builds(
        lambda given, extra: {**extra, **given},
        st.fixed_dictionaries({}, optional=fields),
        st.dictionaries(st.text(max_size=10), VALUE, max_size=2),
    )


# --- Counting rows -----------------------------------------------------------


def row_counts() -> dict[str, int]:
    """Rows per model of the app (AuditEvent and the digital tables too)."""
    return {
        model._meta.label: model._base_manager.count()
        for model in apps.get_app_config("tournament").get_models()
    }


@contextmanager
def one_example():
    """Every example starts from the same rows: whatever an accepted input
    wrote is rolled back before the next."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def _errors(response) -> list[str]:
    """The error messages this request queued (not older ones)."""
    storage = getattr(response.wsgi_request, "_messages", None)
    queued = getattr(storage, "_queued_messages", [])
    return [str(m) for m in queued if m.level >= messages.ERROR]


def refused(response) -> bool:
    """A 4xx, a form shown again (200 to a POST, or JSON not "ok"), or a
    redirect with an error message."""
    status = response.status_code
    if status >= 400:
        return True
    if response.wsgi_request.method == "POST" and status == 200:
        # A JSON answer (the outbox's) says itself whether it was taken.
        if response.get("Content-Type") == "application/json":
            return response.json().get("ok") is not True
        return True
    return status in (301, 302, 303) and bool(_errors(response))


def request(client, verb: str, path: str, *, writes: bool = True, **kwargs):
    """One hostile request: never a 500; a refused one (or one that may
    not write at all) leaves every row count as it was."""
    before = row_counts()
    if verb == "generic":
        response = client.generic(kwargs.pop("method"), path, **kwargs)
    else:
        response = getattr(client, verb)(path, **kwargs)
    assert response.status_code < 500, (verb, path)
    if refused(response) or not writes:
        assert row_counts() == before, (verb, path, response.status_code)
    return response


def send(client, verb: str, path: str, **kwargs):
    """`request`, rolled back afterwards."""
    with one_example():
        return request(client, verb, path, **kwargs)


# --- The world the requests land in ------------------------------------------


@pytest.fixture
def world(tournament, organizer, referee):
    """A running tournament: series 1 released with two tables of four, a
    result waiting at table 1, a team, a withdrawn player, series 2–5 as
    drafts. Clients of an organizer, a referee, a signed-in user without a
    role and an anonymous visitor."""
    series = make_series(tournament, sizes=(4, 4))
    late = [EntryFactory(tournament=tournament, start_number=n) for n in (9, 10, 11)]
    entry_withdraw(actor=organizer, entry=late[-1], reason="krank")
    team = TeamFactory(tournament=tournament, name="Daun 1")
    series_ensure(tournament=tournament)
    table = Table.objects.get(series=series, number=1)
    version = result_enter(
        actor=referee,
        table=table,
        games=FIVE,
        mode="quick",
        revision=table.result_revision,
    )
    clients = {}
    for name, user in (("organizer", organizer), ("referee", referee)):
        clients[name] = Client()
        clients[name].force_login(user)
    clients["anonymous"] = Client()
    stranger = make_user("fremd")
    clients["stranger"] = Client()
    clients["stranger"].force_login(stranger)
    return SimpleNamespace(
        tournament=tournament,
        slug=tournament.slug,
        series=series,
        table=table,
        version=version,
        team=team,
        **clients,
    )


def url(name: str, **kwargs) -> str:
    return reverse(f"tournament:{name}", kwargs=kwargs)


# --- Forms -------------------------------------------------------------------

TOURNAMENT_VALUES = {
    "name": ("Rheinland-Meisterschaft",),
    "slug": ("rm-2027", "rm-test", "RM 2027", "rm/2027"),
    "date": ("2027-12-04", "2027-02-30", "0000-00-00", "99999-01-01", "-1-01-01"),
    "rule_preset": ("championship", "schroem", "skat"),
    "series_count": ("5", "0", "11", "32768"),
    "games_per_series": ("5", "0", "11"),
    "start_marks": ("7", "0", "16"),
    "win_bonus": ("7", "51", "-1"),
    "status": ("planned", "running", "aborted"),
    "double_entry": ("on", ""),
    "table_entry": ("off", "one", "all", "every", ""),
    "show_provisional": ("on",),
    "referees": ("1", "2", "999999"),
}


def tournament_form() -> st.SearchStrategy:
    names = list(TournamentForm().fields)
    return form(**{n: field(*TOURNAMENT_VALUES.get(n, ())) for n in names})


@HOSTILE
@given(data=tournament_form(), edit=st.booleans())
@example(data={"name": "\x00", "slug": "a", "date": "2027-01-01"}, edit=False)
@example(data={"series_count": ["1", "2"], "date": ["x", "y"]}, edit=True)
def test_tournament_form(world, data, edit):
    path = url("tournament_edit", slug=world.slug) if edit else url("tournament_create")
    send(world.organizer, "post", path, data=data)


ENTRY = {
    "start_number": field("12", "1", "0", "100000", "-5"),
    "first_name": field("Anna"),
    "last_name": field("Thelen"),
    "club": field("KSC Mayen"),
    "town": field("Mayen"),
    "category": field("open", "ladies", "youth", "herren"),
    "confirm_duplicate": field("on"),
}


@HOSTILE
@given(data=form(**ENTRY), number=st.sampled_from([None, 1, 9]))
@example(data={"first_name": "Anna\x00", "last_name": "Thelen"}, number=None)
@example(data={"first_name": "A", "last_name": "B", "start_number": "²"}, number=1)
def test_registration_form(world, data, number):
    path = (
        url("entry_create", slug=world.slug)
        if number is None
        else url("entry_edit", slug=world.slug, number=number)
    )
    send(world.organizer, "post", path, data=data)


@HOSTILE
@given(
    action=st.sampled_from(["entry_check_in", "entry_withdraw", "entry_reinstate"]),
    data=form(
        checked_in=field("1", "0"),
        reason=field("krank"),
        next=field("/", "//evil.example/"),
    ),
    number=st.sampled_from([1, 9, 11]),
)
def test_desk_actions(world, action, data, number):
    path = url(action, slug=world.slug, number=number)
    response = send(world.organizer, "post", path, data=data)
    if response.status_code in (301, 302):
        assert not response["Location"].startswith(("//", "http")), "open redirect"


@HOSTILE
@given(
    data=form(
        name=field("Mayen 2", "Daun 1"),
        # "@k": the id of the k-th entry (the 11th is withdrawn).
        members=st.one_of(
            st.lists(st.integers(0, 10).map("@{}".format), max_size=6),
            VALUE,
        ),
    ),
    edit=st.booleans(),
)
@example(data={"name": "X", "members": ["1", "2", "3", "4", "5"]}, edit=False)
@example(data={"name": "X", "members": ["9" * 30]}, edit=False)
@example(data={"name": "X", "members": ["1", "\x00"]}, edit=True)
def test_team_form(world, data, edit):
    ids = list(world.tournament.entries.order_by("start_number").values_list("pk"))

    def entry_id(member):
        found = re.fullmatch(r"@(\d{1,2})", str(member))
        return str(ids[int(found[1])][0]) if found and int(found[1]) < 11 else member

    if isinstance(data.get("members"), list):
        data["members"] = [entry_id(m) for m in data["members"]]
    path = (
        url("team_edit", slug=world.slug, team_id=world.team.pk)
        if edit
        else url("team_create", slug=world.slug)
    )
    send(world.organizer, "post", path, data=data)


SHEET_TOKENS = st.sampled_from(
    [
        "3",
        "G1",
        "g3",
        "P2:1",
        "S4:1",
        "s1:9",
        "X2:1",
        "W1",
        "W4",
        "F2:1",
        "F4:2",
        "P3:1",
        "w2",
        "f1:1",
        "W9",
        "F2",
        "7",
        "0",
        "9" * 5000,
        "W" + "9" * 30,
        "F2:" + "9" * 30,
        "P1:" + "9" * 4400,
        "٣",
        "W١",
        "F٢:١",
        "x",
        "W-1",
        "F:1",
        "W1:2",
    ]
)
SHEET_LINE = st.lists(SHEET_TOKENS, max_size=5).map(" ".join)
HANDS = st.one_of(
    st.lists(SHEET_LINE, max_size=8).map("\n".join),
    st.just("\n".join(["3 W1 F2:1 F4:2"] * 200)),
    VALUE,
)


def result_form() -> st.SearchStrategy:
    games = {}
    for g in range(1, 6):
        games[f"g{g}_winner"] = field("1", "2", "4", "5", "0")
        games[f"g{g}_marks"] = field("1", "7", "8", "0")
        games[f"g{g}_hands"] = st.one_of(HANDS, field())
    return form(
        mode=field("quick", "sheet", "import", "digital"),
        revision=field("1", "0", "2"),
        reason=field("Tippfehler"),
        **games,
    )


@HOSTILE
@given(data=result_form(), table=st.sampled_from([1, 2]))
@example(
    data={
        "mode": "sheet",
        "revision": "1",
        **{f"g{g}_hands": "9" * 5000 for g in (1,)},
    },
    table=1,
)
@example(
    data={"mode": "sheet", "revision": "0", "g1_hands": "3 W1 F2:99999999999999999999"},
    table=2,
)
@example(data={"mode": "quick", "revision": "0", "g1_winner": ["1", "2"]}, table=2)
def test_result_entry_quick_and_sheet(world, data, table):
    path = url("table_result", slug=world.slug, series=1, table=table)
    send(world.referee, "post", path, data=data)


@HOSTILE
@given(
    decision=st.sampled_from(["result_confirm", "result_reject"]),
    data=form(
        version=field("1", "2", "0", str(2**63)),
        revision=field("1", "0", str(2**63)),
        reason=field("falsch"),
    ),
    table=st.sampled_from([1, 2]),
)
@example(
    decision="result_confirm", data={"version": "1", "revision": "9" * 30}, table=1
)
@example(
    decision="result_reject", data={"version": str(2**64), "revision": "1"}, table=1
)
def test_confirm_and_reject(world, decision, data, table):
    path = url(decision, slug=world.slug, series=1, table=table)
    send(world.organizer, "post", path, data=data)


# --- Entry at the table: a player's link (issue 16.5) ------------------------


@pytest.fixture
def players(world):
    """`world` with entry at the table on: table 1 (start numbers 1–4) has
    a referee's waiting result, table 2 (5–8) a waiting entry of its player
    6; the links of player 5 (table 2) and player 1 (table 1), and a phone
    holding none."""
    tournament = world.tournament
    tournament.table_entry = "one"
    tournament.save(update_fields=["table_entry"])
    entries = {e.start_number: e for e in tournament.entries.all()}
    table2 = Table.objects.get(series=world.series, number=2)
    result_enter_by_player(
        player=entries[6], table=table2, games=FIVE, mode="quick", revision=None
    )
    world.links = {"here": entries[5].link_token, "other": entries[1].link_token}
    world.phone = Client()
    return world


def mine_url(world, name, who, table=2):
    return url(name, slug=world.slug, token=world.links[who], series=1, table=table)


JSON_OR_FORM = st.sampled_from([{}, {"HTTP_ACCEPT": "application/json"}])


@HOSTILE
@given(
    data=result_form(),
    who=st.sampled_from(["here", "other"]),
    accept=JSON_OR_FORM,
)
@example(
    data={"mode": "quick", "revision": "1", "g1_winner": ["1", "2"]},
    who="here",
    accept={},
)
@example(
    data={"mode": "sheet", "revision": "1", "g1_hands": "3 W1 F2:99999999999999999999"},
    who="here",
    accept={"HTTP_ACCEPT": "application/json"},
)
def test_a_players_entry(players, data, who, accept):
    """The referees' form fields, sent through a player's link: a page or
    JSON with every mistake, a refusal for a player of another table,
    never a 500, nothing written when refused."""
    response = send(
        players.phone, "post", mine_url(players, "mine_enter", who), data=data, **accept
    )
    if who == "other":
        assert response.status_code == 403
    if accept and response.status_code != 302:
        assert response["Content-Type"] == "application/json"
        assert response.json()["ok"] is (response.status_code == 200)


@HOSTILE
@given(
    name=st.sampled_from(["mine_confirm", "mine_reject"]),
    data=form(version=field("1", "2", "0", str(2**63)), reason=field("falsch")),
    who=st.sampled_from(["here", "other"]),
    table=st.sampled_from([1, 2, 3, 2**15, 2**63]),
    accept=JSON_OR_FORM,
)
@example(
    name="mine_confirm", data={"version": str(2**64)}, who="here", table=2, accept={}
)
@example(  # the waiting entry confirmed, answered in JSON: taken, not refused
    name="mine_confirm",
    data={"version": "1"},
    who="here",
    table=2,
    accept={"HTTP_ACCEPT": "application/json"},
)
@example(
    name="mine_reject",
    data={"version": "1", "reason": "x" * 301},
    who="here",
    table=2,
    accept={},
)
@example(
    name="mine_reject",
    data={"version": "1", "reason": "\x00"},
    who="here",
    table=2,
    accept={},
)
def test_a_players_answers(players, name, data, who, table, accept):
    send(
        players.phone, "post", mine_url(players, name, who, table), data=data, **accept
    )


LINKS = st.one_of(
    st.text(max_size=70),
    st.from_regex(r"\A[A-Za-z0-9_-]{20,64}\Z"),
    st.sampled_from(INJECTIONS),
)


@HOSTILE
@given(token=LINKS, query=st.deferred(lambda: QUERY), accept=JSON_OR_FORM)
def test_made_up_links_are_404_and_write_nothing(players, token, query, accept):
    quoted = quote(token, safe="") or "x"
    for path in (
        f"/t/{players.slug}/mein/{quoted}/",
        f"/t/{players.slug}/mein/{quoted}/serie/1/tisch/2/eingeben/",
        f"/t/{players.slug}/mein/{quoted}/serie/1/tisch/2/stimmt-nicht/",
    ):
        response = send(players.phone, "get", path, data=query, writes=False, **accept)
        assert response.status_code in (404, 429), path
    response = send(
        players.phone,
        "post",
        f"/t/{players.slug}/mein/{quoted}/serie/1/tisch/2/stimmt/",
        data={"version": "1"},
        **accept,
    )
    assert response.status_code in (404, 429)


@FEW
@given(
    link=st.one_of(st.text(max_size=300), st.sampled_from(INJECTIONS)), table=NUMBERS
)
def test_the_link_typed_in_and_the_table_page(players, link, table):
    send(
        players.phone,
        "get",
        url("mine_start", slug=players.slug),
        data={"link": link},
        writes=False,
    )
    path = (
        f"/t/{players.slug}/tisch/{table}/"
        if table.isdecimal()
        else f"/t/{players.slug}/tisch/1/"
    )
    send(players.phone, "get", path, writes=False)


@HOSTILE
@given(
    action=st.sampled_from(["series_swap", "series_seat", "series_release"]),
    data=form(
        version=field("0", "1", "-1", str(2**63)),
        a=field("1", "5", "9", "99999"),
        b=field("2", "6", "10", "0"),
        new_lot=field("1"),
    ),
    number=st.sampled_from([1, 2]),
)
@example(action="series_swap", data={"version": "0", "a": "1", "b": "1"}, number=1)
@example(action="series_swap", data={"version": "0", "a": "9" * 30, "b": "1"}, number=1)
def test_seating_forms(world, action, data, number):
    path = url(action, slug=world.slug, number=number)
    send(world.organizer, "post", path, data=data)


@HOSTILE
@given(
    data=form(
        method=field("lot", "playoff", "coin"),
        numbers=st.one_of(
            st.lists(st.sampled_from(["1", "2", "3", "99", "1" * 30, "²", "-1"])).map(
                ",".join
            ),
            field("1,2", "1;2", "1 2", "1,,2", "1,1"),
        ),
        note=field("Stechen"),
    ),
)
@example(data={"method": "lot", "numbers": "1," + "9" * 199})
@example(data={"method": "playoff", "numbers": "²,1"})
@example(data={"method": "lot", "numbers": "1," + "9" * 30})
@example(data={"method": "lot", "numbers": "-1,1"})
def test_tiebreak_form(world, data):
    send(world.organizer, "post", url("tiebreaks", slug=world.slug), data=data)


@FEW
@given(
    path_name=st.sampled_from(["paper_download", "paper_job_start"]),
    data=form(
        document=field(*DOCUMENTS, "coffee", "pdf", "xlsx "),
        series=field("1", "11", "0"),
        filled=field("on"),
        top=field("1000000", "-1"),
    ),
)
def test_paper_forms(world, path_name, data):
    # Only refused forms: a valid one would render a PDF or start a job, so
    # a real document always comes with an impossible number of places.
    document = data.get("document")
    if set(document if isinstance(document, list) else [document]) & set(DOCUMENTS):
        data = {**data, "top": "0"}
    method = "get" if path_name == "paper_download" else "post"
    response = send(world.organizer, method, url(path_name, slug=world.slug), data=data)
    assert response.status_code == 302 and _errors(response)


@pytest.mark.parametrize(
    "name", ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>']
)
def test_injected_names_are_shown_as_text(world, name):
    """A name that is markup is accepted (it is only text) and every page
    shows it escaped."""
    response = world.organizer.post(
        url("entry_create", slug=world.slug),
        {"first_name": name, "last_name": name, "club": name, "category": "open"},
    )
    assert response.status_code == 302
    number = world.tournament.entries.get(player__first_name=name).start_number
    for path in (
        url("entry_list", slug=world.slug),
        url("entry_edit", slug=world.slug, number=number),
        url("player", slug=world.slug, number=number),
        url("standings", slug=world.slug) + "?q=" + name,
        url("where", slug=world.slug) + "?q=" + name,
    ):
        html = world.organizer.get(path).content.decode()
        assert name not in html, path
        assert "<script>alert" not in html and "<img src=x" not in html, path
    # The API gives the text as it is, as JSON that no browser renders.
    response = world.anonymous.get(url("api_players", slug=world.slug))
    assert response["Content-Type"] == "application/json"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert name in [p["club"] for p in response.json()["players"]]


@FEW
@given(data=form(username=field("orga", "admin"), password=field("pw"), next=field()))
@example(data={"username": "x" * 300, "password": "pw"})
@example(data={"username": "orga" + "\x00", "password": "pw"})
def test_login_form(world, data):
    send(Client(), "post", reverse("login"), data=data)


# --- Uploads -----------------------------------------------------------------


CELL = st.one_of(
    st.none(),
    st.integers(min_value=-(2**70), max_value=2**70).filter(
        lambda n: abs(n) < 2**53 or n % 2 == 0
    ),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.text(max_size=20).map(lambda t: re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", t)),
    st.sampled_from(
        ["_x0000_", "A_x0000_B", "=1+1", "=cmd|' /C calc'!A0", "1e308", "--5", "²"]
        + [i for i in INJECTIONS if not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", i)]
    ),
)


@st.composite
def workbooks(draw, header) -> bytes:
    """A real workbook: the header (perhaps shuffled or cut), hostile rows."""
    head = list(header)
    if draw(st.booleans()):
        head = draw(st.permutations(head))[: draw(st.integers(1, len(head)))]
    rows = draw(st.lists(st.lists(CELL, max_size=len(head) + 2), max_size=6))
    if draw(st.booleans()):  # some rows that are nearly right
        rows += [
            [1, 1, g, s, s, "X", 0 if s > 1 else 5, None]
            for g in (1, 2)
            for s in (1, 2)
        ]
    return xlsx([head, *rows], title=draw(st.sampled_from(["Spiele", "Games", "x"])))


def truncated(content: bytes, at: int) -> bytes:
    return content[: at % max(len(content), 1)]


def zip_bomb(unpacked: int) -> bytes:
    """A workbook whose sheet unpacks to `unpacked` bytes of blank rows."""
    real = xlsx([[1, "Anna", "Thelen"]], header=PLAYER_HEADER, title="Tabelle1")
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(real)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                filler = b"<row/>" * (unpacked // 6)
                data = data.replace(b"<sheetData>", b"<sheetData>" + filler, 1)
            target.writestr(item, data, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


UPLOAD_NAMES = st.sampled_from(
    [
        "spieler.xlsx",
        "SPIELE.XLSX",
        "x.xlsm",
        "x.xls",
        "x.csv",
        "x",
        ".xlsx",
        "../../x.xlsx",
        "a\x00.xlsx",
        "ä" * 300 + ".xlsx",
        "x.xlsx.exe",
    ]
)
CONTENT_TYPES = st.sampled_from(
    [
        "application/octet-stream",
        "text/html",
        "image/png",
        "application/zip",
        "",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]
)


XLSX_PARTS = [
    "[Content_Types].xml",
    "_rels/.rels",
    "xl/workbook.xml",
    "xl/_rels/workbook.xml.rels",
    "xl/worksheets/sheet1.xml",
    "xl/styles.xml",
    "docProps/app.xml",
]


@st.composite
def mangled(draw, header) -> bytes:
    """A real workbook with one part of the zip changed: bytes replaced,
    cut off, or the part left out."""
    content = draw(workbooks(header))
    part = draw(st.sampled_from(XLSX_PARTS))
    how = draw(st.sampled_from(["replace", "cut", "drop", "junk"]))
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(content)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == part:
                if how == "drop":
                    continue
                at = draw(st.integers(0, max(len(data) - 1, 0)))
                if how == "cut":
                    data = data[:at]
                elif how == "replace":
                    data = (
                        data[:at]
                        + draw(st.binary(min_size=1, max_size=8))
                        + data[at + 8 :]
                    )
                else:
                    data = (
                        data[:at]
                        + draw(
                            st.sampled_from(
                                [
                                    b"<",
                                    b"&",
                                    b"]]>",
                                    b"<x>",
                                    b'"',
                                    b"\x00",
                                    b'<c r="ZZZZ1"/>',
                                ]
                            )
                        )
                        + data[at:]
                    )
            target.writestr(item, data)
    return out.getvalue()


def uploads(header) -> st.SearchStrategy:
    real = workbooks(header)
    return st.one_of(
        st.binary(max_size=2000),
        real,
        mangled(header),
        st.builds(truncated, real, st.integers(0, 10_000)),
        st.just(b"PK\x03\x04" + b"\x00" * 100),
        st.just(b"PK\x05\x06" + b"\x00" * 18),
    )


def _upload(client, path, content, name, content_type, extra):
    file = SimpleUploadedFile(name, content, content_type=content_type)
    return send(client, "post", path, data={**extra, "file": file}, writes=False)


@HOSTILE
@given(
    content=uploads(PLAYER_HEADER),
    name=UPLOAD_NAMES,
    content_type=CONTENT_TYPES,
    extra=form(token=field()),
)
def test_player_import_upload(world, content, name, content_type, extra):
    path = url("import_upload", slug=world.slug)
    _upload(world.organizer, path, content, name, content_type, extra)


@HOSTILE
@given(
    content=uploads(GAMES_HEADER),
    name=UPLOAD_NAMES,
    content_type=CONTENT_TYPES,
    extra=form(token=field()),
)
def test_games_import_upload(world, content, name, content_type, extra):
    path = url("games_import", slug=world.slug)
    _upload(world.organizer, path, content, name, content_type, extra)


@pytest.mark.parametrize("name", ["import_upload", "games_import"])
def test_a_zip_bomb_is_refused_unpacked(world, name, settings):
    settings.IMPORT_MAX_UNPACKED_BYTES = 4 * 1024 * 1024
    content = zip_bomb(3 * settings.IMPORT_MAX_UNPACKED_BYTES)
    assert len(content) < settings.IMPORT_MAX_BYTES // 100
    response = send(
        world.organizer,
        "post",
        url(name, slug=world.slug),
        data={"file": SimpleUploadedFile("bombe.xlsx", content)},
        writes=False,
    )
    assert response.status_code == 200
    assert "zu groß" in response.content.decode()


@pytest.mark.parametrize("name", ["import_upload", "games_import"])
def test_an_upload_larger_than_allowed_is_refused_unread(world, name, settings):
    settings.IMPORT_MAX_BYTES = 1024
    response = send(
        world.organizer,
        "post",
        url(name, slug=world.slug),
        data={"file": SimpleUploadedFile("gross.xlsx", b"PK" + b"\x00" * 4096)},
        writes=False,
    )
    assert "zu groß" in response.content.decode()


@HOSTILE
@given(rows=st.lists(st.lists(CELL, min_size=3, max_size=6), min_size=1, max_size=4))
@example(rows=[[10**30, "Anna", "Thelen"]])
@example(rows=[[100_000, "Anna", "Thelen"]])
@example(rows=[["²", "Anna", "Thelen"]])
@example(rows=[[1, "A" * 101, "Thelen"]])
def test_player_import_through_confirmation(world, rows):
    """Rows that pass the preview are imported on confirmation; nothing on
    the way is a 500 (a row the preview let through must import)."""
    content = xlsx(rows, header=PLAYER_HEADER, title="Tabelle1")
    file = SimpleUploadedFile("spieler.xlsx", content)
    with one_example():
        response = request(
            world.organizer,
            "post",
            url("import_upload", slug=world.slug),
            data={"file": file},
            writes=False,
        )
        token = response.context["token"]
        if token:
            response = request(
                world.organizer,
                "post",
                url("import_confirm", slug=world.slug),
                data=import_confirmation(response),
            )
            assert not _errors(response), _errors(response)


@HOSTILE
@given(
    name=st.sampled_from(["import_confirm", "games_import_confirm"]),
    data=form(token=field("", "ABC", "abc ", " abc", "None")),
    pending=st.sampled_from([None, "this tournament", "other tournament"]),
)
def test_import_confirmations_without_a_valid_preview(world, name, data, pending):
    """Confirming needs the token of this tournament's preview in the
    session (here "abc"); anything else is refused."""
    client = world.organizer
    key = "player_import" if name == "import_confirm" else "games_import"
    stored = client.session
    stored.pop(key, None)
    if pending is not None:
        stored[key] = {
            "token": "abc",
            "tournament": world.tournament.pk + (pending == "other tournament"),
            "rows": [],
            "tables": [],
            "filename": "x.xlsx",
        }
    stored.save()
    token = data.get("token")
    if "abc" in (token if isinstance(token, list) else [token]):
        data = {**data, "token": "ABC"}  # the one right token: not here
    response = send(client, "post", url(name, slug=world.slug), data=data)
    assert refused(response)


# --- Raw bodies, content types, too many fields --------------------------------


POST_PATHS = [
    ("organizer", "tournament_create", {}),
    ("organizer", "tournament_edit", {}),
    ("organizer", "entry_create", {}),
    ("organizer", "entry_edit", {"number": 1}),
    ("organizer", "entry_check_in", {"number": 1}),
    ("organizer", "entry_withdraw", {"number": 1}),
    ("organizer", "team_create", {}),
    ("organizer", "team_delete", {"team_id": 0}),
    ("organizer", "series_swap", {"number": 1}),
    ("organizer", "series_release", {"number": 2}),
    ("organizer", "tiebreaks", {}),
    ("organizer", "import_upload", {}),
    ("organizer", "import_confirm", {}),
    ("organizer", "games_import", {}),
    ("organizer", "games_import_confirm", {}),
    ("organizer", "paper_job_start", {}),
    ("referee", "table_result", {"series": 1, "table": 1}),
    ("organizer", "result_confirm", {"series": 1, "table": 1}),
    ("organizer", "result_reject", {"series": 1, "table": 1}),
    ("organizer", "entry_link_renew", {"number": 1}),
]


def _path(name, kwargs, slug):
    if name == "tournament_create":
        return url(name)
    return url(name, slug=slug, **kwargs)


@HOSTILE
@given(
    target=st.sampled_from(POST_PATHS),
    body=st.one_of(
        st.binary(max_size=500),
        st.text(max_size=200).map(str.encode),
        st.sampled_from(
            [
                b'{"first_name": "Anna", "last_name": "Thelen"}',
                b"[1, 2, 3]",
                b"a=1&a=2&%zz=%ff&\xff\xfe=1",
                b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n',
                b"--x--",
            ]
        ),
    ),
    content_type=st.sampled_from(
        [
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/x-www-form-urlencoded; charset=latin-1",
            "application/x-www-form-urlencoded; charset=nonsense",
            "multipart/form-data",
            "multipart/form-data; boundary=x",
            "multipart/form-data; boundary=",
            "application/xml",
            "",
        ]
    ),
)
def test_raw_bodies_of_any_content_type(world, target, body, content_type):
    role, name, kwargs = target
    if name == "team_delete":
        kwargs = {"team_id": world.team.pk}
    path = _path(name, kwargs, world.slug)
    client = getattr(world, role)
    # generic(): the body goes out as it is, whatever charset the type names.
    send(client, "generic", path, method="POST", data=body, content_type=content_type)


def test_too_many_fields_and_too_large_bodies(world):
    many = "&".join(f"f{i}=1" for i in range(1500))
    big = b"first_name=" + b"A" * (11 * 1024 * 1024)
    for role, name, kwargs in POST_PATHS[:4]:
        path = _path(name, kwargs, world.slug)
        for body in (many, big) if name == "entry_create" else (many,):
            response = send(
                getattr(world, role),
                "post",
                path,
                data=body,
                content_type="application/x-www-form-urlencoded",
            )
            assert response.status_code == 400, name


# --- Roles: nobody but the right people gets anywhere -------------------------


@FEW
@given(target=st.sampled_from(POST_PATHS), data=form(a=field(), version=field("1")))
def test_strangers_and_visitors_get_nowhere(world, target, data):
    role, name, kwargs = target
    if name == "team_delete":
        kwargs = {"team_id": world.team.pk}
    path = _path(name, kwargs, world.slug)
    for client in (world.anonymous, world.stranger):
        response = send(client, "post", path, data=data, writes=False)
        assert response.status_code in (302, 403), (name, response.status_code)
    if role == "organizer":
        response = send(world.referee, "post", path, data=data, writes=False)
        assert response.status_code in (302, 403), (name, response.status_code)


# --- Query strings, headers and path parameters ---------------------------------


def get_paths(slug):
    return [
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/wo-sitze-ich/",
        f"/t/{slug}/tabelle/",
        f"/t/{slug}/tabelle/damen/",
        f"/t/{slug}/tabelle/mannschaften/",
        f"/t/{slug}/serie/1/",
        f"/t/{slug}/serie/1/ergebnisse/",
        f"/t/{slug}/spieler/1/",
        f"/t/{slug}/projektor/",
        f"/t/{slug}/live/standings/",
        f"/t/{slug}/live/seating/",
        f"/t/{slug}/live/results/",
        f"/t/{slug}/live/where/",
        f"/t/{slug}/live/progress/",
        f"/t/{slug}/live/progress-public/",
        f"/t/{slug}/live/seating-names/",
        f"/t/{slug}/eingabe/",
        f"/t/{slug}/eingabe/serie/1/tisch/1/",
        f"/t/{slug}/verwaltung/",
        f"/t/{slug}/verwaltung/spieler/",
        f"/t/{slug}/verwaltung/serien/",
        f"/t/{slug}/verwaltung/serie/1/",
        f"/t/{slug}/verwaltung/protokoll/",
        f"/t/{slug}/verwaltung/gleichstand/",
        f"/t/{slug}/verwaltung/druck/",
        f"/api/t/{slug}/standings/",
        f"/api/t/{slug}/series/",
        f"/api/t/{slug}/series/1/",
        f"/api/t/{slug}/players/",
        f"/api/t/{slug}/players/1/",
    ]


QUERY_KEYS = st.sampled_from(
    [
        "q",
        "sort",
        "view",
        "series",
        "slide",
        "page",
        "per_page",
        "action",
        "actor",
        "next",
        "lang",
        "format",
        "number",
        "since",
        "until",
        "text",
        "type",
    ]
)
QUERY = st.dictionaries(
    st.one_of(QUERY_KEYS, st.text(max_size=8)),
    st.one_of(
        field("1", "0", "-1", "²", "٣", "10", "11", "name", "-points", "ladies"),
        st.lists(field("1", "x"), min_size=2, max_size=3),
    ),
    max_size=4,
)
HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "If-None-Match": field('"abc"', "*", 'W/"x"'),
        "If-Modified-Since": field("Wed, 21 Oct 2015 07:28:00 GMT", "gestern"),
        "Accept-Language": field("en", "de-DE,de;q=0.9", "xx"),
        "Cookie": field("django_language=en", "django_language=\x00"),
        "Range": field("bytes=0-1"),
    },
).map(lambda h: {k: v if isinstance(v, str) else v[0] for k, v in h.items()})


def _header_safe(value: str) -> str:
    """A header as a server hands it on: one line of bytes, read as latin-1
    (PEP 3333), whatever UTF-8 the client sent."""
    line = value.replace("\r", "").replace("\n", "")[:2000]
    return line.encode("utf-8", "surrogatepass").decode("latin-1")


@HOSTILE
@given(
    index=st.integers(0, 30),
    query=QUERY,
    headers=HEADERS,
    who=st.sampled_from(["anonymous", "organizer"]),
)
@example(index=3, query={"q": "²"}, headers={}, who="anonymous")
@example(index=2, query={"q": "²"}, headers={}, who="anonymous")
@example(index=20, query={"q": "²"}, headers={}, who="organizer")
@example(index=11, query={"series": "²"}, headers={}, who="anonymous")
@example(index=11, query={"series": "9" * 5000}, headers={}, who="anonymous")
@example(index=10, query={"q": "9" * 5000}, headers={}, who="anonymous")
@example(index=20, query={"q": "\x00"}, headers={}, who="organizer")
@example(
    index=23, query={"actor": "\x00", "action": "\x00"}, headers={}, who="organizer"
)
def test_query_strings_and_headers_on_every_page(world, index, query, headers, who):
    path = get_paths(world.slug)[index]
    headers = {k: _header_safe(v) for k, v in headers.items()}
    send(getattr(world, who), "get", path, data=query, headers=headers, writes=False)


@FEW
@given(
    slug=st.one_of(st.from_regex(r"\A[-a-zA-Z0-9_]{1,80}\Z"), st.just("rm-test")),
    number=st.one_of(
        st.integers(min_value=0),
        st.sampled_from([0, 2**31, 2**63 - 1, 2**63, 2**64, 10**40]),
    ),
    query=QUERY,
)
@example(slug="rm-test", number=2**63, query={})
@example(slug="rm-test", number=int("9" * 4000), query={})
def test_json_api_with_random_path_and_query(world, slug, number, query):
    for path in (
        f"/api/t/{slug}/standings/",
        f"/api/t/{slug}/series/",
        f"/api/t/{slug}/series/{number}/",
        f"/api/t/{slug}/players/",
        f"/api/t/{slug}/players/{number}/",
    ):
        response = send(world.anonymous, "get", path, data=query, writes=False)
        assert response.status_code in (200, 404)
        assert response["Content-Type"].startswith(("application/json", "text/html"))


def _int_routes():
    """Every route of the site with an <int:…> parameter, as (pattern, names)."""
    routes = []

    def walk(resolver, prefix):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                walk(entry, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                route = prefix + str(entry.pattern)
                if "<int:" in route:
                    routes.append(route)

    walk(get_resolver(), "")
    return sorted(set(routes))


INT_ROUTES = _int_routes()
BIG = [2**63, int("9" * 4000)]


def test_every_int_route_is_covered():
    assert len(INT_ROUTES) >= 15


def test_path_parameters_beyond_int_ranges(world):
    for route in INT_ROUTES:
        for number in BIG:
            path = "/" + re.sub(r"<int:\w+>", str(number), route)
            path = re.sub(r"<slug:\w+>", world.slug, path)
            path = re.sub(r"<(str|uuid):\w+>", "0", path)
            for method in ("get", "post"):
                data = {"version": "1", "a": "1"}
                send(world.organizer, method, path, data=data)
