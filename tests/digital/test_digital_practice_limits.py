"""Practice tables are open to anyone, so there are limits (issue 15, B):
30 requests in one second made 30 tables, 120 seats and 30 bot threads.
Now each visitor and each address opens only so many, only so many are
played at once, idle ones stop, and the bots of all tables share a few
runner threads; the visitor is told why in plain words."""

import queue
import threading
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.support.factories import TournamentFactory, make_series
from tournament.digital import runner
from tournament.digital.services import digital_table_create
from tournament.models import DigitalSeat, DigitalTable

committing = pytest.mark.django_db(transaction=True)
pytestmark = pytest.mark.usefixtures("memory_layer", "local_cache")

PRACTICE = reverse("tournament:practice")


def open_table(client, address="10.0.0.1", new=True):
    """POST /ueben/ as the page's buttons do; the answer's page."""
    data = {"new": "1"} if new else {}
    return client.post(PRACTICE, data, REMOTE_ADDR=address, follow=True)


@committing
def test_thirty_requests_from_one_visitor_open_only_his_share(client, settings):
    settings.DIGITAL_PRACTICE_PER_SESSION = 10
    pages = [open_table(client) for _ in range(30)]
    assert DigitalTable.objects.count() == 10
    assert DigitalSeat.objects.count() == 40
    # Each new table replaced the one before: one is being played.
    assert DigitalTable.objects.filter(status="playing").count() == 1
    refused = pages[10].content.decode()
    assert "Sie haben gerade schon viele Übungstische geöffnet" in refused
    assert pages[10].redirect_chain[-1][0] == PRACTICE
    # The table he has is still his to play.
    assert "Weiterspielen" in refused


@committing
def test_an_address_opens_only_its_share_even_without_cookies(client, settings):
    settings.DIGITAL_PRACTICE_PER_ADDRESS = 5
    for _ in range(12):
        client.cookies.clear()  # a script that keeps no session
        page = open_table(client, address="192.0.2.7")
    assert DigitalTable.objects.count() == 5
    assert "Von diesem Netz aus wurden gerade sehr viele" in page.content.decode()
    # Another address is not held up by this one.
    client.cookies.clear()
    assert open_table(client, address="192.0.2.8").redirect_chain[-1][0] != PRACTICE
    assert DigitalTable.objects.count() == 6


@committing
def test_only_so_many_are_played_at_once_and_idle_ones_stop(client, settings):
    settings.DIGITAL_PRACTICE_MAX_PLAYING = 2
    for n in (1, 2):
        client.cookies.clear()
        open_table(client, address=f"198.51.100.{n}")
    client.cookies.clear()
    busy = open_table(client, address="198.51.100.3")
    text = busy.content.decode()
    assert (
        "Gerade üben zu viele Tische gleichzeitig. Bitte in ein paar Minuten "
        "noch einmal versuchen." in text
    )
    assert DigitalTable.objects.count() == 2
    # Nobody has moved at the first table for longer than the idle time.
    first = DigitalTable.objects.order_by("pk").first()
    long_ago = timezone.now() - timedelta(
        minutes=settings.DIGITAL_PRACTICE_IDLE_MINUTES + 1
    )
    DigitalTable.objects.filter(pk=first.pk).update(updated_at=long_ago)
    opened = open_table(client, address="198.51.100.3")
    assert opened.redirect_chain[-1][0].startswith("/d/")
    first_before = first.version
    first.refresh_from_db()
    assert first.status == DigitalTable.Status.STOPPED
    assert first.version == first_before + 1  # its page is told
    assert DigitalTable.objects.filter(status="playing").count() == 2
    # A stopped practice table's page says what happened and what to do.
    seat = first.seats.get(number=1)
    page = client.get(reverse("tournament:digital_play", args=[seat.token]))
    assert "Dieser Übungstisch wurde nach einer langen Pause" in page.content.decode()


@committing
def test_the_bots_of_many_tables_share_the_runner_threads_in_turn(
    organizer, settings, monkeypatch
):
    """Four tables of bots woken at once, one runner thread allowed: it
    plays them all, one bot move each in turn, and ends. (The test reads
    the database only once no runner is left: SQLite's shared in-memory
    test database refuses a reader while a writer holds a table.)"""
    settings.DIGITAL_BOTS_INLINE = False
    settings.DIGITAL_BOT_DELAY_ALONE = 0
    settings.DIGITAL_BOT_RUNNERS = 1
    monkeypatch.setattr(runner, "wake", lambda table_id: None)  # not yet
    tournament = TournamentFactory(slug="many-bots", games_per_series=1)
    series = make_series(tournament, sizes=(4, 4, 4, 3))
    tables = [
        digital_table_create(
            actor=organizer,
            table=table,
            bots=dict.fromkeys(range(1, table.size + 1), "greedy"),
        )
        for table in series.tables.order_by("number")
    ]
    ids = [t.pk for t in tables]
    monkeypatch.undo()  # now they are woken, all at once
    lock = threading.Lock()
    running = {"now": 0, "most": 0}
    turns = []  # the table of each turn a runner played, in order
    served = queue.Queue()  # a runner thread that ended
    real_run, real_serve = runner._run, runner._serve

    all_woken = threading.Event()

    def counted_run(table_id):
        all_woken.wait(timeout=60)
        with lock:
            running["now"] += 1
            running["most"] = max(running["most"], running["now"])
            turns.append(table_id)
        try:
            real_run(table_id)
        finally:
            with lock:
                running["now"] -= 1

    def reported_serve(table_id):
        try:
            real_serve(table_id)
        finally:
            served.put(table_id)

    monkeypatch.setattr(runner, "_run", counted_run)
    monkeypatch.setattr(runner, "_serve", reported_serve)
    for table_id in ids:
        runner.wake(table_id)
    # One runner (held at its first table until all are woken); the others
    # wait in line.
    assert runner._runners == 1 and list(runner._line) == ids[1:]
    all_woken.set()
    while runner._runners:
        try:
            served.get(timeout=120)
        except queue.Empty:
            pytest.fail(f"the runner did not end; turns so far: {len(turns)}")
    assert running["most"] == 1 and not runner._line
    # Each table's bots moved in turn with the others' (not one table to
    # its end first), and every table was played to its end.
    assert turns[:4] == ids
    assert DigitalTable.objects.filter(pk__in=ids, status="finished").count() == 4
    assert not DigitalTable.objects.filter(runner_until__isnull=False).exists()
