"""Live pages: websocket pushes after the commit, reconnects, fragments that
are the page's own partials, conditional GET and the projector."""

import asyncio
import gzip
import os
import re
import threading
import time

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.db import connections, transaction
from django.urls import reverse

from tests.support.factories import make_series
from tests.support.results import FIVE, confirm, enter
from tests.support.servers import CHANNELS_DB, redis_url
from tests.support.threads import run_async
from tests.support.websockets import MEMORY_LAYER, layer_release, ws_connect
from tournament.live import fragments, invalidation
from tournament.live.fragments import (
    FRAGMENTS,
    FragmentKey,
    Region,
    fragment_key,
    region,
)
from tournament.models import Table
from tournament.results.services import result_enter
from tournament.seating.services import series_release

# How long a test waits for what must come: a ceiling for a loaded machine,
# never waited out when the site works.
WAIT = 30


@pytest.fixture(autouse=True)
def channel_layer(settings, local_cache):
    """The in-memory layer, or Redis (CI) in a database of its own under a
    prefix per test worker: parallel workers (whose tournament ids overlap)
    never hear each other, and the suite's cache.clear() (FLUSHDB on the
    Redis cache) cannot drop our groups. The cache is this process's own for
    the same reason."""
    url = redis_url(CHANNELS_DB) if os.environ.get("REDIS_URL") else None
    if url:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [url], "prefix": f"test-live-{worker}"},
            }
        }
    else:
        settings.CHANNEL_LAYERS = MEMORY_LAYER
    yield
    layer_release()


def etag_of(tournament, name, **params):
    """The ETag a German page of the fragment shows now."""
    tournament.refresh_from_db()
    return region(tournament, fragment_key(name, params), "de").etag


async def open_socket(tournament, *, lang="de", cookie=None):
    path = f"/ws/t/{tournament.slug}/?lang={lang}"
    communicator, connected, _ = await ws_connect(path, cookie=cookie)
    assert connected
    return communicator


async def subscribe(communicator, *regions):
    await communicator.send_json_to(
        {
            "type": "subscribe",
            "regions": [{"key": k, "etag": e} for k, e in regions],
        }
    )
    messages = []
    while True:
        message = await communicator.receive_json_from(timeout=WAIT)
        if message["type"] == "subscribed":
            return messages, message
        messages.append(message)


# --- Push after commit -----------------------------------------------------


@pytest.fixture
def published(monkeypatch):
    """What the services tell the live pages from now on, in order: per
    call of `invalidation.publish`, the tournament id and the parts."""
    calls = []
    real_publish = invalidation.publish

    def record_and_publish(tournament_id, parts):
        calls.append((tournament_id, sorted(parts)))
        real_publish(tournament_id, parts)

    monkeypatch.setattr(invalidation, "publish", record_and_publish)
    return calls


@pytest.mark.django_db(transaction=True)
def test_socket_gets_the_new_standings_once_the_confirmation_commits(
    tournament, series, referee, referee2, published
):
    table = Table.objects.get(series=series, number=1)
    version = enter(table, referee)
    before = etag_of(tournament, "standings")
    published.clear()
    in_transaction, commit = threading.Event(), threading.Event()

    def confirm_and_hold():
        with transaction.atomic():
            confirm(version, referee2)
            in_transaction.set()
            assert commit.wait(WAIT)

    async def scenario():
        socket = await open_socket(tournament)
        pushed, ack = await subscribe(socket, ("standings", before))
        assert pushed == [] and ack["keys"] == ["standings"]
        held = asyncio.ensure_future(database_sync_to_async(confirm_and_hold)())
        assert await asyncio.to_thread(in_transaction.wait, WAIT)
        # Confirmed inside the transaction, not committed: nothing goes out
        # (and a push from inside it would reach the socket before the one
        # after the commit, showing the standings as they were).
        assert published == []
        commit.set()
        await held
        assert published == [(tournament.pk, ["progress", "results", "standings"])]
        message = await socket.receive_json_from(timeout=WAIT)
        await socket.disconnect()
        return message

    message = run_async(scenario)
    assert message["type"] == "fragment" and message["key"] == "standings"
    assert message["etag"] != before
    # Seat 1 of table 1 won games 1 and 3: 5 + 7 marks + 2 × 7 bonus = 26.
    assert re.search(r'<td class="num points">26</td>', message["html"])


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_confirmation_sends_nothing(
    tournament, series, referee, referee2, published
):
    table = Table.objects.get(series=series, number=1)
    version = enter(table, referee)
    shown = etag_of(tournament, "standings")
    published.clear()

    def confirm_and_roll_back():
        with pytest.raises(RuntimeError), transaction.atomic():
            confirm(version, referee2)
            raise RuntimeError("the referee's tablet crashed")

    async def scenario():
        socket = await open_socket(tournament)
        await subscribe(socket, ("standings", shown))
        await database_sync_to_async(confirm_and_roll_back)()
        # A barrier instead of a wait: the socket answers a subscription
        # after everything it had to send, and catches up on the standings.
        pushed, _ = await subscribe(socket, ("standings", shown))
        await socket.disconnect()
        return pushed == []

    assert run_async(scenario)
    assert published == []  # nothing was told, not just nothing arrived yet


@pytest.mark.django_db(transaction=True)
def test_one_push_reaches_every_socket_of_the_tournament_and_no_other(
    tournament, series, referee, referee2, published
):
    from tests.support.factories import TournamentFactory

    other = TournamentFactory(slug="anderes")
    table = Table.objects.get(series=series, number=2)
    version = enter(table, referee)
    standings_tag = etag_of(tournament, "standings")
    results_tag = etag_of(tournament, "results", series="1")
    other_tag = etag_of(other, "standings")
    published.clear()

    async def scenario():
        phones = [await open_socket(tournament) for _ in range(5)]
        for phone in phones[:4]:
            await subscribe(phone, ("standings", standings_tag))
        await subscribe(phones[4], ("results?series=1", results_tag))
        elsewhere = await open_socket(other)
        await subscribe(elsewhere, ("standings", other_tag))
        await database_sync_to_async(confirm)(version, referee2)
        got = [await p.receive_json_from(timeout=WAIT) for p in phones]
        # The other tournament's page: its subscription answered (after
        # anything it had to send), and its standings unchanged.
        pushed, _ = await subscribe(elsewhere, ("standings", other_tag))
        quiet = pushed == []
        for socket in [*phones, elsewhere]:
            await socket.disconnect()
        return got, quiet

    got, quiet = run_async(scenario)
    assert [m["key"] for m in got] == ["standings"] * 4 + ["results?series=1"]
    assert len({m["html"] for m in got[:4]}) == 1
    assert "Tisch 2" in got[4]["html"]
    assert quiet
    # One publish, to this tournament's pages only.
    assert published == [(tournament.pk, ["progress", "results", "standings"])]


# --- Reconnect ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_page_that_reconnects_gets_what_it_missed_at_once(
    tournament, series, referee, referee2
):
    table = Table.objects.get(series=series, number=1)
    version = enter(table, referee)
    shown = etag_of(tournament, "standings")

    async def scenario():
        socket = await open_socket(tournament)
        await subscribe(socket, ("standings", shown))
        await socket.disconnect()  # the phone went to sleep …
        await database_sync_to_async(confirm)(version, referee2)
        socket = await open_socket(tournament)  # … and wakes up
        missed, _ = await subscribe(socket, ("standings", shown))
        current = missed[0]["etag"]
        again = await open_socket(tournament)
        nothing_new, _ = await subscribe(again, ("standings", current))
        await socket.disconnect()
        await again.disconnect()
        return missed, nothing_new

    missed, nothing_new = run_async(scenario)
    assert [m["key"] for m in missed] == ["standings"]
    assert missed[0]["etag"] == etag_of(tournament, "standings") != shown
    assert nothing_new == []


@pytest.mark.django_db(transaction=True)
def test_unknown_tournament_is_refused(db):
    async def scenario():
        _, connected, code = await ws_connect("/ws/t/gibt-es-nicht/")
        return connected, code

    connected, code = run_async(scenario)
    assert not connected and code == 4404


# --- Who gets what -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_waiting_entries_reach_referees_never_the_public(
    client, tournament, series, referee, referee2
):
    table = Table.objects.get(series=series, number=1)
    client.force_login(referee2)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def scenario():
        public = await open_socket(tournament)
        shown, ack = await subscribe(public, ("progress", ""), ("progress-public", ""))
        staff = await open_socket(tournament, cookie=cookie)
        first, staff_ack = await subscribe(staff, ("progress", ""))
        await database_sync_to_async(enter)(table, referee)  # waits for a second
        staff_got = await staff.receive_json_from(timeout=WAIT)
        # The public page: its subscription answered (after anything it had
        # to send), and its progress unchanged.
        pushed, _ = await subscribe(public, ("progress-public", shown[0]["etag"]))
        public_quiet = pushed == []
        await public.disconnect()
        await staff.disconnect()
        return ack, staff_ack, first, staff_got, public_quiet

    ack, staff_ack, first, staff_got, public_quiet = run_async(scenario)
    assert ack["keys"] == ["progress-public"]  # the staff key was refused
    assert staff_ack["keys"] == ["progress"] and "chip-pending" not in first[0]["html"]
    assert "chip-pending" in staff_got["html"]
    assert public_quiet  # the public progress did not change


@pytest.mark.django_db(transaction=True)
def test_releasing_a_series_reaches_where_do_i_sit_and_the_projector(
    tournament, entries, organizer
):
    for entry in entries:  # present: a seating of absent players is not released
        entry.checked_in = True
        entry.save()
    series = make_series(tournament, sizes=(4, 4), status="seated", entries=entries)
    name = entries[0].player.last_name
    key = fragment_key("where", {"q": name})

    async def scenario():
        socket = await open_socket(tournament)
        shown, _ = await subscribe(socket, (key.text, ""), ("seating-names", ""))
        await database_sync_to_async(series_release)(actor=organizer, series=series)
        messages = [await socket.receive_json_from(timeout=WAIT) for _ in range(2)]
        await socket.disconnect()
        return shown, {m["key"]: m["html"] for m in messages}

    shown, pushed = run_async(scenario)
    before = {m["key"]: m["html"] for m in shown}
    assert "Noch keine veröffentlichte Setzung" in before[key.text]
    assert "Tisch" not in before["seating-names"]  # nothing released yet
    assert "Tisch 1</strong>, Sitz 1" in pushed[key.text]
    assert "Serie 1: Wo sitze ich?" in pushed["seating-names"]


@pytest.mark.django_db(transaction=True)
def test_fragments_come_in_the_language_of_the_page(tournament, series):
    async def scenario():
        socket = await open_socket(tournament, lang="en")
        shown, _ = await subscribe(socket, ("seating?series=1", ""))
        await socket.disconnect()
        return shown

    shown = run_async(scenario)
    assert "Table 1" in shown[0]["html"]


# --- Fragments are the page's own partials ------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url_name", "kwargs", "key"),
    [
        ("tournament:standings", {}, "standings"),
        ("tournament:standings_ladies", {}, "standings?view=ladies"),
        ("tournament:standings_teams", {}, "standings?view=teams"),
        ("tournament:series_detail", {"number": 1}, "seating?series=1"),
        ("tournament:series_results", {"number": 1}, "results?series=1"),
    ],
)
def test_the_page_shows_exactly_the_fragment_the_poll_returns(
    client, tournament, series, url_name, kwargs, key
):
    page = client.get(reverse(url_name, kwargs={"slug": tournament.slug, **kwargs}))
    html = page.content.decode()
    match = re.search(
        r'<div class="live-region" data-live-key="([^"]*)" data-live-url="([^"]*)" '
        r'data-live-etag="([^"]*)">(.*)</div>',
        html,
        re.S,
    )
    assert match and match.group(1) == key.replace("&", "&amp;")
    fragment = client.get(match.group(2).replace("&amp;", "&"))
    assert fragment.status_code == 200
    assert fragment["ETag"] == f'"{match.group(3)}"'
    assert fragment.content.decode() in html


@pytest.mark.django_db
def test_where_do_i_sit_shows_the_fragment_for_the_query(client, tournament, series):
    player = series.seats.get(table__number=2, number=3).entry.player
    page = client.get(
        reverse("tournament:where", kwargs={"slug": tournament.slug}),
        {"q": player.last_name},
    )
    text = page.content.decode()
    assert "Tisch 2</strong>, Sitz 3" in text
    assert 'data-live-ws="/ws/t/rm-test/"' in text


@pytest.mark.django_db
def test_fragment_keys_keep_only_known_parameters():
    assert (
        fragment_key("standings", {"view": "overall", "utm": "x"}).text == "standings"
    )
    assert (
        fragment_key("standings", {"sort": "-points", "q": " Anna "}).text
        == "standings?sort=-points&q=Anna"
    )
    assert fragment_key("standings", {"sort": "password"}).text == "standings"
    assert fragment_key("results", {}) is None
    assert fragment_key("results", {"series": "99"}) is None
    assert fragment_key("admin", {}) is None


@pytest.mark.django_db
def test_staff_fragment_and_unreleased_series_are_not_public(
    client, tournament, series, referee
):
    make_series(tournament, sizes=(4,), number=2, status="seated")
    base = f"/t/{tournament.slug}/live/"
    assert client.get(base + "progress/").status_code == 404
    assert client.get(base + "results/?series=2").status_code == 404
    assert client.get(base + "seating/?series=2").status_code == 404
    client.force_login(referee)
    assert client.get(base + "progress/").status_code == 200


# --- Conditional GET and the cache -------------------------------------------


@pytest.mark.django_db
def test_standings_answer_a_repeated_get_with_304_until_a_result_counts(
    client, tournament, series, referee, referee2, django_capture_on_commit_callbacks
):
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    first = client.get(url)
    tag, modified = first["ETag"], first["Last-Modified"]
    assert tag.startswith('W/"') and "no-cache" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    table = Table.objects.get(series=series, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(enter(table, referee), referee2)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_IF_MODIFIED_SINCE=modified)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed["Last-Modified"] != modified
    assert client.get(url + "?sort=-points", HTTP_IF_NONE_MATCH=tag).status_code == 200


@pytest.mark.django_db
def test_signed_in_users_always_get_the_page(client, tournament, referee):
    client.force_login(referee)
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    response = client.get(url)
    assert "ETag" not in response
    assert client.get(url, HTTP_IF_NONE_MATCH="*").status_code == 200


@pytest.mark.django_db
def test_cached_standings_cost_no_query_and_change_on_confirmation(
    client,
    tournament,
    series,
    referee,
    referee2,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    url = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    client.get(url)
    with django_assert_num_queries(0):  # the page is kept, its state known
        assert client.get(url).status_code == 200
    table = Table.objects.get(series=series, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(enter(table, referee), referee2)
    assert '<td class="num points">26</td>' in client.get(url).content.decode()


@pytest.mark.django_db
def test_seating_etag_follows_a_release_nobody_announced(client, tournament, entries):
    make_series(tournament, sizes=(4, 4), status="released", entries=entries)
    key = FragmentKey(FRAGMENTS["seating-names"], {})
    before = region(tournament, key, "de").etag
    second = make_series(
        tournament, sizes=(4, 4), number=2, status="seated", entries=entries
    )
    second.status = "released"
    second.version += 1
    second.save()  # no service, no live.seating_changed
    after = region(tournament, key, "de")
    assert after.etag != before and "Serie 2" in after.html


@pytest.mark.django_db
@pytest.mark.parametrize("tables", [2, 12])
def test_the_halls_list_of_names_reads_in_queries_that_do_not_grow_with_the_field(
    tournament, tables, django_assert_max_num_queries
):
    # Each name shows its table: read with the seats, not one query per name
    # (the projector asked 400 of them at a full championship).
    make_series(tournament, sizes=(4,) * tables, status="released")
    key = FragmentKey(FRAGMENTS["seating-names"], {})
    with django_assert_max_num_queries(7):
        html = region(tournament, key, "de").html
    assert html.count("<li>") == 4 * tables
    assert f"Tisch {tables}</span>" in html


# --- Projector -----------------------------------------------------------------


@pytest.mark.django_db
def test_projector_shows_standings_seating_and_progress_without_controls(
    client, tournament, series
):
    response = client.get(
        reverse("tournament:projector", kwargs={"slug": tournament.slug})
    )
    html = response.content.decode()
    assert response.status_code == 200
    for key in ("standings", "seating-names", "progress-public"):
        assert f'data-live-key="{key}"' in html
    assert "Serie 1: Wo sitze ich?" in html and "von 2 Tischen fertig" in html
    assert not re.search(r"<(form|button|input|select|textarea)\b", html)
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", html)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url_name",
    ["standings", "series_detail", "series_results", "where", "projector", "results"],
)
def test_live_pages_have_no_inline_script(
    client, tournament, series, referee, url_name
):
    client.force_login(referee)
    kwargs = {"slug": tournament.slug}
    if url_name in ("series_detail", "series_results"):
        kwargs["number"] = 1
    html = client.get(reverse(f"tournament:{url_name}", kwargs=kwargs)).content.decode()
    assert "js/live.js" in html
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", html)
    assert not re.search(r"<[^>]*\son[a-z]+=", html)  # no inline handlers


@pytest.mark.django_db(transaction=True)
def test_pages_that_can_unpack_get_large_fragments_gzipped(tournament):
    make_series(tournament, sizes=(4,) * 10)

    async def scenario():
        plain = await open_socket(tournament)
        await plain.send_json_to(
            {"type": "subscribe", "regions": [{"key": "standings", "etag": ""}]}
        )
        text = await plain.receive_from(timeout=WAIT)
        packed = await open_socket(tournament)
        await packed.send_json_to(
            {
                "type": "subscribe",
                "regions": [{"key": "standings", "etag": ""}],
                "gzip": True,
            }
        )
        binary = await packed.receive_output(timeout=WAIT)
        for socket in (plain, packed):
            await socket.disconnect()
        return text, binary["bytes"]

    text, binary = run_async(scenario)
    assert gzip.decompress(binary).decode() == text
    ratio = len(text.encode()) / len(binary)
    # Text of names and numbers packs to well under a third (about a fourth).
    assert ratio > 3, ratio


@pytest.mark.django_db
def test_standings_etag_never_repeats_after_the_cache_is_lost(tournament, monkeypatch):
    """The standings' generation starts from the clock in milliseconds: a
    server that lost its cache (a restart) some time later cannot count up
    again to an ETag it handed out before. The clock is the test's."""

    class Clock:
        ns = time.time_ns()

        def time_ns(self):
            return self.ns

        def __getattr__(self, name):
            return getattr(time, name)

    clock = Clock()
    monkeypatch.setattr(invalidation, "time", clock)
    key = fragment_key("standings", {})
    seen = [region(tournament, key, "de").etag]
    invalidation._bump_generation(tournament.pk)
    seen.append(region(tournament, key, "de").etag)
    clock.ns += 10_000_000  # the restart takes 10 ms
    cache.clear()  # a restarted server with the in-memory cache
    after = [region(tournament, key, "de").etag]
    invalidation._bump_generation(tournament.pk)
    after.append(region(tournament, key, "de").etag)
    assert len(set(seen + after)) == 4


# --- What each ETag follows --------------------------------------------------

PUBLIC_KEYS = [
    ("standings", {}),
    ("results", {"series": "1"}),
    ("seating", {"series": "1"}),
    ("where", {"q": "a"}),
    ("progress-public", {}),
    ("seating-names", {}),
]


def etags(tournament, keys):
    return {name: etag_of(tournament, name, **params) for name, params in keys}


@pytest.mark.django_db
def test_a_waiting_entry_changes_only_the_staff_etags(
    tournament, series, referee, referee2, django_capture_on_commit_callbacks
):
    """Without provisional results nothing public shows a waiting entry, so
    300 phones must not fetch their fragments again for one; the referees'
    progress shows it."""
    assert not tournament.show_provisional
    table = Table.objects.get(series=series, number=1)
    public, staff = etags(tournament, PUBLIC_KEYS), etag_of(tournament, "progress")
    with django_capture_on_commit_callbacks(execute=True):
        version = enter(table, referee)
    assert etags(tournament, PUBLIC_KEYS) == public
    assert etag_of(tournament, "progress") != staff
    staff = etag_of(tournament, "progress")
    with django_capture_on_commit_callbacks(execute=True):
        confirm(version, referee2)
    after = etags(tournament, PUBLIC_KEYS)
    for name in ("standings", "results", "progress-public"):
        assert after[name] != public[name], name
    for name in ("seating", "where", "seating-names"):  # nobody moved
        assert after[name] == public[name], name
    assert etag_of(tournament, "progress") != staff


@pytest.mark.django_db
def test_provisional_results_follow_waiting_entries(tournament, series, referee):
    tournament.show_provisional = True
    tournament.save()
    table = Table.objects.get(series=series, number=1)
    before = etag_of(tournament, "results", series="1")
    enter(table, referee)
    current = region(tournament, fragment_key("results", {"series": "1"}), "de")
    assert current.etag != before and "provisional" in current.html


@pytest.mark.django_db
def test_results_etag_follows_a_confirmation_nobody_announced(
    tournament, series, referee, referee2
):
    """Without on_commit callbacks run (no generation bump): the ETag reads
    the confirmed versions from the rows."""
    table = Table.objects.get(series=series, number=1)
    version = enter(table, referee)
    before = etag_of(tournament, "results", series="1")
    confirm(version, referee2)
    assert etag_of(tournament, "results", series="1") != before


@pytest.mark.django_db
def test_a_waiting_correction_is_not_public(
    client, tournament, series, referee, referee2
):
    """A confirmed table stays done for the public while a correction of
    it waits for a second referee."""
    table = Table.objects.get(series=series, number=1)
    confirm(enter(table, referee), referee2)
    before = region(tournament, fragment_key("progress-public", {}), "de")
    table.refresh_from_db()
    result_enter(
        actor=referee,
        table=table,
        games=FIVE[::-1],
        mode="quick",
        revision=table.result_revision,
        reason="Nachkontrolle",
    )
    after = region(tournament, fragment_key("progress-public", {}), "de")
    assert after.etag == before.etag and after.html == before.html
    assert "<strong>1</strong> von 2 Tischen fertig" in after.html
    staff = region(tournament, fragment_key("progress", {}), "de").html
    assert "chip-pending" in staff


@pytest.mark.django_db
def test_entry_overview_prints_the_cached_staff_region(
    client, tournament, series, referee
):
    client.force_login(referee)
    url = reverse("tournament:results", kwargs={"slug": tournament.slug})
    html = client.get(url).content.decode()
    progress = region(tournament, fragment_key("progress", {}), "de")
    assert f'data-live-etag="{progress.etag}"' in html and progress.html in html
    link = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 2},
    )
    assert f'href="{link}" class="table-chip chip-missing"' in html
    assert 'aria-label="Tisch 2: fehlt"' in html


# --- One render per ETag ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_one_render_per_etag_however_many_threads_ask_at_once(
    tournament, series, monkeypatch
):
    """Under ASGI each request has a thread: after a change, the phones that
    ask at once must not each render the new fragment. The render here
    waits until every thread has found the fragment missing from the cache,
    so all of them asked while it rendered."""
    askers = 8
    key = fragment_key("seating", {"series": "1"})
    missed = set()  # the threads that found no fragment in the cache
    changed = threading.Condition()
    renders = []  # per render: had every thread asked when it began?
    real_render = Region._render

    class MissCountingCache:
        def __getattr__(self, name):
            return getattr(cache, name)

        def get(self, key, *args, **kwargs):
            value = cache.get(key, *args, **kwargs)
            if value is None and key.startswith("live-frag:"):
                with changed:
                    missed.add(threading.get_ident())
                    changed.notify_all()
            return value

    def render_once_all_asked(self, cache_key):
        with changed:
            everyone = changed.wait_for(lambda: len(missed) == askers, timeout=20)
        renders.append(everyone)
        return real_render(self, cache_key)

    monkeypatch.setattr(fragments, "cache", MissCountingCache())
    monkeypatch.setattr(Region, "_render", render_once_all_asked)
    results, errors = [], []

    def ask():
        try:
            results.append(str(region(tournament, key, "de").html))
        except Exception as error:  # for the assertion below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask) for _ in range(askers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert renders == [True], f"{len(renders)} renders; all asked first: {renders}"
    assert len(results) == askers and len(set(results)) == 1
    assert "Tisch" in results[0]
