"""A request body larger than anything the site takes is refused before it
is read (issue 15.8): a 60 MB anonymous POST used to be read in full (to
disk) before the CSRF check refused it. And a body is read whole, within
REQUEST_BODY_SECONDS, before the application sees the request: a slow one
gets 408 (issue 25.1; tests/site/test_lanes.py shows why on a real server).
"""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.test import override_settings

from tournament.core.limits import VISITOR_KEY, BodyLimits, Visitor

LIMIT = 1000
MB = 2**20
CHUNKED = [(b"transfer-encoding", b"chunked")]


def scope(headers=()):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/i18n/setlang/",
        "raw_path": b"/i18n/setlang/",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


class Inner:
    """An application that reads the whole body, as Django's handler does."""

    def __init__(self):
        self.read = 0
        self.called = False
        self.messages = []

    async def __call__(self, scope, receive, send):
        self.called = True
        while True:
            message = await receive()
            self.messages.append(message)
            if message["type"] == "http.disconnect":
                return  # Django: RequestAborted, no response
            self.read += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def _answer(app, request_scope, chunks=()):
    talk = ApplicationCommunicator(app, request_scope)
    for i, chunk in enumerate(chunks):
        await talk.send_input(
            {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        )
    start = await talk.receive_output(timeout=5)
    body = await talk.receive_output(timeout=5)
    await talk.wait(timeout=5)
    return start, body


def answer(app, request_scope, chunks=()):
    return async_to_sync(_answer)(app, request_scope, chunks)


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_a_declared_length_above_the_limit_is_refused_unread():
    inner = Inner()
    start, body = answer(
        BodyLimits(inner), scope([(b"content-length", str(60 * MB).encode())])
    )
    assert start["status"] == 413
    assert not inner.called  # nothing of the body was read
    assert "zu groß" in body["body"].decode()


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_the_refusal_speaks_english_to_who_chose_it():
    headers = [(b"content-length", b"999999"), (b"cookie", b"django_language=en")]
    start, body = answer(BodyLimits(Inner()), scope(headers))
    assert start["status"] == 413
    assert "too large" in body["body"].decode().lower()


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_a_body_without_length_is_cut_off_at_the_limit():
    inner = Inner()
    chunks = [b"x" * 600, b"x" * 600, b"x" * 600]
    start, _body = answer(BodyLimits(inner), scope(CHUNKED), chunks)
    assert start["status"] == 413
    assert start["headers"][-1] == (b"connection", b"close")
    assert not inner.called  # refused before the application saw it


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_requests_within_the_limit_pass_untouched():
    inner = Inner()
    start, body = answer(
        BodyLimits(inner), scope([(b"content-length", b"10")]), [b"x" * 10]
    )
    assert start["status"] == 200 and body["body"] == b"ok"
    assert inner.read == 10


def test_a_chunked_body_reaches_the_application_whole_in_one_message():
    inner = Inner()
    start, _ = answer(BodyLimits(inner), scope(CHUNKED), [b"a" * 500, b"b" * 500])
    assert start["status"] == 200 and inner.read == 1000
    assert inner.messages == [
        {"type": "http.request", "body": b"a" * 500 + b"b" * 500, "more_body": False}
    ]


def test_after_the_body_the_application_hears_the_server_again():
    """Django listens for the client leaving while the view works: the
    receive after the body is the server's own."""

    async def scenario():
        heard = []

        async def app(scope, receive, send):
            heard.append(await receive())
            heard.append(await receive())

        talk = ApplicationCommunicator(
            BodyLimits(app), scope([(b"content-length", b"3")])
        )
        await talk.send_input({"type": "http.request", "body": b"x=1"})
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(timeout=5)
        return heard

    heard = async_to_sync(scenario)()
    assert heard[0]["body"] == b"x=1"
    assert heard[1] == {"type": "http.disconnect"}


def test_a_request_without_a_body_reaches_the_application_as_it_came():
    """HTTP/1 without Content-Length or Transfer-Encoding has no body: the
    server's receive is handed on, nothing waits (the kept pages' GETs)."""

    async def server_receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def scenario():
        given = []

        async def app(scope, receive, send):
            given.append(receive)

        get = {**scope(), "method": "GET"}
        await BodyLimits(app)(get, server_receive, None)
        # HTTP/2 marks a body otherwise: it is read first.
        await BodyLimits(app)({**get, "http_version": "2"}, server_receive, None)
        return given

    given = async_to_sync(scenario)()
    assert given[0] is server_receive
    assert given[1] is not server_receive


@override_settings(REQUEST_BODY_SECONDS=0.2)
def test_a_slow_body_gets_408_and_the_connection_closes():
    async def scenario():
        inner = Inner()
        talk = ApplicationCommunicator(
            BodyLimits(inner), scope([(b"content-length", b"100")])
        )
        await talk.send_input({"type": "http.request", "body": b"a", "more_body": True})
        started = asyncio.get_running_loop().time()
        start = await talk.receive_output(timeout=5)
        waited = asyncio.get_running_loop().time() - started
        body = await talk.receive_output(timeout=5)
        await talk.wait(timeout=5)
        return inner, start, body, waited

    inner, start, body, waited = async_to_sync(scenario)()
    assert start["status"] == 408
    assert (b"connection", b"close") in start["headers"]
    page = body["body"].decode()
    assert "zu langsam" in page
    assert 'name="viewport"' in page  # readable on a phone
    assert 0.15 < waited < 2
    assert not inner.called


def test_a_client_that_leaves_mid_body_gets_nothing_and_reaches_nobody():
    async def scenario():
        inner = Inner()
        talk = ApplicationCommunicator(
            BodyLimits(inner), scope([(b"content-length", b"100")])
        )
        await talk.send_input({"type": "http.request", "body": b"a", "more_body": True})
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(timeout=5)  # ends without an error
        return inner, await talk.receive_nothing()

    inner, nothing = async_to_sync(scenario)()
    assert nothing and not inner.called


@pytest.mark.django_db
def test_the_site_refuses_a_60_mb_post_before_reading_it():
    from config.asgi import application

    start, body = answer(
        application, scope([(b"content-length", str(60 * MB).encode())])
    )
    assert start["status"] == 413
    # No figure: the site's largest body (a photo and its form) is more than
    # the page that sent it allows (the import's 10 MB, the photo's 25 MB),
    # and each of those pages says its own.
    page = body["body"].decode()
    assert "Diese Datei ist zu groß" in page and "MB" not in page


ROOM = {"public": {"count": 2, "bytes": 1000}, "signed_in": {"count": 1, "bytes": 1000}}


def _visited(headers, who):
    """A request's scope as Visitors leaves it: who it is from decided."""
    return {**scope(headers), VISITOR_KEY: who}


@override_settings(REQUEST_BODIES=ROOM)
def test_bodies_in_flight_beyond_their_room_are_refused_unread():
    """Bodies being read (or held) count until their request ends: one more
    than the room takes, by count or by bytes, gets 503 at once and its body
    is never read; a signed-in user's has a room of its own."""

    async def scenario():
        inner = Inner()
        app = BodyLimits(inner)
        length = [(b"content-length", b"400")]
        slow = [
            ApplicationCommunicator(app, _visited(length, Visitor.ANONYMOUS))
            for _ in range(2)
        ]
        for talk in slow:  # in flight: a part of each body sent
            await talk.send_input(
                {"type": "http.request", "body": b"a", "more_body": True}
            )
        await asyncio.sleep(0.05)
        third = await _answer(app, _visited(length, Visitor.ANONYMOUS), [b"a" * 400])
        referee = await _answer(app, _visited(length, Visitor.SIGNED_IN), [b"a" * 400])
        for talk in slow:
            await talk.send_input({"type": "http.request", "body": b"a" * 399})
            await talk.receive_output(timeout=5)
        # Their bodies read and answered, the room is free again.
        after = await _answer(app, _visited(length, Visitor.ANONYMOUS), [b"a" * 400])
        return third, referee, after, inner

    third, referee, after, inner = async_to_sync(scenario)()
    start, body = third
    assert start["status"] == 503
    assert (b"connection", b"close") in start["headers"]
    assert "zu viele Anfragen" in body["body"].decode()
    assert referee[0]["status"] == 200 and after[0]["status"] == 200
    assert inner.read == 4 * 400  # never the refused one's


@override_settings(REQUEST_BODIES=ROOM)
def test_the_bytes_in_flight_are_bounded_too():
    async def scenario():
        app = BodyLimits(Inner())
        big = ApplicationCommunicator(
            app, _visited([(b"content-length", b"900")], Visitor.ANONYMOUS)
        )
        await big.send_input({"type": "http.request", "body": b"a", "more_body": True})
        await asyncio.sleep(0.05)
        return await _answer(
            app,
            _visited([(b"content-length", b"200")], Visitor.ANONYMOUS),
            [b"a" * 200],
        )

    start, _ = async_to_sync(scenario)()
    assert start["status"] == 503
