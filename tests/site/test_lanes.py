"""At most so many requests in Django at once, per lane (issue 18.2):
phones in one, signed-in referees and the organizer in their own, so 1,000
phones never make a referee's page wait behind theirs. The rest wait in the
event loop, and every one is answered.

Only a session of a signed-in user in the session store counts as signed
in, not a cookie of that name; and a request's body is read before it takes
a place (issue 25.1): on a real server, slow bodies and made-up session
cookies no longer stop a referee's save or a phone's changed page.
"""

import asyncio
import socket

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client, override_settings

from tests.support import servers as support
from tests.support.clock import Clock
from tests.support.factories import make_user
from tests.support.threads import run_async
from tournament.core import limits
from tournament.core.limits import Lanes, Visitor, Visitors


def scope(cookie=b"", who="phone"):
    headers = [(b"host", b"testserver"), (b"x-who", who.encode())]
    if cookie:
        headers.append((b"cookie", cookie))
    return {"type": "http", "method": "GET", "path": "/", "headers": headers}


class Inner:
    """An application that counts who is inside at once (by the test's
    x-who header) and keeps each request until the test lets it go."""

    def __init__(self):
        self.inside = {"phone": 0, "made-up": 0, "referee": 0}
        self.most = dict(self.inside)
        self.answered = 0
        self.go = asyncio.Event()

    async def __call__(self, scope, receive, send):
        who = dict(scope["headers"])[b"x-who"].decode()
        self.inside[who] += 1
        self.most[who] = max(self.most[who], self.inside[who])
        await self.go.wait()
        self.inside[who] -= 1
        self.answered += 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})


class Decided:
    """Counts the requests whose visitor is decided (their session looked
    up); in the same step of the event loop such a request goes in or
    waits."""

    def __init__(self, visitors):
        self.count = 0
        self.changed = asyncio.Event()
        decide = visitors.visitor_of

        async def counted(scope):
            found = await decide(scope)
            self.count += 1
            self.changed.set()
            return found

        visitors.visitor_of = counted

    async def until(self, count):
        while self.count < count:
            self.changed.clear()
            await self.changed.wait()


async def ignore(message):
    pass


def nothing():
    """The receive of a request without a body whose client stays: the
    empty body, then nothing until the test ends."""
    given = False

    async def receive():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": b""}
        await asyncio.Event().wait()

    return receive


def leaving():
    """The receive of a request without a body whose client leaves at once."""
    messages = iter([{"type": "http.request", "body": b""}])

    async def receive():
        return next(messages, {"type": "http.disconnect"})

    return receive


def signed_in_cookie(username):
    client = Client()
    client.force_login(make_user(username, "referee"))
    return f"sessionid={client.cookies['sessionid'].value}; a=b".encode()


def anonymous_session_cookie():
    """A real session, of a visitor who never signed in (a practice table's)."""
    store = SessionStore()
    store["practice_token"] = "t"
    store.create()
    return f"sessionid={store.session_key}".encode()


MADE_UP = [b"sessionid=x", b"sessionid=" + b"k" * 32, b"a=b; sessionid=0123456789"]


@pytest.mark.django_db(transaction=True)
@override_settings(REQUEST_LANES={"public": 2, "signed_in": 3})
def test_each_lane_lets_so_many_in_and_the_referees_pass_the_phones():
    referees = [signed_in_cookie(f"schiri{i}") for i in range(5)]
    made_up = [*MADE_UP, anonymous_session_cookie()]

    async def scenario():
        inner = Inner()
        lanes = Visitors(Lanes(inner))
        decided = Decided(lanes)
        phones = [
            asyncio.create_task(lanes(scope(b"lang=de"), nothing(), ignore))
            for _ in range(4)
        ] + [
            asyncio.create_task(lanes(scope(c, "made-up"), nothing(), ignore))
            for c in made_up
        ]
        await decided.until(len(phones))
        # The phones' lane is full, the made-up cookies wait with the phones;
        # a referee still gets in at once.
        signed_in = [
            asyncio.create_task(lanes(scope(c, "referee"), nothing(), ignore))
            for c in referees
        ]
        await decided.until(len(phones) + len(signed_in))
        inside = dict(inner.inside)
        inner.go.set()
        await asyncio.gather(*phones, *signed_in)
        return inside, inner

    inside, inner = run_async(scenario)
    assert inside["referee"] == 3
    assert inside["phone"] + inside["made-up"] == 2
    assert inner.answered == 13


def test_a_websocket_does_not_take_a_place():
    async def scenario():
        inner = Inner()
        inner.go.set()
        lanes = Lanes(inner)
        socket = {**scope(), "type": "websocket"}
        await lanes(socket, nothing(), ignore)
        return inner

    assert run_async(scenario).answered == 1


@pytest.mark.django_db(transaction=True)
def test_only_a_signed_in_session_in_the_store_counts_as_signed_in():
    real = signed_in_cookie("schiri")
    made_up = [b"", b"xsessionid=1", b"sessionid_old=1", *MADE_UP]
    anonymous = anonymous_session_cookie()

    async def scenario():
        visitors = Visitors(Inner())
        found = {c: await visitors.visitor_of(scope(c)) for c in made_up}
        return (
            found,
            await visitors.visitor_of(scope(anonymous)),
            await visitors.visitor_of(scope(real)),
        )

    found, session, referee = run_async(scenario)
    assert referee is Visitor.SIGNED_IN
    # A session of a visitor who never signed in is one the store knows (the
    # kept pages leave it to Django); a made-up one is no session at all.
    assert session is Visitor.SESSION
    assert found == dict.fromkeys(made_up, Visitor.ANONYMOUS)


@pytest.mark.django_db(transaction=True)
def test_a_session_signed_out_in_another_process_leaves_the_lane_in_time(
    monkeypatch,
):
    """Sessions found signed in are remembered, so a referee's next request
    does not ask the store again; not for longer than ANSWER_SECONDS (on a
    clock the test moves)."""
    cookie = signed_in_cookie("schiri")
    key = cookie.split(b"=")[1].split(b";")[0].decode()
    clock = Clock(monkeypatch, limits)

    async def scenario():
        visitors = Visitors(Inner())
        first = await visitors.visitor_of(scope(cookie))
        await asyncio.to_thread(SessionStore(session_key=key).delete)
        clock.advance(visitors.ANSWER_SECONDS - 0.1)
        remembered = await visitors.visitor_of(scope(cookie))
        clock.advance(0.1)
        return first, remembered, await visitors.visitor_of(scope(cookie))

    signed_in, anonymous = Visitor.SIGNED_IN, Visitor.ANONYMOUS
    assert run_async(scenario) == (signed_in, signed_in, anonymous)


class Sending:
    """An application that answers at once but whose body waits to be
    sent until the test lets it go, as a client that does not read makes
    the server's send wait."""

    def __init__(self):
        self.started = 0
        self.go = asyncio.Event()

    async def __call__(self, scope, receive, send):
        self.started += 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await self.go.wait()
        await send({"type": "http.response.body", "body": b"x"})


def page(path="/"):
    return {**scope(), "path": path}


@override_settings(REQUEST_LANES={"public": 1, "signed_in": 1})
def test_a_request_leaves_its_lane_when_its_answer_starts():
    """Sending needs no place in Django: a client that reads nothing of its
    answer no longer keeps the next phone out."""

    async def scenario():
        inner = Sending()
        lanes = Lanes(inner)
        first = asyncio.create_task(lanes(page(), nothing(), ignore))
        second = asyncio.create_task(lanes(page(), nothing(), ignore))
        for _ in range(20):
            await asyncio.sleep(0)
        started = inner.started
        inner.go.set()
        await asyncio.gather(first, second)
        return started

    assert run_async(scenario) == 2


@override_settings(REQUEST_LANES={"public": 1, "signed_in": 1})
def test_static_files_take_no_place():
    async def scenario():
        inner = Inner()
        lanes = Lanes(inner)
        held = asyncio.create_task(lanes(page(), nothing(), ignore))
        static = asyncio.create_task(
            lanes(page("/static/css/app.css"), nothing(), ignore)
        )
        for _ in range(20):
            await asyncio.sleep(0)
        inside = inner.inside["phone"]
        inner.go.set()
        await asyncio.gather(held, static)
        return inside

    assert run_async(scenario) == 2


@override_settings(REQUEST_LANES={"public": 1, "signed_in": 1})
def test_a_request_whose_client_left_while_it_waited_never_goes_in():
    """600 connections that asked for a page made by Django and left at once
    kept every phone behind them: a request whose client is gone by its
    turn is dropped, unanswered, and the next one goes in."""

    async def scenario():
        inner = Inner()
        lanes = Lanes(inner)
        held = asyncio.create_task(lanes(page(), nothing(), ignore))
        for _ in range(20):
            await asyncio.sleep(0)
        left = [asyncio.create_task(lanes(page(), leaving(), ignore)) for _ in range(5)]
        waiting = asyncio.create_task(lanes(page(), nothing(), ignore))
        await asyncio.gather(*left)  # they end without their turn
        inner.go.set()
        await asyncio.gather(held, waiting)
        return inner.answered

    assert run_async(scenario) == 2


@override_settings(REQUEST_LANES={"public": 1, "signed_in": 1})
def test_a_thread_waiting_outside_its_lane_lets_the_next_one_in():
    """A photo waiting for the readers' pool gives up its place meanwhile,
    and takes one again before it goes on."""

    async def scenario():
        order = []
        release = asyncio.Event()
        loop = asyncio.get_running_loop()

        def photo_view():
            with limits.outside_lane():
                order.append("photo waits")
                asyncio.run_coroutine_threadsafe(release.wait(), loop).result()
            order.append("photo goes on")

        async def app(scope, receive, send):
            if scope["path"] == "/foto/":
                await asyncio.to_thread(photo_view)
            else:
                order.append("next one in")
                release.set()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})

        lanes = Lanes(app)
        photo = asyncio.create_task(lanes(page("/foto/"), nothing(), ignore))
        while not order:
            await asyncio.sleep(0.01)
        await lanes(page(), nothing(), ignore)
        await photo
        return order

    assert run_async(scenario) == ["photo waits", "next one in", "photo goes on"]


# --- on a real server ---------------------------------------------------------


@pytest.fixture
def server(tmp_path):
    """A real uvicorn server (config.test_settings: REQUEST_BODY_SECONDS is
    2) on a tournament whose two tables wait for a referee's confirmation."""
    env = support.server_env(tmp_path)
    pending = support.seed_database(env)
    port = support.free_port()
    process = support.start_server(env, port)
    try:
        support.wait_until_up(port, process)
        yield port, pending
    finally:
        support.stop(process)


def slow_body(port, path, cookie=""):
    """A POST that declares 1,000 bytes and sends two."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    cookie_line = f"Cookie: {cookie}\r\n" if cookie else ""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: 1000\r\n{cookie_line}\r\n"
    )
    sock.sendall(head.encode() + b"a=")
    return sock


def until_closed(sock):
    """What the server sent before it closed the connection."""
    answer = b""
    while chunk := sock.recv(4096):
        answer += chunk
    return answer


def still_open(sock):
    """Nothing answered on the connection yet, and it is not closed."""
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    finally:
        sock.settimeout(timeout)
    return False


@pytest.mark.slow
@pytest.mark.server
def test_slow_bodies_and_made_up_sessions_do_not_stop_entry_or_the_phones(server):
    """The save and the changed page are answered while every slow body
    still holds its connection (before the first 408, REQUEST_BODY_SECONDS
    after they began): they did not wait for those."""
    port, pending = server
    standings = f"/t/{support.SLUG}/tabelle/"
    status, _, _ = support.request(port, "GET", standings)  # kept from here on
    assert status == 200
    csrf, cookies = support.http_sign_in(port, "schiri2", support.PASSWORD)
    entry = f"/t/{support.SLUG}/eingabe/"
    slow = [slow_body(port, "/konto/anmelden/") for _ in range(3)] + [
        slow_body(port, entry, f"sessionid={made_up}")
        for made_up in ("x", "y", "k" * 32, "0123456789", "z" * 40)
    ]
    # Unfinished headers never reach the site (the server closes them after
    # FRONT_HEAD_SECONDS; meanwhile they hold no place either).
    unfinished = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
    for sock in unfinished:
        sock.sendall(b"POST /konto/anmelden/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    for sock in slow:
        sock.sendall(b"1")
    # A barrier instead of a wait: the server answers a request sent after
    # all of them, so it has read what they sent.
    assert support.request(port, "GET", standings)[0] == 200

    # The referee confirms table 1; a phone asks for the changed standings.
    path = f"/t/{support.SLUG}/eingabe/serie/1/tisch/1/bestaetigen/"
    version, revision = pending[1]
    status, _, _ = support.post_form(
        port,
        path,
        {"version": version, "revision": revision},
        csrf=csrf,
        cookies=cookies,
    )
    assert status == 302, "the confirmation failed"
    status, _, page = support.request(port, "GET", standings, timeout=5)
    assert status == 200
    # Seat 1 of table 1 won all five games with 7 marks: 5 × (7 + 7) = 70.
    assert b'<td class="num points">70</td>' in page
    waiting = [still_open(sock) for sock in slow]
    assert all(waiting), f"a slow body was answered first: {waiting}"

    # Each slow body got 408 and its connection closed (the sockets give up
    # after 10 s: the deadline is 2).
    answers = [until_closed(sock) for sock in slow]
    for sock in slow + unfinished:
        sock.close()
    for answer in answers:
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), answer[:60]
    assert any(answers)
